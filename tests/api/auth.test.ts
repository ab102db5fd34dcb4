import { eq } from 'drizzle-orm';
import { generateKeyPair, SignJWT } from 'jose';
import { beforeEach, describe, expect, it } from 'vitest';
import { refreshTokens, users } from '../../worker/db/schema';
import { TOKEN_AUDIENCE, TOKEN_ISSUER } from '../../worker/services/auth/access-token';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, createUser, fakeClock, login, storedPasswordHash } from '../helpers/auth';

const LOGIN_FAILED = 'Thông tin đăng nhập không chính xác !!!';
let t: TestApp;
let clock: ReturnType<typeof fakeClock>;

beforeEach(async () => {
  clock = fakeClock();
  t = await createTestApp({ now: clock.now });
});

/** Sign-up as the form sends it: the privacy policy's box ticked unless the test says otherwise. */
const register = (json: Record<string, unknown>, ip = '203.0.113.10') =>
  t.request('/api/dang-ky', { json: { acceptPrivacy: true, ...json }, headers: { 'x-forwarded-for': ip } });
const signIn = (json: unknown, ip = '203.0.113.20') => t.request('/api/dang-nhap', { json, headers: { 'x-forwarded-for': ip } });
const refresh = (token: string) => t.request('/api/refresh_token', { json: { token } });

describe('POST /api/dang-ky', () => {
  it('creates the account: 201 with the account, never a hash; the stored hash is PBKDF2 at 100,000', async () => {
    const res = await register({ email: '  An.Nguyen@Example.com ', name: ' Nguyễn An ', password: 'mat-khau-123' });
    expect(res.status).toBe(201);
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body).toEqual({
      message: 'Đăng ký thành công',
      user: {
        id: expect.any(Number),
        email: 'an.nguyen@example.com',
        name: 'Nguyễn An',
        roles: ['user'],
        permissions: [],
        hasPassword: true,
        googleLinked: false,
        emailVerified: false,
        createdAt: clock.now(),
        // Added by issue 39: no deletion pending.
        deletion: null,
      },
    });
    const hash = await storedPasswordHash(t.deps.db, body.user.id);
    expect(hash).toMatch(/^pbkdf2-sha256\$100000\$/);
    expect(text).not.toContain('pbkdf2');
    expect(text).not.toContain(hash.split('$')[3]);
  });

  it.each([
    ['email', { name: 'An', password: 'mat-khau-123' }],
    ['name', { email: 'an@example.com', password: 'mat-khau-123' }],
    ['password', { email: 'an@example.com', name: 'An' }],
  ])('names the missing field %s (400)', async (field, json) => {
    const res = await register(json);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'invalid_input', message: `${field}: is required` });
  });

  it('rejects a malformed email and a blank name', async () => {
    const bad = await register({ email: 'not-an-email', name: 'An', password: 'mat-khau-123' });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/^email: /);
    const blank = await register({ email: 'an@example.com', name: '   ', password: 'mat-khau-123' });
    expect((await errorOf(blank)).message).toBe('name: is required');
  });

  it('requires at least 8 characters of password (7 refused, 8 accepted)', async () => {
    const short = await register({ email: 'an@example.com', name: 'An', password: '1234567' });
    expect(short.status).toBe(400);
    expect((await errorOf(short)).message).toBe('password: must be at least 8 characters');
    expect((await register({ email: 'an@example.com', name: 'An', password: '12345678' })).status).toBe(201);
  });

  it('answers 409 with a Vietnamese message for an email already registered, in any letter case', async () => {
    expect((await register({ email: 'an@example.com', name: 'An', password: 'mat-khau-123' })).status).toBe(201);
    const again = await register({ email: 'AN@example.com', name: 'An 2', password: 'mat-khau-456' });
    expect(again.status).toBe(409);
    expect(await errorOf(again)).toEqual({
      code: 'conflict',
      message: 'Email này đã được đăng ký. Vui lòng đăng nhập hoặc dùng email khác.',
    });
    expect(await t.deps.db.$count(users)).toBe(1);
  });

  it('answers malformed JSON with 400, not 500', async () => {
    const res = await t.request('/api/dang-ky', { method: 'POST', body: '{"email":', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
  });
});

