/**
 * The first page of a visit renders once, with its data: main.tsx waits for router.load() before
 * mounting, and loaders await their queries only then (later navigations show their own loading
 * states). One complete paint is both faster on slow phones and free of skeleton flashes.
 */
let rendered = false;

export const isFirstLoad = () => !rendered;

export function markFirstRender(): void {
  rendered = true;
}

/** In a loader: wait for the query on the first load only; its errors are the page's to show. */
export async function awaitOnFirstLoad(promise: Promise<unknown>): Promise<void> {
  if (isFirstLoad()) await promise.catch(() => undefined);
  else promise.catch(() => undefined);
}
