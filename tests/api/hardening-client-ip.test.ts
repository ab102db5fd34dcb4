import { describe, expect, it } from 'vitest';
import { clientIp, nodeClientAddress } from '../../worker/lib/client-ip';
import { createNodeRoot } from '../../worker/node';
import { RATE_LIMITS } from '../../worker/services/rate-limit';
import { createTestApp } from '../helpers/app';

/** The Node host's root with a socket address, as @hono/node-server passes it in the env. */
async function nodeHost(trustProxy = false) {
  const { deps } = await createTestApp({ config: { TRUST_PROXY: trustProxy } });
  const root = createNodeRoot(deps);
  return (path: string, init: RequestInit, remoteAddress: string) => root.request(path, init, { incoming: { socket: { remoteAddress } } });
}

const signIn = (email: string, headers: Record<string, string>): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify({ email, password: 'sai-mat-khau-123' }),
});

describe('client address on the Node host', () => {
  it('login limit per IP holds when the client changes CF-Connecting-IP or X-Forwarded-For', async () => {
    const request = await nodeHost();
    const limit = RATE_LIMITS.loginPerIp.limit;
    for (let i = 0; i < limit; i++) {
      const forged = { 'cf-connecting-ip': `203.0.113.${i}`, 'x-forwarded-for': `198.51.100.${i}` };
      expect((await request('/api/dang-nhap', signIn(`ai-${i}@example.com`, forged), '192.0.2.50')).status).toBe(401);
    }
    const forged = { 'cf-connecting-ip': '203.0.113.250', 'x-forwarded-for': '198.51.100.250' };
    expect((await request('/api/dang-nhap', signIn('khac@example.com', forged), '192.0.2.50')).status).toBe(429);
    // Another machine is its own bucket.
    expect((await request('/api/dang-nhap', signIn('khac@example.com', {}), '192.0.2.51')).status).toBe(401);
  });

  it('with TRUST_PROXY the proxy-set address counts, so clients behind one proxy are told apart', async () => {
    const request = await nodeHost(true);
    const limit = RATE_LIMITS.loginPerIp.limit;
    for (let i = 0; i < limit; i++)
      expect(
        (await request('/api/dang-nhap', signIn(`ai-${i}@example.com`, { 'x-forwarded-for': '203.0.113.7' }), '127.0.0.1')).status,
      ).toBe(401);
    expect((await request('/api/dang-nhap', signIn('khac@example.com', { 'x-forwarded-for': '203.0.113.7' }), '127.0.0.1')).status).toBe(
      429,
    );
    expect((await request('/api/dang-nhap', signIn('khac@example.com', { 'x-forwarded-for': '203.0.113.8' }), '127.0.0.1')).status).toBe(
      401,
    );
  });

  it('nodeClientAddress: the socket unless a proxy is trusted; then its CF-Connecting-IP, else the last X-Forwarded-For hop', () => {
    const forged = new Headers({ 'cf-connecting-ip': '203.0.113.1', 'x-forwarded-for': '198.51.100.1' });
    expect(nodeClientAddress(forged, '192.0.2.1', false)).toBe('192.0.2.1');
    expect(nodeClientAddress(new Headers(), undefined, false)).toBe('unknown');
    expect(nodeClientAddress(forged, '127.0.0.1', true)).toBe('203.0.113.1');
    expect(nodeClientAddress(new Headers({ 'x-forwarded-for': '6.6.6.6, 198.51.100.2' }), '127.0.0.1', true)).toBe('198.51.100.2');
    expect(nodeClientAddress(new Headers(), '127.0.0.1', true)).toBe('127.0.0.1');
  });

  it('clientIp reads the header the host wrote (Cloudflare on Workers, the socket on Node)', () => {
    expect(clientIp(new Headers({ 'cf-connecting-ip': '203.0.113.1', 'x-forwarded-for': '198.51.100.1' }))).toBe('203.0.113.1');
    expect(clientIp(new Headers())).toBe('unknown');
  });
});
