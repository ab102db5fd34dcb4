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
export function nodeClientAddress(headers: Pick<Headers, 'get'>, socketAddress: string | undefined, trustProxy: boolean): string {
  if (trustProxy) {
    const cf = headers.get('cf-connecting-ip')?.trim();
    if (cf) return cf;
    const last = headers.get('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (last) return last;
  }
  return socketAddress || 'unknown';
}

/**
 * The Node host's listener, before the request becomes a Request: the client-address headers of the
 * raw request (what @hono/node-server builds its Request from) become the host's alone. Then the
 * app-level check finds them right and needs no copy of the Request (withClientAddress), which cost a
 * whole WHATWG Request per API call.
 */
export function setClientAddressOnRaw(
  incoming: { rawHeaders: string[]; headers?: Record<string, string | string[] | undefined>; socket?: { remoteAddress?: string } },
  trustProxy: boolean,
): void {
  const raw = incoming.rawHeaders;
  const kept: string[] = [];
  const seen: Record<string, string> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i]!.toLowerCase();
    if (name === CLIENT_IP_HEADER || name === 'x-forwarded-for') {
      // Repeated headers read as Headers.get would: joined with ', '.
      seen[name] = seen[name] === undefined ? raw[i + 1]! : `${seen[name]}, ${raw[i + 1]}`;
    } else kept.push(raw[i]!, raw[i + 1]!);
  }
  const address = nodeClientAddress({ get: (name) => seen[name.toLowerCase()] ?? null }, incoming.socket?.remoteAddress, trustProxy);
  kept.push(CLIENT_IP_HEADER, address);
  incoming.rawHeaders = kept;
  // Node has parsed `headers` from the raw ones before the listener runs (it reads Host), and @hono/node-server
  // reads a header from that object first: it must say the same, or every request was copied after all.
  const parsed = incoming.headers;
  if (parsed) {
    delete parsed['x-forwarded-for'];
    parsed[CLIENT_IP_HEADER] = address;
  }
}

/** True when the request's client-address headers are already the host's alone (setClientAddressOnRaw). */
export function carriesClientAddress(headers: Headers, address: string): boolean {
  return headers.get(CLIENT_IP_HEADER) === address && !headers.has('x-forwarded-for');
}

/** A copy of the request whose client-address headers are the host's alone. */
export function withClientAddress(request: Request, address: string): Request {
  const copy = new Request(request);
  copy.headers.delete('x-forwarded-for');
  copy.headers.set(CLIENT_IP_HEADER, address);
  return copy;
}
