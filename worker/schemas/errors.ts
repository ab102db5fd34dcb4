// The one error shape on the wire, every endpoint alike (worker/lib/errors.ts builds it).

/** { error: { code, message } }: code is machine-readable ('invalid_input', 'vip_required'…), message is shown as is. */
export interface ErrorBody {
  /** retryAfter: seconds to wait (a 429 that knows it, e.g. slow mode; also the Retry-After header). */
  error: { code: string; message: string; retryAfter?: number };
}
