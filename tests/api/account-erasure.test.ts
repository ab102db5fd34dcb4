// "Xóa tài khoản" (issue 39 §1, docs/decisions/1041): the request signs everything out at once and mails the
// date; signing in during the 7 days offers restore or erase now; the scheduler erases after them; the erased
// member is nowhere in the database but in the anonymised money rows; a restored backup erases them again.
import { describe, expect, it } from 'vitest';
import { and, eq, sql } from 'drizzle-orm';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, createUser, fakeClock, insertFilm, login, type TestUser } from '../helpers/auth';
import {
  auditLog,
  bankTransactions,
  commentHiddenAuthors,
  commentReports,
  erasedAccounts,
  comments,
  emailTokens,
  mailOutbox,
  passkeys,
  payments,
  pushSubscriptions,
  rateLimits,
  ratings,
  refreshTokens,
  subscriptions,
  users,
  watchlist,
  watchProgress,
} from '../../worker/db/schema';
import { accountErasure } from '../../worker/scheduled';
import { duties } from '../../worker/wiring';
import { reapplyErasures } from '../../worker/services/account/erasure';
import { openMigratedDatabase } from '../../worker/db/node-client';
import type { Db } from '../../worker/db/client';

const DAY = 86_400_000;

async function setup() {
  const clock = fakeClock();
  const t = await createTestApp({ now: clock.now });
  return { t, clock };
}

/** A member with something in every table that can name them. */
async function richMember(t: TestApp, now: number) {
  const db = t.deps.db;
  const member = await createUser(db, { email: 'tran.thi.xoa@example.com', name: 'Trần Thị Xoá Dữ Liệu' });
  const other = await createUser(db, { email: 'nguoi.khac@example.com', name: 'Người Khác Ở Lại' });
  await db.update(users).set({ googleSub: 'google-sub-xoa-123456789', emailVerifiedAt: now }).where(eq(users.id, member.id));
  const film = await insertFilm(db, 'phim-xoa-du-lieu');
  await db.insert(watchlist).values({ userId: member.id, filmId: film, addedAt: now });
  await db.insert(watchProgress).values({ userId: member.id, filmId: film, episode: 1, position: 120, duration: 2400, updatedAt: now });
  await db.insert(ratings).values({ userId: member.id, filmId: film, stars: 5, createdAt: now, updatedAt: now });
  const [mine] = await db
    .insert(comments)
    .values({ filmId: film, userId: member.id, body: 'Lời bình riêng tư của tôi', createdAt: now })
    .returning();
  const [alone] = await db
    .insert(comments)
    .values({ filmId: film, userId: member.id, body: 'Không ai trả lời câu này', createdAt: now + 1 })
    .returning();
  const [reply] = await db
    .insert(comments)
    .values({ filmId: film, userId: other.id, parentId: mine!.id, body: 'Một câu trả lời', createdAt: now + 2, openReports: 1 })
    .returning();
  await db.insert(commentReports).values({ commentId: reply!.id, userId: member.id, reason: 'spam', note: 'ghi chú', createdAt: now });
  await db.insert(commentHiddenAuthors).values({ userId: member.id, hiddenUserId: other.id, createdAt: now });
  await db.insert(commentHiddenAuthors).values({ userId: other.id, hiddenUserId: member.id, createdAt: now });
  await db
    .insert(passkeys)
    .values({ id: 'passkey-credential-id-xoa', userId: member.id, publicKey: 'pk', name: 'iPhone của Xoá', createdAt: now });
  await db
    .insert(pushSubscriptions)
    .values({ userId: member.id, endpoint: 'https://push.example.net/send/xoa-endpoint-42', p256dh: 'k', auth: 'a' });
  await db
    .insert(emailTokens)
    .values({ userId: member.id, purpose: 'verify_email', tokenHash: 'hash-xoa', email: member.email, expiresAt: now + DAY });
  await db.insert(rateLimits).values([
    { key: `login:email:${member.email}`, count: 1, windowStart: now },
    { key: `comment:user:${member.id}`, count: 1, windowStart: now },
  ]);
  const [order] = await db
    .insert(payments)
    .values({
      userId: member.id,
      plan: 'VIP1',
      months: 1,
      amount: 50_000,
      gateway: 'bank_transfer',
      txnRef: 'ORDER-XOA-1',
      status: 'paid',
      paymentCode: 'PVXOA1',
      createdAt: now,
      paidAt: now,
    })
    .returning();
  await db.insert(payments).values({
    userId: member.id,
    plan: 'VIP1',
    months: 1,
    amount: 50_000,
    gateway: 'vnpay',
    txnRef: 'ORDER-XOA-2',
    status: 'pending',
    createdAt: now,
  });
  await db
    .insert(subscriptions)
    .values({ userId: member.id, plan: 'VIP1', paymentId: order!.id, startsAt: now, expiresAt: now + 30 * DAY });
  await db.insert(bankTransactions).values({
    providerId: 'sepay-xoa-1',
    gateway: 'VCB',
    transactionDate: '2026-01-15',
    accountNumber: '0001',
    content: 'PVXOA1',
    transferType: 'in',
    transferAmount: 50_000,
    referenceCode: 'FT1',
    raw: '{}',
    status: 'matched',
    paymentId: order!.id,
    receivedAt: now,
  });
  await db.insert(auditLog).values([
    {
      actorId: null,
      actorEmail: 'sepay:sepay-xoa-1',
      action: 'order.bank_confirm',
      target: 'ORDER-XOA-1',
      before: '{"status":"pending"}',
      after: JSON.stringify({ status: 'paid', userId: member.id }),
      createdAt: now,
    },
    {
      actorId: other.id,
      actorEmail: other.email,
      action: 'user.mute',
      target: String(member.id),
      before: null,
      after: '{"mutedAt":1}',
      createdAt: now,
    },
  ]);
  return { member, other, film, orderId: order!.id, mine: mine!.id, alone: alone!.id, reply: reply!.id };
}

