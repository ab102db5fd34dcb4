import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../worker/db/schema';
import { requireAny, requireRole, requireViewer, viewerMiddleware, withViewer } from '../../worker/lib/auth-middleware';
import type { AppEnv } from '../../worker/lib/context';
import { toErrorBody } from '../../worker/lib/errors';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, createUser, fakeClock, login, signedInUser, storedPasswordHash } from '../helpers/auth';

let t: TestApp;
let clock: ReturnType<typeof fakeClock>;

beforeEach(async () => {
  clock = fakeClock();
  t = await createTestApp({ now: clock.now });
});

const refresh = (token: string) => t.request('/api/refresh_token', { json: { token } });

describe('GET /api/account', () => {
  it('returns the signed-in account without any password hash', async () => {
    const user = await signedInUser(t, { permissions: 'VIP1' });
    const res = await t.request('/api/account', { headers: bearer(user.session.token) });
    expect(res.status).toBe(200);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      id: user.id,
      email: user.email,
      name: user.name,
      roles: ['user'],
      permissions: ['VIP1'],
      hasPassword: true,
      googleLinked: false,
      emailVerified: false,
      createdAt: expect.any(Number),
      // Added by issue 39: no deletion pending.
      deletion: null,
      // Added by the payments issue: no active subscription (the VIP1 here is admin-granted).
      subscription: null,
      subscriptions: [],
    });
    expect(text).not.toMatch(/pbkdf2|password_hash|passwordHash/);
  });

  it('answers 401 JSON without a token', async () => {
    const res = await t.request('/api/account');
    expect(res.status).toBe(401);
    expect(await errorOf(res)).toEqual({ code: 'unauthorized', message: 'Bạn cần đăng nhập' });
  });
});

describe('POST /api/account/password', () => {
  it('changes the password, retires every other session and returns a fresh one', async () => {
    const user = await signedInUser(t, { password: 'mat-khau-cu-123' });
    const otherDevice = await login(t, user);
    const res = await t.request('/api/account/password', {
      json: { currentPassword: 'mat-khau-cu-123', newPassword: 'mat-khau-moi-456' },
      headers: bearer(user.session.token),
    });
    expect(res.status).toBe(200);
    const text = await res.text();
    const body = JSON.parse(text);
    expect(body).toMatchObject({
      message: 'Đổi mật khẩu thành công',
      id: user.id,
      token: expect.any(String),
      refreshToken: expect.any(String),
    });
    expect(text).not.toContain('pbkdf2');

    // Old sessions: access tokens refused at once, refresh tokens revoked.
    expect((await t.request('/api/account', { headers: bearer(user.session.token) })).status).toBe(401);
    expect((await t.request('/api/account', { headers: bearer(otherDevice.token) })).status).toBe(401);
    expect((await refresh(otherDevice.refreshToken)).status).toBe(401);
    // The new session works; only the new password signs in.
    expect((await t.request('/api/account', { headers: bearer(body.token) })).status).toBe(200);
    await expect(login(t, { email: user.email, password: 'mat-khau-cu-123' })).rejects.toThrow(/401/);
    expect((await login(t, { email: user.email, password: 'mat-khau-moi-456' })).id).toBe(user.id);
  });

  it('refuses a wrong or missing current password (400 naming it) and a short new one', async () => {
    const user = await signedInUser(t, { password: 'mat-khau-cu-123' });
    const before = await storedPasswordHash(t.deps.db, user.id);
    const wrong = await t.request('/api/account/password', {
      json: { currentPassword: 'sai-mat-khau', newPassword: 'mat-khau-moi-456' },
      headers: bearer(user.session.token),
    });
    expect(wrong.status).toBe(400);
    expect((await errorOf(wrong)).message).toMatch(/^currentPassword: /);
    const missing = await t.request('/api/account/password', {
      json: { newPassword: 'mat-khau-moi-456' },
      headers: bearer(user.session.token),
    });
    expect((await errorOf(missing)).message).toBe('currentPassword: is required');
    const short = await t.request('/api/account/password', {
      json: { currentPassword: 'mat-khau-cu-123', newPassword: 'ngan' },
      headers: bearer(user.session.token),
    });
    expect((await errorOf(short)).message).toBe('newPassword: must be at least 8 characters');
    expect(await storedPasswordHash(t.deps.db, user.id)).toBe(before);
  });

  it('needs a signed-in user', async () => {
    expect((await t.request('/api/account/password', { json: { currentPassword: 'x', newPassword: 'mat-khau-moi-456' } })).status).toBe(
      401,
    );
  });
});

