/**
 * Adds each [event, listener] to `target` and returns the function that removes them all: an effect's
 * subscription and its cleanup written once, so the two lists cannot drift apart.
 */
export function listen(target: EventTarget, listeners: readonly (readonly [string, EventListener])[]): () => void {
  for (const [type, listener] of listeners) target.addEventListener(type, listener);
  return () => {
    for (const [type, listener] of listeners) target.removeEventListener(type, listener);
  };
}