interface Traces {
  id: number;
  strings: string[];
}

/** Every table in sqlite_master, every row: a text cell containing one of the strings, or a person column equal to the id. */
async function findTraces(db: Db, traces: Traces): Promise<string[]> {
  const tables = await db.all<{ name: string }>(
    sql`select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '%_fts%' and name != '__drizzle_migrations'`,
  );
  const found: string[] = [];
  const personColumn = /(^|_)(user_id|actor_id|hidden_user_id|created_by|updated_by|removed_by|confirmed_by|resolved_by|deleted_by)$/;
  for (const { name } of tables) {
    const rows = await db.all<Record<string, unknown>>(sql.raw(`select * from "${name}"`));
    for (const row of rows) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value === 'string' && traces.strings.some((s) => value.toLowerCase().includes(s.toLowerCase())))
          found.push(`${name}.${column}=${value}`);
        if (personColumn.test(column) && Number(value) === traces.id) found.push(`${name}.${column}=${value}`);
        if (column === 'target' && value === String(traces.id) && String(row.action).startsWith('user.'))
          found.push(`${name}.target=${value}`);
        if (column === 'after' && typeof value === 'string' && value.includes(`"userId":${traces.id}`))
          found.push(`${name}.after=${value}`);
      }
    }
  }
  return found;
}

const freshLogin = (t: TestApp, user: TestUser) => login(t, user);