describe('POST /api/account/logout-all', () => {
  it('signs out everywhere at once: every access token and refresh token stops working', async () => {
    const user = await signedInUser(t);
    const phone = await login(t, user);
    const res = await t.request('/api/account/logout-all', { method: 'POST', headers: bearer(user.session.token) });
    expect(res.status).toBe(200);
    for (const session of [user.session, phone]) {
      expect((await t.request('/api/account', { headers: bearer(session.token) })).status).toBe(401);
      expect((await refresh(session.refreshToken)).status).toBe(401);
    }
    const fresh = await login(t, user);
    expect((await t.request('/api/account', { headers: bearer(fresh.token) })).status).toBe(200);
  });
});

describe('viewer middleware and guards', () => {
  function guarded() {
    const app = new Hono<AppEnv>();
    app.use('*', async (c, next) => {
      c.set('deps', t.deps);
      c.set('db', t.deps.db);
      await next();
    });
    app.use('*', viewerMiddleware);
    app.onError((err, c) => {
      const { status, body } = toErrorBody(err);
      return c.json(body, status);
    });
    return app
      .get('/optional', withViewer, (c) => c.json({ viewer: c.var.viewer }))
      .get('/signed-in', requireViewer, (c) => c.json({ id: c.var.viewer.id }))
      .get('/admin', requireRole('admin'), (c) => c.json({ ok: true }))
      .get('/vip2-or-admin', requireAny({ roles: ['admin'], permissions: ['VIP2'] }), (c) => c.json({ ok: true }));
  }

  it('an invalid or expired token on an optional route just means no viewer', async () => {
    const app = guarded();
    const user = await signedInUser(t);
    expect(await (await app.request('/optional', { headers: bearer('garbage') })).json()).toEqual({ viewer: null });
    expect(await (await app.request('/optional', { headers: { authorization: 'Basic abc' } })).json()).toEqual({ viewer: null });
    expect(await (await app.request('/optional', { headers: bearer(user.session.token) })).json()).toEqual({
      viewer: { id: user.id, email: user.email, name: user.name, roles: ['user'], permissions: [], subscriptions: [] },
    });
    clock.advance(16 * 60_000);
    expect(await (await app.request('/optional', { headers: bearer(user.session.token) })).json()).toEqual({ viewer: null });
    expect((await app.request('/signed-in', { headers: bearer(user.session.token) })).status).toBe(401);
  });

  it('reads roles and permissions from the database on every request: grants and revocations apply at once', async () => {
    const app = guarded();
    const user = await signedInUser(t, { permissions: 'VIP2' });
    const headers = bearer(user.session.token);
    expect((await app.request('/vip2-or-admin', { headers })).status).toBe(200);
    expect((await app.request('/admin', { headers })).status).toBe(403);

    await t.deps.db.update(users).set({ permissions: '' }).where(eq(users.id, user.id));
    const revoked = await app.request('/vip2-or-admin', { headers });
    expect(revoked.status).toBe(403);
    expect((await errorOf(revoked)).code).toBe('forbidden');

    await t.deps.db.update(users).set({ roles: 'admin' }).where(eq(users.id, user.id));
    expect((await app.request('/admin', { headers })).status).toBe(200);
    expect((await app.request('/vip2-or-admin', { headers })).status).toBe(200);
  });

  it('guards answer 401 (not 403) without a viewer', async () => {
    const app = guarded();
    for (const path of ['/signed-in', '/admin', '/vip2-or-admin']) expect((await app.request(path)).status).toBe(401);
  });

  it('refuses tokens from an older session epoch', async () => {
    const app = guarded();
    const user = await createUser(t.deps.db);
    const session = await login(t, user);
    await t.deps.db.update(users).set({ sessionEpoch: 1 }).where(eq(users.id, user.id));
    expect((await app.request('/signed-in', { headers: bearer(session.token) })).status).toBe(401);
    const again = await login(t, user);
    expect((await app.request('/signed-in', { headers: bearer(again.token) })).status).toBe(200);
  });
});
