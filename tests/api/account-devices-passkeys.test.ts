// Signed-in devices (refresh-token families) and passkeys (WebAuthn through a software authenticator,
// tests/helpers/webauthn.ts), with each bad input the issue names: another challenge, origin or user, a
// removed passkey.
import { beforeEach, describe, expect, it } from 'vitest';
import { PASSKEY_MESSAGES } from '../../worker/schemas/account-texts';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, createUser, signedInUser } from '../helpers/auth';
import { createSoftPasskey } from '../helpers/webauthn';

const ORIGIN = 'https://phimviet.example';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Mobile Safari/537.36';
const MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15';
let t: TestApp;

beforeEach(async () => {
  t = await createTestApp({ config: { PUBLIC_URL: ORIGIN } });
});

let ipCounter = 0;
const ip = () => `192.0.2.${(ipCounter++ % 250) + 1}`;
async function signInFrom(user: { email: string; password: string }, userAgent: string) {
  const res = await t.request('/api/dang-nhap', { json: user, headers: { 'user-agent': userAgent, 'x-forwarded-for': ip() } });
  expect(res.status).toBe(200);
  return (await res.json()) as { token: string; refreshToken: string };
}

describe('devices', () => {
  it('lists each signed-in device with browser, system and last activity; "Thiết bị này" is the caller', async () => {
    const user = await createUser(t.deps.db);
    const phone = await signInFrom(user, ANDROID);
    t.advance(60_000);
    const laptop = await signInFrom(user, MAC);
    const res = await t.request('/api/account/devices', { headers: bearer(phone.token) });
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toHaveLength(2);
    expect(data[0]).toMatchObject({ browser: 'Chrome 130', os: 'Android 14', kind: 'mobile', current: true });
    expect(data[1]).toMatchObject({ browser: 'Safari 17', os: 'macOS 10.15', kind: 'desktop', current: false });
    // A renewal moves "last active" and keeps the device.
    t.advance(60_000);
    const renewed = await t.request('/api/refresh_token', { json: { token: laptop.refreshToken }, headers: { 'user-agent': MAC } });
    expect(renewed.status).toBe(200);
    const after = (await (await t.request('/api/account/devices', { headers: bearer(phone.token) })).json()).data;
    expect(after).toHaveLength(2);
    expect(after[1].lastActiveAt).toBeGreaterThan(data[1].lastActiveAt);
    expect(after[1].signedInAt).toBe(data[1].signedInAt);
  });

  it('"Đăng xuất" on another device stops its refresh token and its access token at once', async () => {
    const user = await createUser(t.deps.db);
    const phone = await signInFrom(user, ANDROID);
    const laptop = await signInFrom(user, MAC);
    const { data } = await (await t.request('/api/account/devices', { headers: bearer(phone.token) })).json();
    const other = data.find((d: { current: boolean }) => !d.current);
    const out = await t.request(`/api/account/devices/${other.id}`, { method: 'DELETE', headers: bearer(phone.token) });
    expect(out.status).toBe(200);
    expect((await t.request('/api/refresh_token', { json: { token: laptop.refreshToken } })).status).toBe(401);
    expect((await t.request('/api/account', { headers: bearer(laptop.token) })).status).toBe(401);
    // This device goes on.
    expect((await t.request('/api/account', { headers: bearer(phone.token) })).status).toBe(200);
    // Another user cannot sign my devices out: 404, nothing changes.
    const stranger = await signedInUser(t);
    const mine = data.find((d: { current: boolean }) => d.current);
    const refused = await t.request(`/api/account/devices/${mine.id}`, { method: 'DELETE', headers: bearer(stranger.session.token) });
    expect(refused.status).toBe(404);
    expect((await t.request('/api/account', { headers: bearer(phone.token) })).status).toBe(200);
  });

  it('"Đăng xuất khỏi các thiết bị khác" keeps only the caller', async () => {
    const user = await createUser(t.deps.db);
    const phone = await signInFrom(user, ANDROID);
    const laptop = await signInFrom(user, MAC);
    const tablet = await signInFrom(user, ANDROID);
    const res = await t.request('/api/account/devices/logout-others', { method: 'POST', headers: bearer(phone.token) });
    expect(res.status).toBe(200);
    expect((await res.json()).count).toBe(2);
    for (const s of [laptop, tablet]) {
      expect((await t.request('/api/refresh_token', { json: { token: s.refreshToken } })).status).toBe(401);
      expect((await t.request('/api/account', { headers: bearer(s.token) })).status).toBe(401);
    }
    const list = (await (await t.request('/api/account/devices', { headers: bearer(phone.token) })).json()).data;
    expect(list).toHaveLength(1);
    expect(list[0].current).toBe(true);
    expect((await t.request('/api/refresh_token', { json: { token: phone.refreshToken } })).status).toBe(200);
  });
});

