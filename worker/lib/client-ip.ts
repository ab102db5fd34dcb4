// The client address, read in one way by the app and written by the hosts (docs/decisions/0600-client-address.md).

/**
 * The request header that carries the client address into the app. Cloudflare sets it on Workers (a
 * client cannot forge it there); the Node host overwrites it with its socket's address.
 */
export const CLIENT_IP_HEADER = 'cf-connecting-ip';

/**
 * The caller's address as the host wrote it, else the first hop of X-Forwarded-For (in-process callers
 * such as tests, which have no host), else 'unknown' so every such request shares one bucket.
 */
export function clientIp(headers: Headers): string {
  const host = headers.get(CLIENT_IP_HEADER)?.trim();
  if (host) return host.slice(0, 64);
  const forwarded = headers.get('x-forwarded-for')?.split(',')[0]?.trim();
  if (forwarded) return forwarded.slice(0, 64);
  return 'unknown';
}

/**
 * The Node host's view of the client: its socket's address. Only when a proxy the operator runs sits in
 * front (TRUST_PROXY) is a header believed: the proxy's CF-Connecting-IP, else the last
 * X-Forwarded-For hop, the one that proxy appended (earlier hops are whatever the client sent).
 */
export function nodeClientAddress(headers: Headers, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const cf = headers.get('cf-connecting-ip')?.trim();
    if (cf) return cf;
    const last = headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return socketAddress || 'unknown';
}

/** A copy of the request whose client-address headers are the host's alone. */
export function withClientAddress(request: Request, address: string): Request {
  const copy = new Request(request);
  copy.headers.delete('x-forwarded-for');
  copy.headers.set(CLIENT_IP_HEADER, address);
  return copy;
}
