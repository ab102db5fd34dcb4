// A software passkey for API tests: a P-256 key pair and the WebAuthn wire format written by hand (CBOR from
// @simplewebauthn/server's helpers, ECDSA from WebCrypto), so a test can register a passkey and sign in with
// it as a browser would, and also sign for the wrong challenge, origin or user. The browser tests use
// Chromium's own virtual authenticator instead (CDP WebAuthn).
import { isoCBOR } from '@simplewebauthn/server/helpers';
import { randomBytes, toBase64Url } from '../../worker/lib/bytes';

const enc = new TextEncoder();
const b64url = (bytes: Uint8Array) => toBase64Url(bytes);
const concat = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
};
const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest('SHA-256', new Uint8Array(data)));

/** Raw r||s (WebCrypto) → ASN.1 DER (what WebAuthn carries). */
function derSignature(raw: Uint8Array): Uint8Array {
  const int = (bytes: Uint8Array) => {
    let i = 0;
    while (i < bytes.length - 1 && bytes[i] === 0) i++;
    let v = bytes.slice(i);
    if ((v[0] ?? 0) & 0x80) v = concat(new Uint8Array([0]), v);
    return concat(new Uint8Array([0x02, v.length]), v);
  };
  const body = concat(int(raw.slice(0, 32)), int(raw.slice(32)));
  return concat(new Uint8Array([0x30, body.length]), body);
}

export interface SoftPasskey {
  id: string;
  userHandle?: string;
  counter: number;
  /** navigator.credentials.create()'s answer for these options. */
  register: (options: { challenge: string; rp: { id?: string }; user: { id: string } }, origin: string) => Promise<Record<string, unknown>>;
  /** navigator.credentials.get()'s answer for a challenge. */
  assert: (challenge: string, origin: string, rpId: string, overrides?: { userHandle?: string }) => Promise<Record<string, unknown>>;
}

export async function createSoftPasskey(): Promise<SoftPasskey> {
  const keys = (await crypto.subtle.generateKey({ name: 'ECDSA', namedCurve: 'P-256' }, true, ['sign', 'verify'])) as CryptoKeyPair;
  const jwk = await crypto.subtle.exportKey('jwk', keys.publicKey);
  const fromJwk = (s: string) => Uint8Array.from(Buffer.from(s, 'base64url'));
  const cose = new Map<number, number | Uint8Array>([
    [1, 2],
    [3, -7],
    [-1, 1],
    [-2, fromJwk(jwk.x!)],
    [-3, fromJwk(jwk.y!)],
  ]);
  const credentialId = randomBytes(32);
  const passkey: SoftPasskey = {
    id: b64url(credentialId),
    counter: 0,
    async register(options, origin) {
      const rpId = options.rp.id ?? new URL(origin).hostname;
      passkey.userHandle = options.user.id;
      const clientDataJSON = enc.encode(
        JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin, crossOrigin: false }),
      );
      const counter = new Uint8Array(4);
      const credLen = new Uint8Array([credentialId.length >> 8, credentialId.length & 0xff]);
      // Flags: user present (0x01), user verified (0x04), attested credential data (0x40).
      const authData = concat(
        await sha256(enc.encode(rpId)),
        new Uint8Array([0x45]),
        counter,
        new Uint8Array(16),
        credLen,
        credentialId,
        isoCBOR.encode(cose),
      );
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', authData],
        ]) as never,
      );
      return {
        id: passkey.id,
        rawId: passkey.id,
        type: 'public-key',
        response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
    async assert(challenge, origin, rpId, overrides = {}) {
      passkey.counter += 1;
      const clientDataJSON = enc.encode(JSON.stringify({ type: 'webauthn.get', challenge, origin, crossOrigin: false }));
      const counter = new Uint8Array([
        (passkey.counter >>> 24) & 0xff,
        (passkey.counter >>> 16) & 0xff,
        (passkey.counter >>> 8) & 0xff,
        passkey.counter & 0xff,
      ]);
      const authData = concat(await sha256(enc.encode(rpId)), new Uint8Array([0x05]), counter);
      const signed = concat(authData, await sha256(clientDataJSON));
      const raw = new Uint8Array(await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, keys.privateKey, new Uint8Array(signed)));
      return {
        id: passkey.id,
        rawId: passkey.id,
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientDataJSON),
          authenticatorData: b64url(authData),
          signature: b64url(derSignature(raw)),
          userHandle: overrides.userHandle ?? passkey.userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
  return passkey;
}