describe('POST /api/dang-nhap', () => {
  it('returns the session the web stores: token, refreshToken, name, id, email, roles and permissions as arrays', async () => {
    const user = await createUser(t.deps.db, {
      email: 'vip@example.com',
      password: 'mat-khau-123',
      name: 'Bình',
      permissions: 'VIP1,VIP2',
    });
    const res = await signIn({ email: 'VIP@example.com', password: 'mat-khau-123', googleToken: '' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({
      token: expect.stringMatching(/^ey[\w-]+\.[\w-]+\.[\w-]+$/),
      refreshToken: expect.stringMatching(/^[\w-]{43}$/),
      id: user.id,
      name: 'Bình',
      email: 'vip@example.com',
      roles: ['user'],
      permissions: ['VIP1', 'VIP2'],
    });
    const me = await t.request('/api/account', { headers: bearer(body.token) });
    expect(me.status).toBe(200);
    expect((await me.json()).email).toBe('vip@example.com');
  });

  it(`answers a wrong password and an unknown email alike: 401 '${LOGIN_FAILED}'`, async () => {
    await createUser(t.deps.db, { email: 'an@example.com', password: 'mat-khau-123' });
    for (const json of [
      { email: 'an@example.com', password: 'mat-khau-sai' },
      { email: 'ai-do@example.com', password: 'mat-khau-123' },
    ]) {
      const res = await signIn(json);
      expect(res.status).toBe(401);
      expect(await errorOf(res)).toEqual({ code: 'unauthorized', message: LOGIN_FAILED });
    }
  });

  it('names the missing field', async () => {
    expect((await errorOf(await signIn({ password: 'mat-khau-123' }))).message).toBe('email: is required');
    expect((await errorOf(await signIn({ email: 'an@example.com' }))).message).toBe('password: is required');
    expect((await errorOf(await signIn({ email: 'an@example.com', password: '' }))).message).toBe('password: is required');
    expect((await errorOf(await signIn({ email: 'an', password: 'x' }))).message).toMatch(/^email: /);
  });

  it('stores refresh tokens hashed only', async () => {
    const user = await createUser(t.deps.db);
    const session = await login(t, user);
    const rows = await t.deps.db.select().from(refreshTokens);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(session.refreshToken);
  });
});

describe('access tokens at the API', () => {
  async function forge(alg: string, key: Uint8Array | CryptoKey, tweak: (j: SignJWT) => SignJWT = (j) => j) {
    const user = await createUser(t.deps.db);
    const iat = Math.floor(clock.now() / 1000);
    const jwt = new SignJWT({ email: user.email, name: user.name, roles: ['admin'], permissions: ['VIP2'], epoch: 0 })
      .setProtectedHeader({ alg })
      .setSubject(String(user.id))
      .setIssuer(TOKEN_ISSUER)
      .setAudience(TOKEN_AUDIENCE)
      .setIssuedAt(iat)
      .setExpirationTime(iat + 900);
    return tweak(jwt).sign(key);
  }
  const secret = () => new TextEncoder().encode(t.deps.config.JWT_SECRET);

  it('accepts a correctly signed token (the control for the cases below)', async () => {
    expect((await t.request('/api/account', { headers: bearer(await forge('HS256', secret())) })).status).toBe(200);
  });

  it.each([
    [
      'alg none',
      async () => {
        const user = await createUser(t.deps.db);
        const iat = Math.floor(clock.now() / 1000);
        const part = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
        return `${part({ alg: 'none' })}.${part({ sub: String(user.id), email: user.email, name: 'x', roles: ['admin'], permissions: [], epoch: 0, iss: TOKEN_ISSUER, aud: TOKEN_AUDIENCE, iat, exp: iat + 900 })}.`;
      },
    ],
    ['HS512 with the right secret', () => forge('HS512', secret())],
    ['RS256', async () => forge('RS256', (await generateKeyPair('RS256')).privateKey)],
    ['a wrong key', () => forge('HS256', new TextEncoder().encode('x'.repeat(48)))],
    ['a wrong audience', () => forge('HS256', secret(), (j) => j.setAudience('another-app'))],
    ['a wrong issuer', () => forge('HS256', secret(), (j) => j.setIssuer('another-api'))],
    ['an expired token', () => forge('HS256', secret(), (j) => j.setExpirationTime(Math.floor(clock.now() / 1000) - 60))],
  ])('refuses %s with 401 JSON', async (_name, make) => {
    const res = await t.request('/api/account', { headers: bearer(await make()) });
    expect(res.status).toBe(401);
    expect((await errorOf(res)).code).toBe('unauthorized');
  });

  it('expires 15 minutes after sign-in', async () => {
    const { token } = await login(t, await createUser(t.deps.db));
    clock.advance(14 * 60_000);
    expect((await t.request('/api/account', { headers: bearer(token) })).status).toBe(200);
    clock.advance(2 * 60_000);
    expect((await t.request('/api/account', { headers: bearer(token) })).status).toBe(401);
  });

  it('takes identity only from the token: userId, roles and permissions headers are ignored', async () => {
    const user = await createUser(t.deps.db, { roles: 'admin' });
    const res = await t.request('/api/account', {
      headers: { userId: String(user.id), id: String(user.id), roles: 'admin', permissions: 'VIP2', 'x-user-id': String(user.id) },
    });
    expect(res.status).toBe(401);
  });

  it('refuses the token of a deleted user', async () => {
    const user = await createUser(t.deps.db);
    const { token } = await login(t, user);
    await t.deps.db.delete(users).where(eq(users.id, user.id));
    expect((await t.request('/api/account', { headers: bearer(token) })).status).toBe(401);
  });
});

describe('POST /api/refresh_token', () => {
  it('rotates: returns tokennew and a new refresh token; the old one is spent', async () => {
    const session = await login(t, await createUser(t.deps.db));
    clock.advance(20 * 60_000); // the access token has expired
    expect((await t.request('/api/account', { headers: bearer(session.token) })).status).toBe(401);
    const res = await refresh(session.refreshToken);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body).toEqual({ tokennew: expect.any(String), refreshToken: expect.any(String) });
    expect(body.refreshToken).not.toBe(session.refreshToken);
    expect((await t.request('/api/account', { headers: bearer(body.tokennew) })).status).toBe(200);
    expect((await refresh(body.refreshToken)).status).toBe(200);
  });

  it('a replayed (already used) refresh token revokes its whole family: 401, and the successor dies too', async () => {
    const user = await createUser(t.deps.db);
    const session = await login(t, user);
    const other = await login(t, user); // another device: another family
    const rotated = await (await refresh(session.refreshToken)).json();
    const replay = await refresh(session.refreshToken);
    expect(replay.status).toBe(401);
    expect((await errorOf(replay)).message).toBe('Phiên đăng nhập đã hết hạn. Vui lòng đăng nhập lại.');
    expect((await refresh(rotated.refreshToken)).status).toBe(401);
    expect((await refresh(other.refreshToken)).status).toBe(200);
  });

  it('only one of two concurrent uses of a refresh token wins', async () => {
    const session = await login(t, await createUser(t.deps.db));
    const results = await Promise.all([refresh(session.refreshToken), refresh(session.refreshToken)]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 401]);
  });

  it('refuses unknown and expired refresh tokens, and names a missing token', async () => {
    expect((await refresh('made-up-token')).status).toBe(401);
    const session = await login(t, await createUser(t.deps.db));
    clock.advance(31 * 24 * 60 * 60_000);
    expect((await refresh(session.refreshToken)).status).toBe(401);
    const missing = await t.request('/api/refresh_token', { json: {} });
    expect(missing.status).toBe(400);
    expect((await errorOf(missing)).message).toBe('token: is required');
  });

  it('carries current roles and permissions into the new access token', async () => {
    const user = await createUser(t.deps.db);
    const session = await login(t, user);
    await t.deps.db.update(users).set({ permissions: 'VIP1' }).where(eq(users.id, user.id));
    const { tokennew } = await (await refresh(session.refreshToken)).json();
    expect(JSON.parse(Buffer.from(tokennew.split('.')[1], 'base64url').toString()).permissions).toEqual(['VIP1']);
  });
});

