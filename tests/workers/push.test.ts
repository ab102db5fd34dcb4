// Web Push inside workerd: the VAPID key from the Worker's secrets, a subscription stored through the
// Worker entry, and a push request built by the library on the Workers WebCrypto (RFC 8291 aes128gcm,
// RFC 8292 VAPID) whose signature verifies. A Node-only API in the library would fail here.
import { buildPushPayload } from '@block65/webcrypto-web-push';
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import worker from '../../worker/index';

async function call(path: string, init: { method?: string; json?: unknown; token?: string } = {}) {
  const ctx = createExecutionContext();
  const headers: Record<string, string> = { 'cf-connecting-ip': '198.51.100.9' };
  if (init.json !== undefined) headers['content-type'] = 'application/json';
  if (init.token) headers.authorization = `Bearer ${init.token}`;
  const request = new Request(`https://phimviet.example.workers.dev${path}`, {
    method: init.method ?? (init.json === undefined ? 'GET' : 'POST'),
    headers,
    body: init.json === undefined ? undefined : JSON.stringify(init.json),
  }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

const b64url = (bytes: ArrayBuffer | Uint8Array) =>
  btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
const fromB64url = (s: string) => Uint8Array.from(atob(s.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

describe('Workers entry: Web Push', () => {
  it('serves the VAPID key, stores a subscription and builds a signed aes128gcm push', async () => {
    const keyRes = await call('/api/push/public-key');
    expect(keyRes.status).toBe(200);
    const { key } = (await keyRes.json()) as { key: string };
    expect(key).toBe(env.VAPID_PUBLIC_KEY);

    // A browser's subscription keys.
    const browser = (await crypto.subtle.generateKey({ name: 'ECDH', namedCurve: 'P-256' }, true, ['deriveBits'])) as CryptoKeyPair;
    const p256dh = b64url((await crypto.subtle.exportKey('raw', browser.publicKey)) as ArrayBuffer);
    const auth = b64url(crypto.getRandomValues(new Uint8Array(16)));
    const subscription = {
      endpoint: `https://fcm.googleapis.com/fcm/send/workerd-${Date.now()}`,
      expirationTime: null,
      keys: { p256dh, auth },
    };

    const email = `push-${Date.now()}@example.com`;
    expect(
      (await call('/api/dang-ky', { json: { email, name: 'Lê Văn Push', password: 'mat-khau-push-1', acceptPrivacy: true } })).status,
    ).toBe(201);
    const { token } = (await (await call('/api/dang-nhap', { json: { email, password: 'mat-khau-push-1' } })).json()) as { token: string };
    expect((await call('/api/me/push-subscriptions', { json: subscription, token })).status).toBe(201);
    expect(
      (await call('/api/me/push-subscriptions', { json: { ...subscription, endpoint: 'https://evil.example/x' }, token })).status,
    ).toBe(400);

    const request = await buildPushPayload({ data: { title: 'Mắt Biếc: đã có tập 2' }, options: { ttl: 60 } }, subscription, {
      subject: 'mailto:ops@phimviet.example',
      publicKey: env.VAPID_PUBLIC_KEY ?? '',
      privateKey: env.VAPID_PRIVATE_KEY ?? '',
    });
    expect(request.headers['content-encoding']).toBe('aes128gcm');
    // Record header: salt(16) rs(4) idlen(1) keyid(65 = the sender's public point).
    expect(request.body[20]).toBe(65);
    expect(request.body[21]).toBe(4);
    const [, jwt = '', k] = /^vapid t=([^,]+), k=(.+)$/.exec(request.headers.authorization) ?? [];
    expect(k).toBe(key);
    const [header = '', claims = '', signature = ''] = jwt.split('.');
    const point = fromB64url(key);
    const publicKey = await crypto.subtle.importKey(
      'jwk',
      { kty: 'EC', crv: 'P-256', x: b64url(point.slice(1, 33)), y: b64url(point.slice(33, 65)) },
      { name: 'ECDSA', namedCurve: 'P-256' },
      false,
      ['verify'],
    );
    const valid = await crypto.subtle.verify(
      { name: 'ECDSA', hash: 'SHA-256' },
      publicKey,
      fromB64url(signature),
      new TextEncoder().encode(`${header}.${claims}`),
    );
    expect(valid).toBe(true);
    expect(JSON.parse(new TextDecoder().decode(fromB64url(claims)))).toMatchObject({ aud: 'https://fcm.googleapis.com' });
  });
});
