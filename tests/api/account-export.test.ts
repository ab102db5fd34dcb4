// "Tải dữ liệu của tôi" (issue 39 §2, docs/export-format.md): one JSON file with every section, compared with a
// golden file for a seeded member (a fixed clock and a fresh database give stable ids and dates); never a
// hash, token or key; a fresh sign-in and at most 5 files an hour.
import { describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { eq } from 'drizzle-orm';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, createUser, fakeClock, insertFilm, login } from '../helpers/auth';
import {
  commentHiddenAuthors,
  commentReports,
  consentRecords,
  comments,
  mailOutbox,
  passkeys,
  payments,
  pushSubscriptions,
  ratings,
  subscriptions,
  users,
  watchlist,
  watchProgress,
} from '../../worker/db/schema';

const GOLDEN = fileURLToPath(new URL('./__golden__/account-export.json', import.meta.url));
const DAY = 86_400_000;

async function seeded() {
  const clock = fakeClock(Date.UTC(2026, 0, 15, 12, 0, 0));
  const t = await createTestApp({ now: clock.now });
  const db = t.deps.db;
  const start = clock.now() - 10 * DAY;
  const member = await createUser(db, { email: 'xuat.du.lieu@example.com', name: 'Người Xuất Dữ Liệu', password: 'mat-khau-xuat-du-lieu' });
  const other = await createUser(db, { email: 'ban.be@example.com', name: 'Bạn Bè' });
  await db.update(users).set({ createdAt: start, emailVerifiedAt: start, googleSub: 'google-sub-secret' }).where(eq(users.id, member.id));
  const a = await insertFilm(db, 'phim-a', 'Phim A');
  const b = await insertFilm(db, 'phim-b', 'Phim B');
  await db.insert(watchlist).values([
    { userId: member.id, filmId: a, addedAt: start + 1, notify: true },
    { userId: member.id, filmId: b, addedAt: start + 2, notify: false },
  ]);
  await db.insert(watchProgress).values({ userId: member.id, filmId: a, episode: 2, position: 61.5, duration: 1500, updatedAt: start + 3 });
  await db.insert(ratings).values({ userId: member.id, filmId: b, stars: 4, createdAt: start + 4, updatedAt: start + 5 });
  await db.insert(consentRecords).values([
    { userId: member.id, policyVersion: '2025-12-01', acceptedAt: start, method: 'sign_up' },
    { userId: other.id, policyVersion: '2025-12-01', acceptedAt: start, method: 'sign_up' },
  ]);
  const [c1] = await db
    .insert(comments)
    .values({ filmId: a, userId: member.id, body: 'Hay ***', rawBody: 'Hay quá trời', createdAt: start + 6 })
    .returning();
  await db.insert(comments).values({
    filmId: a,
    userId: member.id,
    parentId: c1!.id,
    body: 'Bị gỡ',
    status: 'removed',
    removedAt: start + 8,
    removalReason: 'Spam',
    createdAt: start + 7,
    episode: 2,
  });
  const [theirs] = await db
    .insert(comments)
    .values({ filmId: b, userId: other.id, body: 'Của người khác', createdAt: start + 9 })
    .returning();
  await db
    .insert(commentReports)
    .values({ commentId: theirs!.id, userId: member.id, reason: 'other', note: 'Lạc đề', createdAt: start + 10 });
  await db.insert(commentHiddenAuthors).values({ userId: member.id, hiddenUserId: other.id, createdAt: start + 11 });
  await db.insert(passkeys).values({
    id: 'credential-secret-id',
    userId: member.id,
    publicKey: 'public-key-secret',
    name: 'Điện thoại',
    createdAt: start + 12,
    lastUsedAt: start + 13,
    backedUp: true,
  });
  await db.insert(pushSubscriptions).values({
    userId: member.id,
    endpoint: 'https://fcm.googleapis.com/fcm/send/endpoint-secret',
    p256dh: 'p256dh-secret',
    auth: 'auth-secret',
    createdAt: start + 14,
  });
  const [order] = await db
    .insert(payments)
    .values({
      userId: member.id,
      plan: 'VIP1',
      months: 3,
      amount: 135_000,
      gateway: 'vnpay',
      txnRef: 'PV-ORDER-1',
      status: 'paid',
      providerPayload: '{"vnp_SecureHash":"gateway-secret"}',
      createdAt: start + 15,
      paidAt: start + 16,
    })
    .returning();
  await db.insert(subscriptions).values({
    userId: member.id,
    plan: 'VIP1',
    paymentId: order!.id,
    startsAt: start + 16,
    expiresAt: start + 16 + 90 * DAY,
    createdAt: start + 16,
  });
  await db.insert(mailOutbox).values([
    {
      kind: 'receipt',
      toAddress: member.email,
      userId: member.id,
      payload: '{"token":"sealed-secret"}',
      status: 'sent',
      createdAt: start + 17,
      sentAt: start + 18,
    },
    {
      kind: 'verify_email',
      toAddress: member.email,
      userId: member.id,
      status: 'sent',
      createdAt: start - 40 * DAY,
      sentAt: start - 40 * DAY,
    },
  ]);
  return { t, clock, member };
}

const exportOf = (t: TestApp, token: string) => t.request('/api/account/export', { headers: bearer(token) });

describe('Tải dữ liệu của tôi', () => {
  it("is the golden file for a seeded member, with no hash, token, key or another member's data", async () => {
    const { t, member } = await seeded();
    const session = await login(t, member);
    const res = await exportOf(t, session.token);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="phimviet-du-lieu-2026-01-15\.json"$/);
    const text = await res.text();
    const file = JSON.parse(text) as Record<string, unknown>;
    if (process.env.UPDATE_GOLDEN === '1') writeFileSync(GOLDEN, `${JSON.stringify(file, null, 2)}\n`);
    expect(file).toEqual(JSON.parse(readFileSync(GOLDEN, 'utf8')));
    for (const secret of ['secret', 'pbkdf2', 'public-key', 'credential', 'Của người khác', 'ban.be@example.com'])
      expect(text.toLowerCase()).not.toContain(secret.toLowerCase());
  });

  it('needs a sign-in of the last 10 minutes and allows 5 files an hour', async () => {
    const { t, clock, member } = await seeded();
    const stale = await login(t, member);
    clock.advance(11 * 60_000);
    const refused = await exportOf(t, stale.token);
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).code).toBe('reauth_required');
    const fresh = await login(t, member);
    for (let i = 0; i < 5; i++) expect((await exportOf(t, fresh.token)).status).toBe(200);
    const sixth = await exportOf(t, fresh.token);
    expect(sixth.status).toBe(429);
    expect((await errorOf(sixth)).message).toContain('quá nhiều lần');
    expect((await t.request('/api/account/export')).status).toBe(401);
  });
});
