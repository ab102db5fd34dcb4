import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { ErrorBody } from '../schemas/errors';

export class ApiError extends HTTPException {
  readonly code: string;
  /** Seconds to wait before trying again: in the body and as Retry-After (slow mode, issue 38). */
  readonly retryAfter?: number;
  constructor(status: ContentfulStatusCode, code: string, message: string, retryAfter?: number) {
    super(status, { message });
    this.code = code;
    if (retryAfter !== undefined) this.retryAfter = retryAfter;
  }
}

export const badRequest = (field: string, message: string) => new ApiError(400, 'invalid_input', `${field}: ${message}`);
export const notFound = (message = 'Không tìm thấy') => new ApiError(404, 'not_found', message);
export const unauthorized = (message = 'Bạn cần đăng nhập') => new ApiError(401, 'unauthorized', message);
export const forbidden = (message = 'Bạn không có quyền thực hiện thao tác này') => new ApiError(403, 'forbidden', message);
export const conflict = (message: string) => new ApiError(409, 'conflict', message);
export const tooManyRequests = (message = 'Bạn thao tác quá nhanh, vui lòng thử lại sau ít phút.') =>
  new ApiError(429, 'rate_limited', message);

const CODE_BY_STATUS: Record<number, string> = {
  400: 'invalid_input',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  405: 'method_not_allowed',
  409: 'conflict',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limited',
};

/** Maps anything thrown to a status and the error body; unknown errors are 500 without details. */
export function toErrorBody(err: unknown): { status: ContentfulStatusCode; body: ErrorBody } {
  if (err instanceof ApiError)
    return {
      status: err.status,
      body: { error: { code: err.code, message: err.message, ...(err.retryAfter !== undefined ? { retryAfter: err.retryAfter } : {}) } },
    };
  if (err instanceof HTTPException) {
    const status = err.status as ContentfulStatusCode;
    const message = status === 400 && /json/i.test(err.message) ? 'body: malformed JSON' : err.message || 'Request failed';
    return { status, body: { error: { code: CODE_BY_STATUS[status] ?? 'error', message } } };
  }
  return { status: 500, body: { error: { code: 'internal', message: 'Đã xảy ra lỗi máy chủ, vui lòng thử lại sau.' } } };
}
