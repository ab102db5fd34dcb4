import { eq } from 'drizzle-orm';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { consentRecords, users } from '../../worker/db/schema';
import { CONSENT_TEXTS, PRIVACY_POLICY_VERSION } from '../../worker/schemas/privacy';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, createUser, fakeClock } from '../helpers/auth';
import { createGoogleStandIn, TEST_GOOGLE_CLIENT_ID, TEST_JWKS_URL } from '../helpers/jwks';

let t: TestApp;
let google: Awaited<ReturnType<typeof createGoogleStandIn>>;
let clock: ReturnType<typeof fakeClock>;
const nowSeconds = () => Math.floor(clock.now() / 1000);

beforeAll(async () => {
  google = await createGoogleStandIn();
});

beforeEach(async () => {
  clock = fakeClock();
  t = await createTestApp({
    now: clock.now,
    fetch: google.fetch,
    config: { GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: TEST_JWKS_URL },
  });
});

/** The web sends acceptPrivacy once the member ticked the privacy policy's box (needed only when it creates an account). */
const signIn = (googleToken: string, acceptPrivacy = true) =>
  t.request('/api/dang-nhap', { json: { email: '', password: '', googleToken, acceptPrivacy } });

describe('POST /api/dang-nhap with googleToken', () => {
  it('creates a password-less account on first sign-in and signs the same account in afterwards', async () => {
    const res = await signIn(await google.sign({}, { nowSeconds: nowSeconds() }));
    expect(res.status).toBe(200);
    const session = await res.json();
    expect(session).toMatchObject({
      email: 'google.user@gmail.com',
      name: 'Người dùng Google',
      roles: ['user'],
      permissions: [],
      token: expect.any(String),
      refreshToken: expect.any(String),
    });
    expect(google.fetchedUrls).toContain(TEST_JWKS_URL);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, session.id));
    expect(row).toMatchObject({ googleSub: '1122334455', passwordHash: null });
    const me = await (await t.request('/api/account', { headers: bearer(session.token) })).json();
    expect(me).toMatchObject({ hasPassword: false, googleLinked: true });

    const again = await (await signIn(await google.sign({ name: 'Tên mới' }, { nowSeconds: nowSeconds() }))).json();
    expect(again.id).toBe(session.id);
    expect(await t.deps.db.$count(users)).toBe(1);
  });

  it('honours "Ghi nhớ đăng nhập": the refresh token goes into the HttpOnly cookie, not the answer', async () => {
    const res = await t.request('/api/dang-nhap', {
      json: {
        email: '',
        password: '',
        googleToken: await google.sign({}, { nowSeconds: nowSeconds() }),
        remember: true,
        acceptPrivacy: true,
      },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).not.toHaveProperty('refreshToken');
    const cookie = res.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/^phimviet_refresh=[^;]{20,};/);
    for (const flag of [/;\s*HttpOnly/i, /;\s*Secure/i, /;\s*SameSite=Strict/i, /;\s*Path=\/api\/refresh_token/])
      expect(cookie).toMatch(flag);
  });

  it('a first sign-in without the privacy box creates nobody (400 naming acceptPrivacy); with it, the consent is on record', async () => {
    const token = await google.sign({}, { nowSeconds: nowSeconds() });
    const refused = await signIn(token, false);
    expect(refused.status).toBe(400);
    expect(await errorOf(refused)).toEqual({ code: 'invalid_input', message: `acceptPrivacy: ${CONSENT_TEXTS.required}` });
    expect(await t.deps.db.$count(users)).toBe(0);
    // The same credential, sent again once the box is ticked.
    const session = await (await signIn(token, true)).json();
    const records = await t.deps.db.select().from(consentRecords).where(eq(consentRecords.userId, session.id));
    expect(records).toEqual([
      {
        id: expect.any(Number),
        userId: session.id,
        policyVersion: PRIVACY_POLICY_VERSION,
        acceptedAt: clock.now(),
        method: 'google_sign_up',
      },
    ]);
    // Signing in to the account it created needs no box.
    expect((await signIn(await google.sign({}, { nowSeconds: nowSeconds() }), false)).status).toBe(200);
  });

  it('links to an existing account with the same (Google-verified) email', async () => {
    const existing = await createUser(t.deps.db, { email: 'google.user@gmail.com' });
    const session = await (await signIn(await google.sign({ email: 'Google.User@gmail.com' }, { nowSeconds: nowSeconds() }))).json();
    expect(session.id).toBe(existing.id);
    const [row] = await t.deps.db.select().from(users).where(eq(users.id, existing.id));
    expect(row!.googleSub).toBe('1122334455');
  });

  it("accepts both of Google's issuer spellings", async () => {
    expect((await signIn(await google.sign({ iss: 'accounts.google.com' }, { nowSeconds: nowSeconds() }))).status).toBe(200);
  });

  it.each([
    ['a wrong audience', () => google.sign({ aud: 'someone-else.apps.googleusercontent.com' }, { nowSeconds: nowSeconds() })],
    ['a wrong issuer', () => google.sign({ iss: 'https://evil.example.com' }, { nowSeconds: nowSeconds() })],
    ['an expired token', () => google.sign({}, { nowSeconds: nowSeconds() - 7200, ttlSeconds: 3600 })],
    ['an unverified email', () => google.sign({ email_verified: false }, { nowSeconds: nowSeconds() })],
    ['a key not in the JWKS', () => google.sign({}, { nowSeconds: nowSeconds(), key: 'other' })],
    ['a token that is not a JWT', async () => 'not-a-token'],
  ])('refuses %s with 401 and creates nobody', async (_name, make) => {
    const res = await signIn(await make());
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toEqual({ code: 'unauthorized', message: 'Đăng nhập thất bại. Vui lòng thử lại.' });
    expect(await t.deps.db.$count(users)).toBe(0);
  });

  it('answers 400 when Google sign-in is not configured', async () => {
    const bare = await createTestApp({ now: clock.now, fetch: google.fetch, config: { GOOGLE_CLIENT_ID: undefined } });
    const res = await bare.request('/api/dang-nhap', { json: { googleToken: await google.sign({}, { nowSeconds: nowSeconds() }) } });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/^googleToken: /);
  });
});