describe('POST /api/dang-xuat', () => {
  it('revokes that refresh family only; it is idempotent', async () => {
    const user = await createUser(t.deps.db);
    const a = await login(t, user);
    const b = await login(t, user);
    const rotated = await (await refresh(a.refreshToken)).json();
    const res = await t.request('/api/dang-xuat', { json: { token: rotated.refreshToken } });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, message: 'Bạn đã đăng xuất thành công!' });
    expect((await refresh(rotated.refreshToken)).status).toBe(401);
    expect((await refresh(b.refreshToken)).status).toBe(200);
    expect((await t.request('/api/dang-xuat', { json: { token: rotated.refreshToken } })).status).toBe(200);
    expect((await t.request('/api/dang-xuat', { json: { token: 'unknown' } })).status).toBe(200);
  });
});

describe('remembered sessions ("Ghi nhớ đăng nhập"): the refresh token in an HttpOnly cookie', () => {
  const ORIGIN = 'http://localhost:8787'; // the test config's PUBLIC_URL
  const cookieOf = (res: Response) => {
    const header = res.headers.get('set-cookie') ?? '';
    return { header, value: /phimviet_refresh=([^;]*)/.exec(header)?.[1] ?? '' };
  };
  const refreshWithCookie = (value: string, origin: string | null = ORIGIN) =>
    t.request('/api/refresh_token', {
      json: {},
      headers: { cookie: `phimviet_refresh=${value}`, ...(origin ? { origin } : {}) },
    });

  it('sets the cookie HttpOnly, Secure, SameSite=Strict on the refresh path for its life, and never answers the token', async () => {
    const user = await createUser(t.deps.db);
    const res = await signIn({ email: user.email, password: user.password, remember: true });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.token).toEqual(expect.any(String));
    expect(body).not.toHaveProperty('refreshToken');
    const { header, value } = cookieOf(res);
    expect(value.length).toBeGreaterThan(20);
    expect(JSON.stringify(body)).not.toContain(value);
    expect(header).toMatch(/;\s*HttpOnly/i);
    expect(header).toMatch(/;\s*Secure/i);
    expect(header).toMatch(/;\s*SameSite=Strict/i);
    expect(header).toMatch(/;\s*Path=\/api\/refresh_token(;|$)/);
    expect(header).toMatch(/;\s*Max-Age=2592000/);
    // Unticked: today's answer, and no cookie at all.
    const plain = await signIn({ email: user.email, password: user.password, remember: false });
    expect((await plain.json()).refreshToken).toEqual(expect.any(String));
    expect(plain.headers.get('set-cookie')).toBeNull();
    const bad = await signIn({ email: user.email, password: user.password, remember: 'yes' });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/^remember:/);
  });

  it('rotates through the cookie: a new access token and the successor in the cookie; a replay revokes the family', async () => {
    const user = await createUser(t.deps.db);
    const first = cookieOf(await signIn({ email: user.email, password: user.password, remember: true })).value;
    clock.advance(20 * 60_000);
    const res = await refreshWithCookie(first);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(Object.keys(body)).toEqual(['tokennew']);
    expect((await t.request('/api/account', { headers: bearer(body.tokennew) })).status).toBe(200);
    const next = cookieOf(res);
    expect(next.value).not.toBe(first);
    for (const flag of [/;\s*HttpOnly/i, /;\s*Secure/i, /;\s*SameSite=Strict/i, /;\s*Path=\/api\/refresh_token/])
      expect(next.header).toMatch(flag);
    expect((await refreshWithCookie(next.value)).status).toBe(200);
    // The spent first token again: the whole family is revoked and the cookie cleared.
    const replay = await refreshWithCookie(first);
    expect(replay.status).toBe(401);
    expect(cookieOf(replay).header).toMatch(/phimviet_refresh=;.*Max-Age=0/);
    const [row] = await t.deps.db.select().from(refreshTokens).where(eq(refreshTokens.userId, user.id)).limit(1);
    expect(row?.revokedAt).not.toBeNull();
  });

  it('refuses the cookie without this site as Origin, and spends nothing then', async () => {
    const user = await createUser(t.deps.db);
    const value = cookieOf(await signIn({ email: user.email, password: user.password, remember: true })).value;
    for (const origin of ['https://evil.example', 'http://localhost:9999', 'null', null]) {
      const res = await refreshWithCookie(value, origin);
      expect(res.status, String(origin)).toBe(403);
      expect((await errorOf(res)).code).toBe('forbidden_origin');
    }
    expect((await refreshWithCookie(value)).status).toBe(200);
    // Neither a token nor a cookie: the field is named.
    const none = await t.request('/api/refresh_token', { json: {}, headers: { origin: ORIGIN } });
    expect(none.status).toBe(400);
    expect((await errorOf(none)).message).toBe('token: is required');
  });

  it('signing out (DELETE /api/refresh_token) revokes the family and clears the cookie; only from this site', async () => {
    const user = await createUser(t.deps.db);
    const value = cookieOf(await signIn({ email: user.email, password: user.password, remember: true })).value;
    const foreign = await t.request('/api/refresh_token', {
      method: 'DELETE',
      headers: { cookie: `phimviet_refresh=${value}`, origin: 'https://evil.example' },
    });
    expect(foreign.status).toBe(403);
    const res = await t.request('/api/refresh_token', {
      method: 'DELETE',
      headers: { cookie: `phimviet_refresh=${value}`, origin: ORIGIN },
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, message: 'Bạn đã đăng xuất thành công!' });
    expect(cookieOf(res).header).toMatch(/phimviet_refresh=;.*Max-Age=0.*Path=\/api\/refresh_token|Path=\/api\/refresh_token.*Max-Age=0/);
    expect((await refreshWithCookie(value)).status).toBe(401);
  });
});
