/**
 * A signal that aborts after `ms`: AbortSignal.timeout where the browser has it (Safari from 16), else a controller
 * and a timer, so a request never waits for ever because the browser is older.
 */
export function timeoutSignal(ms: number): AbortSignal {
  if (typeof AbortSignal.timeout === 'function') return AbortSignal.timeout(ms);
  const controller = new AbortController();
  setTimeout(() => controller.abort(new DOMException('timed out', 'TimeoutError')), ms);
  return controller.signal;
}
