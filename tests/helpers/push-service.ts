// A local stand-in for a browser's push service (FCM, Mozilla autopush…), for tests: it holds a
// subscription's private keys like a browser does, answers the server's POSTs as RFC 8030 says, and
// decrypts what it received with its own RFC 8291 (aes128gcm) implementation, independent of the
// library the server sends with. It also checks the VAPID (RFC 8292) Authorization header.
import { createECDH, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { importJWK, jwtVerify } from 'jose';

export interface ReceivedPush {
  endpoint: string;
  headers: Headers;
  body: Uint8Array;
}

export interface PushClient {
  /** What the browser's PushSubscription.toJSON() gives. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  decrypt: (body: Uint8Array) => string;
}

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');

/** A subscription (endpoint + keys) whose private half stays here. */
export function pushClient(endpoint: string): PushClient {
  const ecdh = createECDH('prime256v1');
  const uaPublic = ecdh.generateKeys();
  const authSecret = randomBytes(16);
  return {
    subscription: { endpoint, expirationTime: null, keys: { p256dh: b64url(uaPublic), auth: b64url(authSecret) } },
    decrypt(body) {
      const buf = Buffer.from(body);
      const salt = buf.subarray(0, 16);
      const rs = buf.readUInt32BE(16);
      const idlen = buf[20] ?? 0;
      const asPublic = buf.subarray(21, 21 + idlen);
      const ciphertext = buf.subarray(21 + idlen);
      if (ciphertext.length > rs) throw new Error('more than one record');
      const ecdhSecret = ecdh.computeSecret(asPublic);
      const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
      const ikm = Buffer.from(hkdfSync('sha256', ecdhSecret, authSecret, keyInfo, 32));
      const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
      const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(ciphertext.subarray(ciphertext.length - 16));
      const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, ciphertext.length - 16)), decipher.final()]);
      // The last record ends with the delimiter 0x02 followed by zero padding.
      let end = padded.length - 1;
      while (end >= 0 && padded[end] === 0) end--;
      if (padded[end] !== 2) throw new Error('bad padding delimiter');
      return padded.subarray(0, end).toString('utf8');
    },
  };
}

/** The push service: a fetch the app's deps use. Endpoints in `gone` answer 410 like an expired subscription. */
export function pushService(origin = 'https://push.example.test') {
  const received: ReceivedPush[] = [];
  const gone = new Set<string>();
  let n = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    if (!url.startsWith(origin)) return new Response('unexpected host', { status: 502 });
    const headers = new Headers(init?.headers);
    const body = new Uint8Array(init?.body instanceof ArrayBuffer ? init.body : await new Response(init?.body).arrayBuffer());
    if (gone.has(url)) return new Response(null, { status: 410 });
    received.push({ endpoint: url, headers, body });
    return new Response(null, { status: 201 });
  };
  return {
    origin,
    fetch: fetch as typeof globalThis.fetch,
    received,
    gone,
    /** A new browser subscription on this service. */
    client: () => pushClient(`${origin}/send/${++n}-${randomBytes(6).toString('hex')}`),
  };
}

/** Verifies the VAPID header (RFC 8292): `vapid t=<ES256 JWT>, k=<public key>`; returns the key and claims. */
export async function verifyVapid(headers: Headers, endpoint: string) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(headers.get('authorization') ?? '');
  if (!match) throw new Error(`no VAPID authorization: ${headers.get('authorization')}`);
  const [, token = '', k = ''] = match;
  const point = Buffer.from(k, 'base64url');
  const key = await importJWK({ kty: 'EC', crv: 'P-256', x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33, 65)) }, 'ES256');
  const { payload } = await jwtVerify(token, key, { algorithms: ['ES256'], audience: new URL(endpoint).origin });
  return { k, claims: payload };
}
