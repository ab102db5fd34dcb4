import { ApiError } from '../../../lib/api-client';
import { authedCall } from '../../../lib/auth-request';

type Headers = Record<string, string>;

function errorOf(status: number, body: unknown): ApiError {
  const error = typeof body === 'object' && body !== null && 'error' in body ? body.error : undefined;
  const code = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : 'http_error';
  const message =
    typeof error === 'object' && error !== null && 'message' in error && typeof error.message === 'string'
      ? error.message
      : `Request failed with status code ${status}`;
  return new ApiError(status, code, message);
}

/**
 * Every admin call: sent with the viewer's Bearer token (renewed and retried once on 401/403), its
 * body typed by the hc client's route, or ApiError carrying the API's { error: { code, message } }.
 */
export async function adminCall<T>(call: (headers: Headers) => Promise<{ ok: boolean; status: number; json(): Promise<T> }>): Promise<T> {
  const res = await authedCall(call);
  if (!res.ok) {
    const body: unknown = await res.json().catch(() => null);
    throw errorOf(res.status, body);
  }
  return res.json();
}

/** The API's message for a failed call, for a toast under the page's own text. */
export const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
