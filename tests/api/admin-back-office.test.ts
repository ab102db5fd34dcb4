// Dashboard figures from real rows, analytics, error reports (open first, resolve), settings with the
// crawl-source allowlist, and the audit log of every admin write.
import { beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../worker/config';
import { crawlRuns, errorReports, payments, subscriptions, viewEvents } from '../../worker/db/schema';
import type { AdminAnalytics, AdminStats, AuditResponse, ErrorReportsResponse, SettingsResponse } from '../../worker/schemas/admin';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, createUser, fakeClock, insertFilm, signedInUser } from '../helpers/auth';

const DAY = 86_400_000;
let t: TestApp;
let auth: { authorization: string };
// 2026-01-15 12:00 UTC (19:00 in Vietnam).
const clock = fakeClock();

beforeEach(async () => {
  t = await createTestApp({
    now: clock.now,
    config: {
      ...loadConfig({ APP_ENV: 'test' }),
      CRAWL_SOURCES: ['http://127.0.0.1:8788', 'https://ophim1.com'],
      CRAWL_SOURCE: 'http://127.0.0.1:8788',
      PAYMENT_HOTLINE: '1900 1234',
      BANK_NAME: '',
      BANK_ACCOUNT_NUMBER: '',
      BANK_ACCOUNT_HOLDER: '',
    },
  });
  auth = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
});

describe('GET /api/admin/stats', () => {
  it('counts films, episodes, users, VIP members, revenue, views per day, top films, open reports and last runs', async () => {
    const now = clock.now();
    const db = t.deps.db;
    const a = await insertFilm(db, 'phim-a', 'Phim A');
    const b = await insertFilm(db, 'phim-b', 'Phim B');
    const u1 = await createUser(db);
    const u2 = await createUser(db);
    await db.insert(subscriptions).values([
      { userId: u1.id, plan: 'VIP1', startsAt: now - DAY, expiresAt: now + 29 * DAY },
      { userId: u1.id, plan: 'VIP1', startsAt: now - DAY, expiresAt: now + 59 * DAY },
      { userId: u2.id, plan: 'VIP2', startsAt: now - 40 * DAY, expiresAt: now - 10 * DAY },
    ]);
    await db.insert(payments).values([
      { userId: u1.id, plan: 'VIP1', months: 1, amount: 69_000, gateway: 'vnpay', txnRef: 'r1', status: 'paid', paidAt: now - DAY },
      { userId: u1.id, plan: 'VIP1', months: 1, amount: 69_000, gateway: 'vnpay', txnRef: 'r2', status: 'pending' },
      { userId: u2.id, plan: 'VIP2', months: 3, amount: 297_000, gateway: 'momo', txnRef: 'r3', status: 'paid', paidAt: now - 40 * DAY },
    ]);
    await db.insert(viewEvents).values([
      { filmId: a, viewedAt: now },
      { filmId: a, viewedAt: now - 1000 },
      { filmId: b, viewedAt: now - 2 * DAY },
      { filmId: b, viewedAt: now - 10 * DAY },
      { filmId: b, viewedAt: now - 10 * DAY },
      { filmId: b, viewedAt: now - 10 * DAY },
    ]);
    await db.insert(errorReports).values([
      { filmId: a, reason: 'khac' },
      { filmId: a, reason: 'khac', resolvedAt: now },
    ]);
    await db
      .insert(crawlRuns)
      .values({ source: 'http://127.0.0.1:8788', trigger: 'admin', status: 'done', startedAt: now, heartbeatAt: now });

    const res = await t.request('/api/admin/stats', { headers: auth });
    expect(res.status).toBe(200);
    const stats = (await res.json()) as AdminStats;
    expect(stats).toMatchObject({
      films: 2,
      episodes: 0,
      users: 3,
      vipMembers: { VIP1: 1, VIP2: 0 },
      revenueThisMonth: 69_000,
      openErrorReports: 1,
    });
    expect(stats.revenueByMonth).toHaveLength(12);
    expect(stats.revenueByMonth.at(-1)).toEqual({ month: '2026-01', amount: 69_000 });
    expect(stats.revenueByMonth.at(-2)).toEqual({ month: '2025-12', amount: 297_000 });
    expect(stats.viewsPerDay).toHaveLength(30);
    expect(stats.viewsPerDay.at(-1)).toEqual({ day: '2026-01-15', views: 2 });
    expect(stats.viewsPerDay.find((d) => d.day === '2026-01-05')).toEqual({ day: '2026-01-05', views: 3 });
    expect(stats.viewsPerDay.reduce((n, d) => n + d.views, 0)).toBe(6);
    expect(stats.topFilmsWeek).toEqual([
      { slug: 'phim-a', title: 'Phim A', views: 2 },
      { slug: 'phim-b', title: 'Phim B', views: 1 },
    ]);
    expect(stats.lastCrawlRuns.map((r) => r.state)).toEqual(['done']);
  });

  it('is open to VIP2 holders (the dashboard is admin or VIP2)', async () => {
    const vip2 = await signedInUser(t, { permissions: 'VIP2' });
    expect((await t.request('/api/admin/stats', { headers: bearer(vip2.session.token) })).status).toBe(200);
  });
});

describe('GET /api/admin/analytics', () => {
  it('answers views per day and top films by week, month and all time', async () => {
    const a = await insertFilm(t.deps.db, 'phim-a', 'Phim A');
    await t.deps.db.insert(viewEvents).values([{ filmId: a, viewedAt: clock.now() - 20 * DAY }]);
    const body = (await (await t.request('/api/admin/analytics', { headers: auth })).json()) as AdminAnalytics;
    expect(body.topFilmsWeek).toEqual([]);
    expect(body.topFilmsMonth).toEqual([{ slug: 'phim-a', title: 'Phim A', views: 1 }]);
    expect(body.topFilmsAllTime.map((f) => f.slug)).toEqual(['phim-a']);
    expect(body.viewsPerDay).toHaveLength(30);
  });
});

