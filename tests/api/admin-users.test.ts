// Users page API: paged search, never a hash; roles and permissions with the last-admin
// guard; the password reset that replaces the spec's visible password field; every write audited.
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLog, subscriptions } from '../../worker/db/schema';
import type { AdminUsersResponse, AuditResponse, ResetPasswordResponse, UpdateUserResponse } from '../../worker/schemas/admin';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, createUser, login, signedInUser } from '../helpers/auth';

let t: TestApp;
let admin: Awaited<ReturnType<typeof signedInUser>>;
let auth: { authorization: string };

beforeEach(async () => {
  t = await createTestApp();
  admin = await signedInUser(t, { roles: 'admin', email: 'quan-tri@example.com', name: 'Quản Trị' });
  auth = bearer(admin.session.token);
});

describe('GET /api/getalluser', () => {
  it('pages users newest first with roles, permissions, creation time and active subscriptions, never a password', async () => {
    const vip = await createUser(t.deps.db, { email: 'vip@example.com', name: 'Khách VIP', permissions: 'VIP1' });
    const now = t.deps.now();
    await t.deps.db.insert(subscriptions).values([
      { userId: vip.id, plan: 'VIP2', startsAt: now - 1000, expiresAt: now + 30 * 86_400_000 },
      { userId: vip.id, plan: 'VIP1', startsAt: now - 60 * 86_400_000, expiresAt: now - 86_400_000 },
    ]);
    const res = await t.request('/api/getalluser', { headers: auth });
    expect(res.status).toBe(200);
    const body = (await res.json()) as AdminUsersResponse;
    expect(body.pagination).toMatchObject({ page: 1, pageSize: 20, totalItems: 2 });
    expect(body.data[0]).toEqual({
      id: vip.id,
      email: 'vip@example.com',
      username: 'Khách VIP',
      roles: ['user'],
      permissions: ['VIP1'],
      created: expect.any(Number),
      subscriptions: [{ plan: 'VIP2', expiresAt: now + 30 * 86_400_000 }],
    });
    expect(JSON.stringify(body)).not.toMatch(/password|hash|pbkdf2/i);
  });

  it('searches by email or name and pages', async () => {
    for (let i = 0; i < 25; i++) await createUser(t.deps.db, { email: `khach-${i}@vi.example`, name: `Khách ${i}` });
    await createUser(t.deps.db, { email: 'lan@example.com', name: 'Nguyễn Thị Lan' });
    const byName = (await (await t.request('/api/getalluser?q=Lan', { headers: auth })).json()) as AdminUsersResponse;
    expect(byName.data.map((u) => u.email)).toEqual(['lan@example.com']);
    const byEmail = (await (await t.request('/api/getalluser?q=vi.example&page=2', { headers: auth })).json()) as AdminUsersResponse;
    expect(byEmail.pagination).toMatchObject({ page: 2, totalItems: 25, totalPages: 2 });
    expect(byEmail.data).toHaveLength(5);
    const wildcard = (await (await t.request('/api/getalluser?q=%25', { headers: auth })).json()) as AdminUsersResponse;
    expect(wildcard.data).toHaveLength(0);
  });

  it('answers bad paging with a 400 naming the field', async () => {
    const res = await t.request('/api/getalluser?page=0', { headers: auth });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/^page:/);
  });
});

