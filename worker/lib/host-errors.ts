// Errors the Node host meets before the app sees a request (a URL it cannot parse, a malformed HTTP
// message), answered in the API's one error shape instead of a bodyless 400.
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from '../schemas/errors';

const body = (code: string, message: string): string => JSON.stringify({ error: { code, message } } satisfies ErrorBody);

/**
 * For @hono/node-server's errorHandler: it receives a RequestError when the request could not be built
 * (backslash in the path, invalid Host or URL) and anything the fetch callback threw otherwise.
 */
export function hostErrorResponse(err: unknown): Response {
  const requestError = err instanceof Error && err.name === 'RequestError';
  if (!requestError) console.error('[host]', err);
  const status = requestError ? 400 : 500;
  const text = requestError
    ? body('invalid_input', `path: ${err.message}`)
    : body('internal', 'Đã xảy ra lỗi máy chủ, vui lòng thử lại sau.');
  return new Response(text, {
    status,
    headers: { 'Content-Type': 'application/json; charset=UTF-8', 'X-Content-Type-Options': 'nosniff' },
  });
}

/**
 * node:http's 'clientError': the parser rejected the message (a raw non-ASCII byte or a space in the
 * path, a malformed header, headers too large). Node's default answer has no body; this one has the
 * JSON error, then closes the connection as Node would.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const status = err.code === 'HPE_HEADER_OVERFLOW' ? 431 : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const text =
    status === 400
      ? body('invalid_input', 'request: malformed HTTP request (path or header)')
      : body(status === 431 ? 'headers_too_large' : 'timeout', STATUS_CODES[status] ?? 'Error');
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n${text}`,
  );
}
