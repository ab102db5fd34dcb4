// Users and their rights: paged list with search, role and permission changes, and
// a password reset in place of the spec's visible password field (docs/decisions/0501-admin-password-reset.md).
import type { Config } from '../../config';
import { voidLinks } from '../auth/email-links';
import { outboxInsert, outboxRow } from '../mail/outbox';
import { and, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fold } from '../../db/fold';
import { refreshTokens, subscriptions, users } from '../../db/schema';
import { ApiError, notFound } from '../../lib/errors';
import {
  ADMIN_TEXTS,
  ADMIN_USERS_PAGE_SIZE,
  type AdminUser,
  type AdminUsersResponse,
  PERMISSIONS,
  type Permission,
  ROLES,
  type Role,
  type UpdatePermissionsInput,
  type UpdateRolesInput,
  type UsersQuery,
} from '../../schemas/admin';
import { hashPassword } from '../auth/password';
import { type Actor, auditInsert } from './audit';

const split = (csv: string) =>
  csv
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const rolesOf = (csv: string): Role[] => split(csv).filter((r): r is Role => (ROLES as readonly string[]).includes(r));
const permissionsOf = (csv: string): Permission[] =>
  split(csv).filter((p): p is Permission => (PERMISSIONS as readonly string[]).includes(p));

const userColumns = {
  id: users.id,
  email: users.email,
  username: users.username,
  roles: users.roles,
  permissions: users.permissions,
  createdAt: users.createdAt,
};
type UserRow = { id: number; email: string; username: string; roles: string; permissions: string; createdAt: number };

async function withSubscriptions(db: Db, rows: UserRow[], now: number): Promise<AdminUser[]> {
  const ids = rows.map((r) => r.id);
  const subs = ids.length
    ? await db
        .select({ userId: subscriptions.userId, plan: subscriptions.plan, expiresAt: sql<number>`max(${subscriptions.expiresAt})` })
        .from(subscriptions)
        .where(and(inArray(subscriptions.userId, ids), gt(subscriptions.expiresAt, now)))
        .groupBy(subscriptions.userId, subscriptions.plan)
    : [];
  return rows.map((r) => ({
    id: r.id,
    email: r.email,
    username: r.username,
    roles: rolesOf(r.roles),
    permissions: permissionsOf(r.permissions),
    created: r.createdAt,
    subscriptions: subs
      .filter((s) => s.userId === r.id)
      .map((s) => ({ plan: s.plan, expiresAt: Number(s.expiresAt) }))
      .sort((a, b) => a.plan.localeCompare(b.plan)),
  }));
}

/** GET /api/getalluser?page=&q=: newest first; q matches email or username (substring, case and diacritics ignored). */
export async function listUsers(db: Db, query: UsersQuery, now: number): Promise<AdminUsersResponse> {
  // users.search_folded is email and username folded in SQL (drizzle/0007_back_office.sql): 'nguoi xem'
  // finds 'Người Xem', as the public search does.
  const folded = query.q ? fold(query.q) : '';
  const pattern = folded ? `%${folded.replace(/[\\%_]/g, (m) => `\\${m}`)}%` : undefined;
  const where = pattern ? sql`search_folded LIKE ${pattern} ESCAPE '\\'` : undefined;
  const pageSize = ADMIN_USERS_PAGE_SIZE;
  const [rows, [total]] = await Promise.all([
    db
      .select(userColumns)
      .from(users)
      .where(where)
      .orderBy(desc(users.id))
      .limit(pageSize)
      .offset((query.page - 1) * pageSize),
    db.select({ n: count() }).from(users).where(where),
  ]);
  const totalItems = total?.n ?? 0;
  return {
    data: await withSubscriptions(db, rows, now),
    pagination: { page: query.page, pageSize, totalItems, totalPages: Math.max(1, Math.ceil(totalItems / pageSize)) },
  };
}

async function userRow(db: Db, id: number): Promise<UserRow> {
  const [row] = await db.select(userColumns).from(users).where(eq(users.id, id));
  if (!row) throw notFound(ADMIN_TEXTS.userNotFound);
  return row;
}