describe('passkeys', () => {
  async function addPasskey(token: string, name?: string) {
    const passkey = await createSoftPasskey();
    const options = await (await t.request('/api/account/passkeys/options', { method: 'POST', headers: bearer(token) })).json();
    expect(options.rp.id).toBe('phimviet.example');
    const response = await passkey.register(options, ORIGIN);
    const res = await t.request('/api/account/passkeys', {
      json: { response, ...(name ? { name } : {}) },
      headers: { ...bearer(token), 'user-agent': ANDROID },
    });
    expect(res.status).toBe(201);
    return { passkey, dto: (await res.json()).passkey };
  }
  const loginOptions = async () =>
    (await (await t.request('/api/auth/passkey/options', { method: 'POST', headers: { 'x-forwarded-for': ip() } })).json()) as {
      challenge: string;
      rpId: string;
    };
  const passkeyLogin = (response: unknown, headers: Record<string, string> = {}) =>
    t.request('/api/auth/passkey/login', { json: { response }, headers: { 'x-forwarded-for': ip(), ...headers } });

  it('adds a passkey, lists it with its name, signs in with it (a device like a password sign-in), and records last use', async () => {
    const user = await signedInUser(t);
    const { passkey, dto } = await addPasskey(user.session.token);
    expect(dto).toMatchObject({ id: passkey.id, name: 'Chrome trên Android', lastUsedAt: null });
    const options = await loginOptions();
    const res = await passkeyLogin(await passkey.assert(options.challenge, ORIGIN, options.rpId), { 'user-agent': MAC });
    expect(res.status).toBe(200);
    const session = await res.json();
    expect(session).toMatchObject({ id: user.id, email: user.email, refreshToken: expect.any(String) });
    expect((await t.request('/api/account', { headers: bearer(session.token) })).status).toBe(200);
    const list = (await (await t.request('/api/account/passkeys', { headers: bearer(session.token) })).json()).data;
    expect(list).toHaveLength(1);
    expect(list[0].lastUsedAt).toBeGreaterThanOrEqual(dto.createdAt);
    const devices = (await (await t.request('/api/account/devices', { headers: bearer(session.token) })).json()).data;
    expect(devices.find((d: { current: boolean }) => d.current)).toMatchObject({ browser: 'Safari 17' });
  });

  it('refuses an answer for another challenge, a replayed challenge, another origin or another user', async () => {
    const user = await signedInUser(t);
    const { passkey } = await addPasskey(user.session.token);

    const unknownChallenge = await passkeyLogin(await passkey.assert('bm90LWEtY2hhbGxlbmdl', ORIGIN, 'phimviet.example'));
    expect(unknownChallenge.status).toBe(400);
    expect((await errorOf(unknownChallenge)).message).toBe(`response: ${PASSKEY_MESSAGES.challengeInvalid}`);

    const options = await loginOptions();
    const wrongOrigin = await passkeyLogin(await passkey.assert(options.challenge, 'https://evil.example', 'phimviet.example'));
    expect(wrongOrigin.status).toBe(400);
    expect((await errorOf(wrongOrigin)).message).toBe(`response: ${PASSKEY_MESSAGES.verifyFailed}`);
    // The challenge was spent by that attempt: the right answer for it is refused too.
    const replay = await passkeyLogin(await passkey.assert(options.challenge, ORIGIN, 'phimviet.example'));
    expect((await errorOf(replay)).message).toBe(`response: ${PASSKEY_MESSAGES.challengeInvalid}`);

    const second = await loginOptions();
    const otherUser = await passkeyLogin(
      await passkey.assert(second.challenge, ORIGIN, 'phimviet.example', { userHandle: 'cGhpbXZpZXQ6OTk5' }),
    );
    expect((await errorOf(otherUser)).message).toBe(`response: ${PASSKEY_MESSAGES.wrongUser}`);

    // A registration challenge belongs to the member who asked for it.
    const stranger = await signedInUser(t);
    const theirs = await (
      await t.request('/api/account/passkeys/options', { method: 'POST', headers: bearer(stranger.session.token) })
    ).json();
    const stolen = await (await createSoftPasskey()).register(theirs, ORIGIN);
    const res = await t.request('/api/account/passkeys', { json: { response: stolen }, headers: bearer(user.session.token) });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(`response: ${PASSKEY_MESSAGES.challengeInvalid}`);
    expect((await (await t.request('/api/account/passkeys', { headers: bearer(user.session.token) })).json()).data).toHaveLength(1);
  });

  it('a removed passkey signs nobody in; a malformed answer is a 400 naming the field', async () => {
    const user = await signedInUser(t);
    const { passkey } = await addPasskey(user.session.token);
    const removed = await t.request(`/api/account/passkeys/${passkey.id}`, { method: 'DELETE', headers: bearer(user.session.token) });
    expect(removed.status).toBe(200);
    const options = await loginOptions();
    const res = await passkeyLogin(await passkey.assert(options.challenge, ORIGIN, options.rpId));
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toBe(`response: ${PASSKEY_MESSAGES.unknownPasskey}`);
    const again = await t.request(`/api/account/passkeys/${passkey.id}`, { method: 'DELETE', headers: bearer(user.session.token) });
    expect(again.status).toBe(404);
    const malformed = await t.request('/api/auth/passkey/login', { json: { response: { id: 'x' } } });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).message).toMatch(/^response\./);
  });

  it('a loopback PUBLIC_URL uses localhost as RP ID; an IP address cannot have passkeys (503 in Vietnamese)', async () => {
    const local = await createTestApp({ config: { PUBLIC_URL: 'http://127.0.0.1:8787' } });
    const options = await (await local.request('/api/auth/passkey/options', { method: 'POST' })).json();
    expect(options.rpId).toBe('localhost');
    const lan = await createTestApp({ config: { PUBLIC_URL: 'http://192.168.1.20:8787' } });
    const res = await lan.request('/api/auth/passkey/options', { method: 'POST' });
    expect(res.status).toBe(503);
    expect((await errorOf(res)).message).toBe(PASSKEY_MESSAGES.unavailable);
  });

  it('a passkey name with a line break is refused, nothing is stored', async () => {
    const user = await signedInUser(t);
    const passkey = await createSoftPasskey();
    const options = await (
      await t.request('/api/account/passkeys/options', { method: 'POST', headers: bearer(user.session.token) })
    ).json();
    const res = await t.request('/api/account/passkeys', {
      json: { response: await passkey.register(options, ORIGIN), name: 'Điện thoại\r\nBcc: x@example.com' },
      headers: bearer(user.session.token),
    });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/^name: .*xuống dòng/);
    expect((await (await t.request('/api/account/passkeys', { headers: bearer(user.session.token) })).json()).data).toHaveLength(0);
  });
});