describe('Xóa tài khoản', () => {
  it('signs every device out, deletes push subscriptions and mails the erasure date at the request', async () => {
    const { t, clock } = await setup();
    const { member } = await richMember(t, clock.now());
    const phone = await freshLogin(t, member);
    const laptop = await freshLogin(t, member);
    const res = await t.request('/api/account/deletion', { json: { comments: 'anonymise' }, headers: bearer(phone.token) });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { deletion: { dueAt: number }; message: string };
    expect(body.deletion.dueAt).toBe(clock.now() + 7 * DAY);
    expect(body.message).toContain('Tài khoản sẽ bị xóa vào');
    // Both devices are out at once: their access tokens and their refresh tokens.
    expect((await t.request('/api/account', { headers: bearer(laptop.token) })).status).toBe(401);
    expect((await t.request('/api/dang-nhap/refresh', { json: { refreshToken: laptop.refreshToken } })).status).not.toBe(200);
    const live = await t.deps.db
      .select()
      .from(refreshTokens)
      .where(and(eq(refreshTokens.userId, member.id), sql`${refreshTokens.revokedAt} is null`));
    expect(live).toHaveLength(0);
    expect(await t.deps.db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, member.id))).toHaveLength(0);
    const [mail] = await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'account_deletion'));
    expect(mail?.toAddress).toBe(member.email);
    expect(JSON.parse(mail!.payload!).dueAt).toBe(body.deletion.dueAt);
  });

  it('asks for a sign-in of the last 10 minutes', async () => {
    const { t, clock } = await setup();
    const member = await createUser(t.deps.db);
    const session = await freshLogin(t, member);
    clock.advance(11 * 60_000);
    // The access token is still valid (15 minutes), the sign-in is not fresh.
    const res = await t.request('/api/account/deletion', { json: {}, headers: bearer(session.token) });
    expect(res.status).toBe(403);
    expect((await errorOf(res)).code).toBe('reauth_required');
    const again = await freshLogin(t, member);
    expect((await t.request('/api/account/deletion', { json: {}, headers: bearer(again.token) })).status).toBe(200);
  });

  it('shows the pending deletion on sign-in; "Khôi phục tài khoản" cancels it and the scheduler then keeps the account', async () => {
    const { t, clock } = await setup();
    const member = await createUser(t.deps.db);
    await t.request('/api/account/deletion', { json: {}, headers: bearer((await freshLogin(t, member)).token) });
    clock.advance(2 * DAY);
    const back = await freshLogin(t, member);
    const account = (await (await t.request('/api/account', { headers: bearer(back.token) })).json()) as {
      deletion: { dueAt: number } | null;
    };
    expect(account.deletion?.dueAt).toBeGreaterThan(clock.now());
    const restore = await t.request('/api/account/deletion', { method: 'DELETE', headers: bearer(back.token) });
    expect(restore.status).toBe(200);
    clock.advance(8 * DAY);
    await accountErasure.run(t.deps, clock.now());
    expect(await t.deps.db.select().from(users).where(eq(users.id, member.id))).toHaveLength(1);
  });

  it('erases after 7 days: nothing names the member outside the anonymised money rows, which are kept; the address can register again', async () => {
    const { t, clock } = await setup();
    const { member, other, orderId, mine, alone, reply } = await richMember(t, clock.now());
    const strings = [
      member.email,
      member.name,
      'google-sub-xoa-123456789',
      'passkey-credential-id-xoa',
      'xoa-endpoint-42',
      'Lời bình riêng tư',
    ];
    // The scan sees the member everywhere before (it can fail).
    expect((await findTraces(t.deps.db, { id: member.id, strings })).length).toBeGreaterThan(15);
    await t.request('/api/account/deletion', { json: {}, headers: bearer((await freshLogin(t, member)).token) });
    clock.advance(6 * DAY);
    await accountErasure.run(t.deps, clock.now());
    expect(await t.deps.db.select().from(users).where(eq(users.id, member.id))).toHaveLength(1);
    clock.advance(DAY + 60_000);
    await accountErasure.run(t.deps, clock.now());

    const traces = await findTraces(t.deps.db, { id: member.id, strings });
    expect(traces).toEqual([]);
    // Money is kept without the person; the unpaid order is cancelled.
    const orders = await t.deps.db.select().from(payments).orderBy(payments.id);
    expect(orders.map((o) => [o.txnRef, o.userId, o.status])).toEqual([
      ['ORDER-XOA-1', null, 'paid'],
      ['ORDER-XOA-2', null, 'cancelled'],
    ]);
    const [sub] = await t.deps.db.select().from(subscriptions);
    expect(sub).toMatchObject({ userId: null, paymentId: orderId });
    const [bank] = await t.deps.db.select().from(bankTransactions);
    expect(bank?.paymentId).toBe(orderId);
    const [paymentAudit] = await t.deps.db.select().from(auditLog).where(eq(auditLog.target, 'ORDER-XOA-1'));
    expect(JSON.parse(paymentAudit!.after!)).toEqual({ status: 'paid' });
    // Comments: anonymised by default, the reply under one kept in its thread.
    const kept = await t.deps.db.select().from(comments).orderBy(comments.id);
    expect(kept.map((c) => c.id)).toEqual([mine, alone, reply]);
    const [author] = await t.deps.db.select().from(users).where(eq(users.id, kept[0]!.userId));
    expect(author?.username).toBe('Tài khoản đã xóa');
    expect(kept[0]!.body).toBe('');
    expect(kept[2]).toMatchObject({ parentId: mine, userId: other.id, openReports: 0 });
    // The film page shows the anonymised author.
    const page = (await (await t.request('/api/product/phim-xoa-du-lieu/comments')).json()) as unknown;
    expect(JSON.stringify(page)).not.toContain(member.name);
    // The same address registers again as a new member.
    const again = await t.request('/api/dang-ky', {
      json: { email: member.email, name: 'Thành viên mới', password: 'mat-khau-moi-dai-1', acceptPrivacy: true },
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(again.status).toBeLessThan(300);
  });

  it('"Xóa ngay" during the grace period erases at once; "delete" removes the comments nobody answered', async () => {
    const { t, clock } = await setup();
    const { member, mine, alone, reply } = await richMember(t, clock.now());
    await t.request('/api/account/deletion', { json: { comments: 'delete' }, headers: bearer((await freshLogin(t, member)).token) });
    clock.advance(DAY);
    const back = await freshLogin(t, member);
    const res = await t.request('/api/account/deletion/now', { method: 'POST', headers: bearer(back.token) });
    expect(res.status).toBe(200);
    expect(await t.deps.db.select().from(users).where(eq(users.id, member.id))).toHaveLength(0);
    const left = (await t.deps.db.select({ id: comments.id }).from(comments).orderBy(comments.id)).map((c) => c.id);
    expect(left).toEqual([mine, reply]);
    expect(left).not.toContain(alone);
    expect((await t.request('/api/account', { headers: bearer(back.token) })).status).toBe(401);
  });

  it('an admin sees pending deletions and erases one at once, audited without the person', async () => {
    const { t } = await setup();
    const admin = await createUser(t.deps.db, { roles: 'user,admin' });
    const adminSession = await freshLogin(t, admin);
    const member = await createUser(t.deps.db, { name: 'Gọi Điện Xin Xóa' });
    await t.request('/api/account/deletion', { json: {}, headers: bearer((await freshLogin(t, member)).token) });
    const list = (await (await t.request('/api/admin/account-deletions', { headers: bearer(adminSession.token) })).json()) as {
      data: { userId: number }[];
    };
    expect(list.data.map((d) => d.userId)).toEqual([member.id]);
    const memberOnly = await freshLogin(t, await createUser(t.deps.db));
    expect((await t.request('/api/admin/account-deletions', { headers: bearer(memberOnly.token) })).status).toBe(403);
    const res = await t.request(`/api/admin/account-deletions/${member.id}/erase`, { method: 'POST', headers: bearer(adminSession.token) });
    expect(res.status).toBe(200);
    const [entry] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'account.erase'));
    expect(entry).toMatchObject({ actorId: admin.id });
    expect(entry!.target).toMatch(/^erased:[0-9a-f]{16}$/);
    expect(await findTraces(t.deps.db, { id: member.id, strings: [member.email, member.name] })).toEqual([]);
  });

  it('after a restore, erasures recorded only in the database kept aside are carried over and applied', async () => {
    const { t, clock } = await setup();
    const member = await createUser(t.deps.db, { email: 'giu-lai@example.com', name: 'Bản Giữ Lại' });
    const createdAt = clock.now();
    await t.deps.db.update(users).set({ createdAt }).where(eq(users.id, member.id));
    await t.request('/api/account/deletion', { json: {}, headers: bearer((await freshLogin(t, member)).token) });
    clock.advance(8 * DAY);
    await accountErasure.run(t.deps, clock.now());
    // The backup predates the erasure: it holds the member and no record of the erasure.
    const { db: restored } = await openMigratedDatabase(':memory:');
    await restored.insert(users).values({ id: member.id, email: member.email, username: member.name, createdAt, updatedAt: createdAt });
    expect(await reapplyErasures(restored, t.deps.config, duties.erase, clock.now(), t.deps.db)).toBe(1);
    expect(await findTraces(restored, { id: member.id, strings: [member.email, member.name] })).toEqual([]);
    expect(await restored.select().from(erasedAccounts)).toHaveLength(1);
  });

  it('a restored backup is erased again, but an address registered again after the erasure stays', async () => {
    const { t, clock } = await setup();
    const member = await createUser(t.deps.db, { email: 'sao-luu@example.com', name: 'Trong Bản Sao Lưu' });
    const createdAt = clock.now();
    await t.deps.db.update(users).set({ createdAt }).where(eq(users.id, member.id));
    const film = await insertFilm(t.deps.db, 'phim-sao-luu');
    await t.request('/api/account/deletion', { json: {}, headers: bearer((await freshLogin(t, member)).token) });
    clock.advance(8 * DAY);
    await accountErasure.run(t.deps, clock.now());
    // The backup of before the erasure comes back: the same row, the same list.
    await t.deps.db.insert(users).values({ id: member.id, email: member.email, username: member.name, createdAt, updatedAt: createdAt });
    await t.deps.db.insert(watchlist).values({ userId: member.id, filmId: film, addedAt: createdAt });
    const newcomer = await createUser(t.deps.db, { email: 'SAO-LUU-MOI@example.com' });
    expect(await reapplyErasures(t.deps.db, t.deps.config, duties.erase, clock.now())).toBe(1);
    expect(await findTraces(t.deps.db, { id: member.id, strings: [member.name] })).toEqual([]);
    expect(await t.deps.db.select().from(users).where(eq(users.id, newcomer.id))).toHaveLength(1);
    // Registered again after the erasure: a new member, untouched by a second pass.
    await t.deps.db
      .insert(users)
      .values({ email: member.email, username: 'Người mới', createdAt: clock.now() + 1, updatedAt: clock.now() + 1 });
    expect(await reapplyErasures(t.deps.db, t.deps.config, duties.erase, clock.now() + 2)).toBe(0);
    expect(await t.deps.db.select().from(users).where(eq(users.email, member.email))).toHaveLength(1);
  });
});
