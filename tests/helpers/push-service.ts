// A local stand-in for a browser's push service (FCM, Mozilla autopush…), for tests: it holds a
// subscription's private keys like a browser does, answers the server's POSTs as RFC 8030 says, and
// decrypts what it received with its own RFC 8291 (aes128gcm) implementation, independent of the
// library the server sends with. It also checks the VAPID (RFC 8292) Authorization header.
import { execFileSync } from 'node:child_process';
import { createECDH, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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

/**
 * The push service: a fetch the app's deps use. Endpoints in `gone` answer 410 like an expired subscription; an
 * endpoint in `unavailable` answers 503 with `Retry-After: retryAfterSeconds` that many more times, then accepts.
 * `attempts` lists every request in order with the status it got.
 */
export function pushService(origin = 'https://push.example.test') {
  const received: ReceivedPush[] = [];
  const attempts: { endpoint: string; status: number; at: number }[] = [];
  const gone = new Set<string>();
  const unavailable = new Map<string, number>();
  const options = { retryAfterSeconds: 1 };
  let n = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const url = String(input instanceof Request ? input.url : input);
    if (!url.startsWith(origin)) return new Response('unexpected host', { status: 502 });
    const headers = new Headers(init?.headers);
    const body = new Uint8Array(init?.body instanceof ArrayBuffer ? init.body : await new Response(init?.body).arrayBuffer());
    const status = gone.has(url) ? 410 : (unavailable.get(url) ?? 0) > 0 ? 503 : 201;
    attempts.push({ endpoint: url, status, at: Date.now() });
    if (status === 410) return new Response(null, { status });
    if (status === 503) {
      unavailable.set(url, (unavailable.get(url) ?? 1) - 1);
      return new Response(null, { status, headers: { 'retry-after': String(options.retryAfterSeconds) } });
    }
    received.push({ endpoint: url, headers, body });
    return new Response(null, { status: 201 });
  };
  return {
    origin,
    fetch: fetch as typeof globalThis.fetch,
    received,
    attempts,
    gone,
    unavailable,
    options,
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

// ---- over HTTPS, for a host in another process (tests/api/push-queue.test.ts, bench/premiere/push.ts) ----

/** What one endpoint got: every message accepted, with its Topic, in order. */
export interface EndpointLog {
  topics: string[];
  bodies: Uint8Array[];
}

export interface PushServer {
  /** https://127.0.0.1:PORT; its self-signed certificate is in `caFile` (a child's NODE_EXTRA_CA_CERTS). */
  origin: string;
  caFile: string;
  /** Accepted messages per endpoint URL. */
  received: Map<string, EndpointLog>;
  /** Requests that got an answer, and requests being answered now (their message counts as received). */
  answered: () => number;
  inFlight: () => number;
  /** Endpoints answered 410 Gone, and those answered 503 with Retry-After before they accepted. */
  gone: Set<string>;
  unavailable: Map<string, number>;
  /** Holds every answer (the senders' requests wait) until resume(). */
  pause: () => void;
  resume: () => void;
  /** Messages kept per endpoint once a later one with the same Topic replaced an undelivered earlier one (RFC 8030 §5.4). */
  held: (endpoint: string) => number;
  close: () => Promise<void>;
}

/**
 * The push service on loopback HTTPS. Each answer waits `latencyMs()`; an endpoint in `gone` answers 410, one in
 * `unavailable` answers 503 with `Retry-After: retryAfterSeconds` that many times and then accepts (201). A message
 * counts as received when its request arrives, as at a real service: a sender killed before the answer still
 * delivered it. Bodies are kept only with `keepBodies`.
 */
export async function startPushServer(
  options: { latencyMs?: () => number; retryAfterSeconds?: number; keepBodies?: boolean } = {},
): Promise<PushServer> {
  const dir = mkdtempSync(join(tmpdir(), 'phimviet-push-'));
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '2',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      join(dir, 'key.pem'),
      '-out',
      join(dir, 'cert.pem'),
    ],
    { stdio: 'ignore' },
  );
  const received = new Map<string, EndpointLog>();
  const gone = new Set<string>();
  const unavailable = new Map<string, number>();
  let answered = 0;
  let inFlight = 0;
  let paused: Promise<void> | undefined;
  let resume: () => void = () => undefined;
  const server = createServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (req: IncomingMessage, res: ServerResponse) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        inFlight++;
        const endpoint = `${origin}${req.url ?? ''}`;
        let status = 201;
        if (req.method !== 'POST' || req.headers['content-encoding'] !== 'aes128gcm' || !req.headers.authorization?.startsWith('vapid '))
          status = 400;
        else if (gone.has(endpoint)) status = 410;
        else if ((unavailable.get(endpoint) ?? 0) > 0) {
          unavailable.set(endpoint, (unavailable.get(endpoint) ?? 1) - 1);
          status = 503;
        } else {
          const log = received.get(endpoint) ?? { topics: [], bodies: [] };
          log.topics.push(String(req.headers.topic ?? ''));
          if (options.keepBodies) log.bodies.push(new Uint8Array(Buffer.concat(chunks)));
          received.set(endpoint, log);
        }
        const wait = options.latencyMs?.() ?? 0;
        if (wait > 0) await new Promise((r) => setTimeout(r, wait));
        while (paused) await paused;
        inFlight--;
        answered++;
        if (res.destroyed) return;
        res.writeHead(status, status === 503 ? { 'retry-after': String(options.retryAfterSeconds ?? 1) } : {});
        res.end();
      });
    },
  );
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const origin = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    caFile: join(dir, 'cert.pem'),
    received,
    answered: () => answered,
    inFlight: () => inFlight,
    gone,
    unavailable,
    pause: () => {
      paused ??= new Promise<void>((r) => {
        resume = () => {
          paused = undefined;
          r();
        };
      });
    },
    resume: () => resume(),
    held: (endpoint) => new Set(received.get(endpoint)?.topics ?? []).size,
    close: () =>
      new Promise<void>((done) => {
        resume();
        server.close(() => done());
        server.closeAllConnections();
        rmSync(dir, { recursive: true, force: true });
      }),
  };
}