describe('error reports', () => {
  it('lists open reports first and resolves one (idempotent, audited)', async () => {
    const a = await insertFilm(t.deps.db, 'phim-a', 'Phim A');
    const reporter = await createUser(t.deps.db, { name: 'Người Báo' });
    const rows = await t.deps.db
      .insert(errorReports)
      .values([
        { filmId: a, episode: 1, reason: 'khong-phat-duoc', userId: reporter.id },
        { filmId: a, episode: 2, reason: 'sai-tap', resolvedAt: clock.now() },
        { filmId: a, episode: 3, reason: 'phu-de' },
      ])
      .returning({ id: errorReports.id });
    const list = (await (await t.request('/api/admin/error-reports', { headers: auth })).json()) as ErrorReportsResponse;
    expect(list.open).toBe(2);
    expect(list.data.map((r) => r.episode)).toEqual([3, 1, 2]);
    expect(list.data[1]).toMatchObject({ film: { slug: 'phim-a', title: 'Phim A' }, user: { id: reporter.id, username: 'Người Báo' } });

    const id = rows[0]!.id;
    const res = await t.request(`/api/admin/error-reports/${id}/resolve`, { method: 'POST', headers: auth });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ id, resolvedAt: clock.now() });
    expect((await t.request(`/api/admin/error-reports/${id}/resolve`, { method: 'POST', headers: auth })).status).toBe(200);
    const open = (await (await t.request('/api/admin/error-reports?state=open', { headers: auth })).json()) as ErrorReportsResponse;
    expect(open.data.map((r) => r.episode)).toEqual([3]);
    const audit = (await (await t.request('/api/admin/audit?action=error_report.resolve', { headers: auth })).json()) as AuditResponse;
    expect(audit.data).toHaveLength(1);

    expect((await t.request('/api/admin/error-reports/4242/resolve', { method: 'POST', headers: auth })).status).toBe(404);
    expect((await t.request('/api/admin/error-reports?state=closed', { headers: auth })).status).toBe(400);
  });
});

describe('settings', () => {
  it('answers env defaults, saves changes, and refuses a crawl source outside CRAWL_SOURCES', async () => {
    const first = (await (await t.request('/api/admin/settings', { headers: auth })).json()) as SettingsResponse;
    expect(first.data).toEqual({
      hotline: '1900 1234',
      bankName: '',
      bankAccount: '',
      bankHolder: '',
      bankBin: '970436',
      crawlSource: 'http://127.0.0.1:8788',
      // Comment moderation (issue 33): reports that hide a comment, and the age of a new account.
      commentReportThreshold: 3,
      commentNewAccountDays: 7,
    });
    expect(first.allowedCrawlSources).toEqual(['http://127.0.0.1:8788', 'https://ophim1.com']);

    const put = await t.request('/api/admin/settings', {
      method: 'PUT',
      json: {
        hotline: '0909 000 111',
        bankName: 'Vietcombank',
        bankAccount: '0123456789',
        bankHolder: 'CONG TY PHIM VIET',
        crawlSource: 'https://ophim1.com',
      },
      headers: auth,
    });
    expect(put.status).toBe(200);
    const saved = (await (await t.request('/api/admin/settings', { headers: auth })).json()) as SettingsResponse;
    expect(saved.data).toMatchObject({ hotline: '0909 000 111', bankName: 'Vietcombank', crawlSource: 'https://ophim1.com' });
    // A save of one field keeps the others (the bank account is not erased by a new hotline).
    expect((await t.request('/api/admin/settings', { method: 'PUT', json: { hotline: '0909 222 333' }, headers: auth })).status).toBe(200);
    const partial = (await (await t.request('/api/admin/settings', { headers: auth })).json()) as SettingsResponse;
    expect(partial.data).toEqual({ ...saved.data, hotline: '0909 222 333' });

    const evil = await t.request('/api/admin/settings', {
      method: 'PUT',
      json: { crawlSource: 'http://169.254.169.254/latest' },
      headers: auth,
    });
    expect(evil.status).toBe(400);
    expect((await errorOf(evil)).message).toMatch(/^crawlSource:/);
    const bad = await t.request('/api/admin/settings', { method: 'PUT', json: { crawlSource: 'not a url' }, headers: auth });
    expect(bad.status).toBe(400);

    const audit = (await (await t.request('/api/admin/audit?action=settings.update', { headers: auth })).json()) as AuditResponse;
    expect(audit.data).toHaveLength(2);
    expect(audit.data[1]?.before).toMatchObject({ hotline: '1900 1234', crawlSource: 'http://127.0.0.1:8788' });
    expect(audit.data[1]?.after).toMatchObject({ hotline: '0909 000 111', crawlSource: 'https://ophim1.com' });
    expect(audit.data[0]?.before).toEqual({ hotline: '0909 000 111' });
    expect(audit.data[0]?.after).toEqual({ hotline: '0909 222 333' });
  });
});

describe('GET /api/admin/audit', () => {
  it('pages newest first and refuses a bad page', async () => {
    const body = (await (await t.request('/api/admin/audit', { headers: auth })).json()) as AuditResponse;
    expect(body).toEqual({ data: [], pagination: { page: 1, pageSize: 50, totalItems: 0, totalPages: 1 } });
    expect((await t.request('/api/admin/audit?page=-1', { headers: auth })).status).toBe(400);
  });
});
