// The one error shape on the wire, every endpoint alike (worker/lib/errors.ts builds it).

/** { error: { code, message } }: code is machine-readable ('invalid_input', 'vip_required'…), message is shown as is. */
export interface ErrorBody {
  error: { code: string; message: string };
}