export async function adminUser(db: Db, id: number, now: number): Promise<AdminUser> {
  const [user] = await withSubscriptions(db, [await userRow(db, id)], now);
  if (!user) throw notFound(ADMIN_TEXTS.userNotFound);
  return user;
}

/**
 * POST /api/update_roles: 'user' or 'admin'. Demoting the last admin is refused (409), so the back office
 * can never lock itself out; the guard is part of the UPDATE, so two admins demoting each other at once
 * cannot both succeed.
 */
export async function updateRoles(db: Db, actor: Actor, input: UpdateRolesInput, now: number): Promise<AdminUser> {
  const before = await userRow(db, input.id_user_update);
  const role = input.edited_roles;
  if (rolesOf(before.roles).join(',') !== role) {
    const demoting = role !== 'admin' && rolesOf(before.roles).includes('admin');
    const otherAdmins = sql`(SELECT count(*) FROM ${users} WHERE ${users.id} <> ${before.id} AND (',' || ${users.roles} || ',') LIKE '%,admin,%')`;
    await db.transaction(async (tx) => {
      const changed = await tx
        .update(users)
        .set({ roles: role, updatedAt: now })
        .where(demoting ? and(eq(users.id, before.id), sql`${otherAdmins} > 0`) : eq(users.id, before.id))
        .returning({ id: users.id });
      if (!changed.length) throw new ApiError(409, 'last_admin', ADMIN_TEXTS.lastAdmin);
      await auditInsert(tx, actor, { action: 'user.roles', target: before.id, before: rolesOf(before.roles), after: [role] }, now);
    });
  }
  return adminUser(db, before.id, now);
}

/** POST /api/update_permissions: the whole new set of admin-granted permissions. */
export async function updatePermissions(db: Db, actor: Actor, input: UpdatePermissionsInput, now: number): Promise<AdminUser> {
  const before = await userRow(db, input.id_user_update);
  const next = PERMISSIONS.filter((p) => input.edited_Permissions.includes(p));
  const previous = permissionsOf(before.permissions);
  if (previous.join(',') !== next.join(',')) {
    await db.batch([
      db
        .update(users)
        .set({ permissions: next.join(','), updatedAt: now })
        .where(eq(users.id, before.id)),
      auditInsert(db, actor, { action: 'user.permissions', target: before.id, before: previous, after: next }, now),
    ]);
  }
  return adminUser(db, before.id, now);
}

/** Readable but unguessable: 12 characters from a 54-character alphabet without look-alikes (~69 bits). */
function temporaryPassword(): string {
  const alphabet = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return [...bytes].map((b) => alphabet[b % alphabet.length]).join('');
}

/**
 * POST /api/admin/users/{id}/reset-password: a new temporary password, answered once and stored only
 * hashed; every session of the user ends (session epoch bumped, refresh tokens revoked).
 */
export async function resetPassword(db: Db, actor: Actor, id: number, now: number, config: Pick<Config, 'JWT_SECRET'>): Promise<string> {
  const user = await userRow(db, id);
  const password = temporaryPassword();
  const hash = await hashPassword(password);
  // Mailed reset links stop working, and the member is told (issue 34, docs/decisions/0980).
  const notice = await outboxRow(
    config,
    { kind: 'password_changed', to: user.email, userId: user.id, params: { name: user.username } },
    now,
  );
  await db.batch([
    voidLinks(db, user.id, ['password_reset'], now),
    outboxInsert(db, [notice]),
    db
      .update(users)
      .set({ passwordHash: hash, sessionEpoch: sql`${users.sessionEpoch} + 1`, updatedAt: now })
      .where(eq(users.id, user.id)),
    db
      .update(refreshTokens)
      .set({ revokedAt: now })
      .where(and(eq(refreshTokens.userId, user.id), isNull(refreshTokens.revokedAt))),
    auditInsert(db, actor, { action: 'user.reset_password', target: user.id, before: null, after: { sessionsEnded: true } }, now),
  ]);
  return password;
}
