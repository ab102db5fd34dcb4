// What both rooms (comments.ts, watch.ts) need to answer the API over HTTP and to close sockets: one copy.
import type * as Party from 'partykit/server';
import { timingSafeEqual } from '../worker/lib/bytes';
import { PARTY_SECRET_HEADER } from '../worker/schemas/values';

export function json(body: unknown, status: number): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * Sends to a socket that may be going away (its close handler tidies up): an event (serialised here) or a message
 * already serialised once for many sockets. Answers whether it went.
 */
export function sendQuietly(connection: Party.Connection, message: object | string): boolean {
  try {
    connection.send(typeof message === 'string' ? message : JSON.stringify(message));
    return true;
  } catch {
    return false;
  }
}

/** Closes a socket that may already be closed or gone: a socket's end is never an error worth throwing. */
export function closeQuietly(connection: Party.Connection, code?: number, reason?: string): void {
  try {
    connection.close(code, reason);
  } catch {
    // already closed by the peer or the runtime
  }
}

/** Compares two secrets in time that depends only on their lengths. */
const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(new TextEncoder().encode(given), new TextEncoder().encode(expected));

/**
 * Why an API call to a room is refused before its body is read (another method; no secret configured: fail
 * closed; a wrong secret), or null.
 */
export function secretRefusal(req: Party.Request, env: Record<string, unknown>, methods: readonly string[]): Response | null {
  if (!methods.includes(req.method)) return json({ error: { code: 'method_not_allowed', message: `${methods.join(' or ')} only` } }, 405);
  const expected = env.PARTY_SECRET;
  if (typeof expected !== 'string' || expected.length === 0)
    return json({ error: { code: 'unavailable', message: 'PARTY_SECRET is not configured' } }, 503);
  if (!sameSecret(req.headers.get(PARTY_SECRET_HEADER) ?? '', expected))
    return json({ error: { code: 'unauthorized', message: 'bad secret' } }, 401);
  return null;
}

interface SafeParser<T> {
  safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: readonly { message: string }[] } };
}

/** The request's JSON body checked by `schema`: its data, or the 413/400 answer that says what is wrong. */
export async function readJsonBody<T>(
  req: Party.Request,
  maxBytes: number,
  schema: SafeParser<T>,
): Promise<{ data: T } | { refusal: Response }> {
  const text = await req.text();
  if (text.length > maxBytes) return { refusal: json({ error: { code: 'payload_too_large', message: 'too large' } }, 413) };
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { refusal: json({ error: { code: 'invalid_input', message: 'body: malformed JSON' } }, 400) };
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success)
    return { refusal: json({ error: { code: 'invalid_input', message: parsed.error.issues[0]?.message ?? 'invalid' } }, 400) };
  return { data: parsed.data };
}