describe('POST /api/update_roles and /api/update_permissions', () => {
  it('changes a role and permissions, takes effect on the next request, and audits before → after', async () => {
    const user = await signedInUser(t);
    const roles = await t.request('/api/update_roles', { json: { id_user_update: user.id, edited_roles: 'admin' }, headers: auth });
    expect(roles.status).toBe(200);
    expect(((await roles.json()) as UpdateUserResponse).user.roles).toEqual(['admin']);
    // The same token now opens the admin API: rights are read per request.
    expect((await t.request('/api/getalluser', { headers: bearer(user.session.token) })).status).toBe(200);

    const perms = await t.request('/api/update_permissions', {
      json: { id_user_update: user.id, edited_Permissions: ['VIP2', 'VIP1', 'VIP2'] },
      headers: auth,
    });
    expect(perms.status).toBe(200);
    expect(((await perms.json()) as UpdateUserResponse).user.permissions).toEqual(['VIP1', 'VIP2']);

    const audit = (await (await t.request('/api/admin/audit', { headers: auth })).json()) as AuditResponse;
    expect(audit.data.map((a) => [a.action, a.target, a.before, a.after])).toEqual([
      ['user.permissions', String(user.id), [], ['VIP1', 'VIP2']],
      ['user.roles', String(user.id), ['user'], ['admin']],
    ]);
    expect(audit.data[0]?.actor).toEqual({ id: admin.id, email: 'quan-tri@example.com' });
  });

  it('refuses to demote the last admin (409) and writes no audit row for it', async () => {
    const res = await t.request('/api/update_roles', { json: { id_user_update: admin.id, edited_roles: 'user' }, headers: auth });
    expect(res.status).toBe(409);
    expect((await errorOf(res)).code).toBe('last_admin');
    expect(await t.deps.db.$count(auditLog)).toBe(0);
    // With a second admin, the first may step down.
    const other = await createUser(t.deps.db, { roles: 'admin' });
    expect(other.id).toBeGreaterThan(0);
    expect((await t.request('/api/update_roles', { json: { id_user_update: admin.id, edited_roles: 'user' }, headers: auth })).status).toBe(
      200,
    );
  });

  it.each([
    [{ id_user_update: 1, edited_roles: 'owner' }, 'edited_roles'],
    [{ id_user_update: 'x', edited_roles: 'user' }, 'id_user_update'],
    [{ edited_roles: 'user' }, 'id_user_update'],
  ])('update_roles %j → 400 naming %s', async (json, field) => {
    const res = await t.request('/api/update_roles', { json, headers: auth });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message.startsWith(`${field}`)).toBe(true);
  });

  it.each([
    [{ id_user_update: 1, edited_Permissions: ['VIP3'] }, 'edited_Permissions'],
    [{ id_user_update: 1, edited_Permissions: 'VIP1' }, 'edited_Permissions'],
  ])('update_permissions %j → 400 naming %s', async (json, field) => {
    const res = await t.request('/api/update_permissions', { json, headers: auth });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message.startsWith(field)).toBe(true);
  });

  it('answers 404 for an unknown user and 400 for a malformed body', async () => {
    expect((await t.request('/api/update_roles', { json: { id_user_update: 4242, edited_roles: 'user' }, headers: auth })).status).toBe(
      404,
    );
    const malformed = await t.request('/api/update_roles', {
      method: 'POST',
      body: '{',
      headers: { ...auth, 'content-type': 'application/json' },
    });
    expect(malformed.status).toBe(400);
  });
});

describe('POST /api/admin/users/{id}/reset-password', () => {
  it('answers a temporary password once, which signs in; the old password and old sessions stop working', async () => {
    const user = await signedInUser(t);
    const res = await t.request(`/api/admin/users/${user.id}/reset-password`, { method: 'POST', headers: auth });
    expect(res.status).toBe(200);
    const { temporaryPassword } = (await res.json()) as ResetPasswordResponse;
    expect(temporaryPassword).toMatch(/^[A-Za-z0-9]{12}$/);

    expect((await t.request('/api/account', { headers: bearer(user.session.token) })).status).toBe(401);
    await expect(login(t, { email: user.email, password: user.password })).rejects.toThrow(/401/);
    expect((await login(t, { email: user.email, password: temporaryPassword })).token).toBeTruthy();

    const [row] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'user.reset_password'));
    expect(row).toMatchObject({ target: String(user.id), actorId: admin.id });
    expect(JSON.stringify(row)).not.toContain(temporaryPassword);
  });

  it('answers 404 for an unknown user and 400 for a malformed id', async () => {
    expect((await t.request('/api/admin/users/4242/reset-password', { method: 'POST', headers: auth })).status).toBe(404);
    expect((await t.request('/api/admin/users/abc/reset-password', { method: 'POST', headers: auth })).status).toBe(400);
  });
});
