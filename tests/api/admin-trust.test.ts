// A back office you can trust with money and content (issue 16): VIP2 uploaders only change what they
// added and see their own dashboard; every confirmation of money has an author in the order and the audit
// log; a deleted film stays deleted for every later crawl until an admin restores it; the audit log shows
// what changed field by field; a film titled "Product …" is reachable; the admin user search ignores
// diacritics; the footer's pages are real and editable by admins.
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { auditLog, films, payments } from '../../worker/db/schema';
import { runScheduledJobs } from '../../worker/scheduled';
import type {
  AddFilmResponse,
  AdminFilm,
  AuditResponse,
  DashboardStats,
  DeletedFilmsResponse,
  EpisodeWriteResponse,
  FilmEpisodesResponse,
  RestoreFilmResponse,
} from '../../worker/schemas/admin';
import type { FilmDetailResponse } from '../../worker/schemas/catalogue';
import type { SitePage, SitePagesResponse } from '../../worker/schemas/pages';
import type { AdminOrdersResponse, BankTransferResponse } from '../../worker/schemas/vip';
import { runCrawl } from '../../worker/services/crawler';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, createUser, fakeClock, signedInUser } from '../helpers/auth';
import { crawlConfigFor, ophimFilm, startOphimStandin, type Standin } from '../helpers/ophim-standin';

type Auth = { authorization: string };
let t: TestApp;
let source: Standin | undefined;

afterEach(async () => {
  await source?.close();
  source = undefined;
});

async function json<T>(res: Response): Promise<T> {
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as T;
}

async function audit(auth: Auth, action: string) {
  return (await json<AuditResponse>(await t.request(`/api/admin/audit?action=${action}`, { headers: auth }))).data;
}

describe('VIP2 uploaders within bounds', () => {
  it('a VIP2 buyer adds a film and its episodes, cannot touch another film, and sees only their own dashboard', async () => {
    t = await createTestApp();
    const admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    // Buys VIP2 by bank transfer; an admin confirms it: the permission comes from the subscription.
    const buyer = await signedInUser(t);
    const uploader = bearer(buyer.session.token);
    const order = await json<BankTransferResponse>(
      await t.request('/api/product/bank_transfer', { json: { plan: 'VIP2', months: 1 }, headers: uploader }),
    );
    await json(await t.request(`/api/admin/orders/${order.orderId}/confirm`, { method: 'POST', headers: admin }));

    const own = await json<AddFilmResponse>(
      await t.request('/api/admin/addphim', { json: { title: 'Phim Của Tôi', category_id: 24 }, headers: uploader }),
    );
    const other = await json<AddFilmResponse>(
      await t.request('/api/admin/addphim', { json: { title: 'Phim Của Admin', category_id: 24 }, headers: admin }),
    );
    const link = 'https://cdn.example.com/a/1.m3u8';
    await json(await t.request('/api/admin/film?slug=phim-cua-admin', { headers: admin }));
    await t.request('/api/product/create_xemphim', { json: { selectedTitle: other.slug, episode: 1, linkfilm: link }, headers: admin });

    // Their own film: add, then change the link (one accurate message each time).
    const added = await t.request('/api/product/create_xemphim', {
      json: { selectedTitle: own.slug, episode: 1, linkfilm: link },
      headers: uploader,
    });
    expect(added.status).toBe(201);
    expect(((await added.json()) as EpisodeWriteResponse).message).toBe('Thêm tập phim mới thành công');
    const again = await t.request('/api/product/create_xemphim', {
      json: { selectedTitle: own.slug, episode: 1, linkfilm: 'https://cdn.example.com/a/1b.m3u8' },
      headers: uploader,
    });
    expect(again.status).toBe(200);
    expect(((await again.json()) as EpisodeWriteResponse).message).toBe('Đã cập nhật link tập phim');

    // Another's film: every way of overwriting its links is refused, and nothing changes.
    const overwrite = await t.request('/api/product/create_xemphim', {
      json: { selectedTitle: other.slug, episode: 1, linkfilm: 'https://evil.example.com/x.m3u8' },
      headers: uploader,
    });
    expect(overwrite.status).toBe(403);
    expect((await errorOf(overwrite)).code).toBe('forbidden');
    const otherEpisodes = await json<FilmEpisodesResponse>(
      await t.request(`/api/product/admin_episodes?title=${other.slug}`, { headers: admin }),
    );
    const otherId = otherEpisodes.data[0]!.id;
    const edit = await t.request('/api/product/edit_xemphim', {
      json: { id: otherId, linkfilm: 'https://evil.example.com/y.m3u8' },
      headers: uploader,
    });
    expect(edit.status).toBe(403);
    expect((await t.request(`/api/product/admin_episodes?title=${other.slug}`, { headers: uploader })).status).toBe(403);
    expect((await t.request(`/api/product/delete_xemphim?id=${otherId}`, { method: 'DELETE', headers: uploader })).status).toBe(403);
    expect(
      (await t.request('/api/product/edit_productphim', { json: { data: { slug: own.slug, title: 'X' } }, headers: uploader })).status,
    ).toBe(403);
    const after = await json<FilmEpisodesResponse>(await t.request(`/api/product/admin_episodes?title=${other.slug}`, { headers: admin }));
    expect(after.data.map((e) => e.linkfilm)).toEqual([link]);

    // Their own episode can be changed with edit_xemphim; who created and who changed it is kept.
    const mine = await json<FilmEpisodesResponse>(await t.request(`/api/product/admin_episodes?title=${own.slug}`, { headers: uploader }));
    const mineId = mine.data[0]!.id;
    await json(await t.request('/api/product/edit_xemphim', { json: { id: mineId, server: 'Thuyết Minh' }, headers: uploader }));
    await json(
      await t.request('/api/product/edit_xemphim', { json: { id: mineId, linkfilm: 'https://cdn.example.com/a/1c.m3u8' }, headers: admin }),
    );
    const authored = await json<FilmEpisodesResponse>(await t.request(`/api/product/admin_episodes?title=${own.slug}`, { headers: admin }));
    expect(authored.data[0]).toMatchObject({
      server: 'Thuyết Minh',
      linkfilm: 'https://cdn.example.com/a/1c.m3u8',
      createdBy: { id: buyer.id, email: buyer.email },
      updatedBy: { email: expect.stringContaining('@') },
    });
    expect(authored.data[0]!.updatedBy?.id).not.toBe(buyer.id);
    const film = await json<AdminFilm>(await t.request(`/api/admin/film?slug=${own.slug}`, { headers: admin }));
    expect(film.createdBy).toEqual({ id: buyer.id, email: buyer.email });

    // Uploads by VIP2 holders are in the audit log with their author.
    const creates = await audit(admin, 'film.create');
    expect(creates.find((e) => e.target === own.slug)?.actor).toEqual({ id: buyer.id, email: buyer.email });
    const episodeCreates = await audit(admin, 'episode.create');
    expect(episodeCreates.some((e) => e.actor.id === buyer.id && e.target.startsWith(own.slug))).toBe(true);

    // Dashboard: their uploads only; no revenue, users or members.
    const mineStats = await json<DashboardStats>(await t.request('/api/admin/stats', { headers: uploader }));
    expect(mineStats).toEqual({
      scope: 'uploads',
      films: 1,
      episodes: 1,
      views: 0,
      recentFilms: [{ slug: own.slug, title: 'Phim Của Tôi', episodes: 1, views: 0, updatedAt: expect.any(Number) }],
      // The comment moderation queue of their films' threads (issue 33).
      moderationQueue: { open: 0, oldestAt: null },
    });
    expect(JSON.stringify(mineStats)).not.toMatch(/revenue|users|vipMembers/);
    const siteStats = await json<DashboardStats>(await t.request('/api/admin/stats', { headers: admin }));
    expect(siteStats).toMatchObject({ scope: 'site', films: 2, users: 2, revenueThisMonth: 99_000 });
  });
});

describe('money: every confirmation has an author', () => {
  it('an admin confirms a pending bank transfer: the order keeps who and when, the audit log the amount', async () => {
    const clock = fakeClock();
    t = await createTestApp({ now: clock.now });
    const adminUser = await signedInUser(t, { roles: 'admin' });
    const admin = bearer(adminUser.session.token);
    const user = bearer((await signedInUser(t)).session.token);
    const transfer = await json<BankTransferResponse>(
      await t.request('/api/product/bank_transfer', { json: { plan: 'VIP1', months: 3 }, headers: user }),
    );
    const vnpay = await json<{ orderId: string }>(
      await t.request('/api/product/vnpay', { json: { plan: 'VIP1', months: 1 }, headers: user }),
    );

    // The list filters by method and status on the server and says which orders can be confirmed.
    const pendingTransfers = await json<AdminOrdersResponse>(
      await t.request('/api/admin/orders?method=bank_transfer&status=pending', { headers: admin }),
    );
    expect(pendingTransfers.data.map((o) => [o.orderId, o.confirmable])).toEqual([[transfer.orderId, true]]);
    const gateway = await json<AdminOrdersResponse>(await t.request('/api/admin/orders?method=vnpay', { headers: admin }));
    expect(gateway.data.map((o) => [o.orderId, o.confirmable])).toEqual([[vnpay.orderId, false]]);
    expect((await t.request('/api/admin/orders?method=cash', { headers: admin })).status).toBe(400);
    const refused = await t.request(`/api/admin/orders/${vnpay.orderId}/confirm`, { method: 'POST', headers: admin });
    expect(refused.status).toBe(409);

    clock.advance(60_000);
    const confirmed = await t.request(`/api/admin/orders/${transfer.orderId}/confirm`, { method: 'POST', headers: admin });
    expect(await json(confirmed)).toMatchObject({
      message: 'Đã xác nhận thanh toán',
      confirmedBy: { id: adminUser.id, email: adminUser.email },
    });
    const [row] = await t.deps.db.select().from(payments).where(eq(payments.txnRef, transfer.orderId));
    expect(row).toMatchObject({ status: 'paid', confirmedBy: adminUser.id, confirmedByEmail: adminUser.email, paidAt: clock.now() });

    const listed = await json<AdminOrdersResponse>(await t.request('/api/admin/orders?status=paid', { headers: admin }));
    expect(listed.data[0]).toMatchObject({
      orderId: transfer.orderId,
      paidAt: clock.now(),
      confirmedBy: { id: adminUser.id, email: adminUser.email },
      confirmable: false,
    });
    const entries = await audit(admin, 'order.confirm');
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({
      actor: { id: adminUser.id, email: adminUser.email },
      target: transfer.orderId,
      after: { status: 'paid', amount: 207_000, plan: 'VIP1', months: 3, confirmedBy: adminUser.email },
    });
    expect(entries[0]!.changes).toContainEqual({ field: 'status', before: 'pending', after: 'paid' });

    // A second confirmation is a 409 and writes no second entry.
    expect((await t.request(`/api/admin/orders/${transfer.orderId}/confirm`, { method: 'POST', headers: admin })).status).toBe(409);
    expect(await audit(admin, 'order.confirm')).toHaveLength(1);

    // An admin's grant or revoke of VIP is audited with the author.
    const target = await createUser(t.deps.db, { email: 'nguoi.xem@example.com', name: 'Người Xem' });
    await json(
      await t.request('/api/update_permissions', { json: { id_user_update: target.id, edited_Permissions: ['VIP1'] }, headers: admin }),
    );
    await json(await t.request('/api/update_permissions', { json: { id_user_update: target.id, edited_Permissions: [] }, headers: admin }));
    const grants = await audit(admin, 'user.permissions');
    expect(grants.map((e) => [e.actor.email, e.changes])).toEqual([
      [adminUser.email, [{ field: 'value', before: ['VIP1'], after: [] }]],
      [adminUser.email, [{ field: 'value', before: [], after: ['VIP1'] }]],
    ]);
  });
});

describe('the orders list pages on the server', () => {
  it('50 a page, filtered by method and status, with the page count', async () => {
    t = await createTestApp();
    const admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    const buyer = await createUser(t.deps.db);
    const rows = Array.from({ length: 62 }, (_, i) => ({
      userId: buyer.id,
      plan: 'VIP1' as const,
      months: 1,
      amount: 69_000,
      gateway: i < 55 ? ('bank_transfer' as const) : ('momo' as const),
      txnRef: i.toString(16).padStart(32, '0'),
      status: i % 11 === 0 ? ('cancelled' as const) : ('pending' as const),
      createdAt: 1_000 + i,
    }));
    await t.deps.db.insert(payments).values(rows);
    const first = await json<AdminOrdersResponse>(
      await t.request('/api/admin/orders?method=bank_transfer&status=pending', { headers: admin }),
    );
    const pendingTransfers = rows.filter((r) => r.gateway === 'bank_transfer' && r.status === 'pending');
    expect(first.pagination).toEqual({ page: 1, pageSize: 50, totalItems: pendingTransfers.length, totalPages: 1 });
    const all1 = await json<AdminOrdersResponse>(await t.request('/api/admin/orders', { headers: admin }));
    const all2 = await json<AdminOrdersResponse>(await t.request('/api/admin/orders?page=2', { headers: admin }));
    expect(all1.pagination).toMatchObject({ totalItems: 62, totalPages: 2 });
    expect(all1.data).toHaveLength(50);
    expect(all2.data).toHaveLength(12);
    // Newest first, no order on both pages.
    expect(all1.data[0]?.orderId).toBe((61).toString(16).padStart(32, '0'));
    expect(new Set([...all1.data, ...all2.data].map((o) => o.orderId)).size).toBe(62);
    const momo = await json<AdminOrdersResponse>(await t.request('/api/admin/orders?method=momo', { headers: admin }));
    expect(momo.data.map((o) => [o.method, o.confirmable])).toEqual(Array(7).fill(['momo', false]));
  });
});

describe('deleted films stay deleted', () => {
  async function crawlSetup(clock?: ReturnType<typeof fakeClock>) {
    source = await startOphimStandin({ pageSize: 10 });
    const ACTION = { name: 'Hành Động', slug: 'hanh-dong' };
    for (let i = 1; i <= 3; i++)
      source.films.push(ophimFilm({ slug: `hanh-dong-${i}`, name: `Hành Động ${i}`, category: [ACTION] }, { episodeCount: 2 }));
    t = await createTestApp({
      ...(clock ? { now: clock.now } : {}),
      config: crawlConfigFor(source),
    });
    return bearer((await signedInUser(t, { roles: 'admin' })).session.token);
  }

  async function crawlNow(admin: Auth) {
    const { runId } = await json<{ runId: number }>(await t.request('/api/crawl', { json: { category: 'Hành Động' }, headers: admin }));
    await vi.waitFor(
      async () =>
        expect((await json<{ state: string }>(await t.request(`/api/crawl_runs/${runId}`, { headers: admin }))).state).toBe('done'),
      { timeout: 20_000, interval: 50 },
    );
  }

  const slugs = async () => (await t.deps.db.select({ slug: films.slug }).from(films).orderBy(films.slug)).map((r) => r.slug);

  it('after a bulk delete, "Thu thập ngay", a scheduled crawl and the CLI crawl never bring them back; "Khôi phục" does', async () => {
    const clock = fakeClock();
    const admin = await crawlSetup(clock);
    await crawlNow(admin);
    expect(await slugs()).toEqual(['hanh-dong-1', 'hanh-dong-2', 'hanh-dong-3']);
    // The source changes the films, so a crawl would otherwise rewrite them.
    for (const f of source!.films) f.movie.content = `${f.movie.content} (mới)`;

    const del = await t.request('/api/product/delete_products', {
      method: 'DELETE',
      json: { titles: ['hanh-dong-1', 'hanh-dong-2'] },
      headers: admin,
    });
    expect(del.status).toBe(200);
    const deleted = await json<DeletedFilmsResponse>(await t.request('/api/admin/deleted-films', { headers: admin }));
    expect(deleted.data.map((d) => [d.slug, d.fromCrawl, d.deletedBy?.email])).toEqual(
      [
        ['hanh-dong-1', true, expect.stringContaining('@')],
        ['hanh-dong-2', true, expect.stringContaining('@')],
      ].sort((a, b) => String(b[0]).localeCompare(String(a[0]))),
    );

    await crawlNow(admin);
    expect(await slugs()).toEqual(['hanh-dong-3']);

    await json(
      await t.request('/api/create_scheduled_crawls', {
        json: { categories: ['Hành Động'], date: '2026-01-15', time: '19:01' },
        headers: admin,
      }),
    );
    clock.advance(120_000);
    await runScheduledJobs(t.deps);
    expect(await slugs()).toEqual(['hanh-dong-3']);

    const cli = await runCrawl(
      { db: t.deps.db, fetch: globalThis.fetch, config: t.deps.config, now: t.deps.now },
      { source: source!.url, lists: ['the-loai/hanh-dong'], force: true, trigger: 'cli' },
    );
    expect(cli.filmsNew).toBe(0);
    expect(await slugs()).toEqual(['hanh-dong-3']);

    // Restore: the film is back with its episodes, the tombstone is gone, and crawls update it again. The public
    // listing read (and kept in the response cache) while it was deleted shows it at once.
    const listed = async () =>
      (await json<{ data: { slug: string }[] }>(await t.request('/api/product/product-phimhanhdong?page=1'))).data.map((f) => f.slug);
    expect(await listed()).not.toContain('hanh-dong-1');
    const one = deleted.data.find((d) => d.slug === 'hanh-dong-1')!;
    const restored = await json<RestoreFilmResponse>(
      await t.request(`/api/admin/deleted-films/${one.id}/restore`, { method: 'POST', headers: admin }),
    );
    expect(restored).toMatchObject({ message: 'Đã khôi phục phim', slug: 'hanh-dong-1' });
    const detail = await json<FilmDetailResponse>(await t.request('/api/product/hanh-dong-1'));
    expect(detail.datafilm.linkfilms.length).toBeGreaterThan(0);
    expect(await listed()).toContain('hanh-dong-1');
    expect((await t.request(`/api/admin/deleted-films/${one.id}/restore`, { method: 'POST', headers: admin })).status).toBe(404);
    const left = await json<DeletedFilmsResponse>(await t.request('/api/admin/deleted-films', { headers: admin }));
    expect(left.data.map((d) => d.slug)).toEqual(['hanh-dong-2']);
    expect((await audit(admin, 'film.restore')).map((e) => e.target)).toEqual(['hanh-dong-1']);

    await runCrawl(
      { db: t.deps.db, fetch: globalThis.fetch, config: t.deps.config, now: t.deps.now },
      { source: source!.url, lists: ['the-loai/hanh-dong'], trigger: 'cli' },
    );
    expect(await slugs()).toEqual(['hanh-dong-1', 'hanh-dong-3']);
    const [film] = await t.deps.db.select({ description: films.description }).from(films).where(eq(films.slug, 'hanh-dong-1'));
    expect(film?.description).toContain('(mới)');
  });
});

describe('the audit log, the film editor and the catalogue', () => {
  it('shows a film edit field by field, with its author; the editor reads the whole film', async () => {
    t = await createTestApp();
    const adminUser = await signedInUser(t, { roles: 'admin' });
    const admin = bearer(adminUser.session.token);
    await json(
      await t.request('/api/admin/addphim', {
        json: { title: 'Mắt Biếc', category_id: 25, chatluong: 'HD', theloai: 'Tình Cảm' },
        headers: admin,
      }),
    );
    await json(
      await t.request('/api/product/edit_productphim', {
        json: {
          data: {
            slug: 'mat-biec',
            chatluong: 'FHD',
            descripts: 'Chuyện tình Ngạn và Hà Lan.',
            quocgia: ['Hàn Quốc', 'Nhật Bản'],
            theloai: ['Tình Cảm', 'Tâm Lý'],
            daodien: 'Victor Vũ',
            VIP1: 1,
          },
        },
        headers: admin,
      }),
    );
    const [entry] = await audit(admin, 'film.update');
    expect(entry?.actor).toEqual({ id: adminUser.id, email: adminUser.email });
    const byField = Object.fromEntries(entry!.changes.map((c) => [c.field, [c.before, c.after]]));
    expect(byField).toMatchObject({
      chatluong: ['HD', 'FHD'],
      descripts: ['', 'Chuyện tình Ngạn và Hà Lan.'],
      quocgia: ['', 'Hàn Quốc, Nhật Bản'],
      theloai: ['Tình Cảm', 'Tình Cảm, Tâm Lý'],
      daodien: ['', 'Victor Vũ'],
      VIP1: [false, true],
    });
    expect(byField).not.toHaveProperty('title');
    const film = await json<AdminFilm>(await t.request('/api/admin/film?slug=mat-biec', { headers: admin }));
    expect(film).toMatchObject({
      slug: 'mat-biec',
      chatluong: 'FHD',
      descripts: 'Chuyện tình Ngạn và Hà Lan.',
      quocgia: ['Hàn Quốc', 'Nhật Bản'],
      theloai: ['Tình Cảm', 'Tâm Lý'],
      VIP1: 1,
      createdBy: { id: adminUser.id },
      updatedBy: { id: adminUser.id },
    });
    expect((await t.request('/api/admin/film?slug=khong-co', { headers: admin })).status).toBe(404);
  });

  it('opens a film whose slug starts with product- (its title is "Product …"); listings still answer', async () => {
    t = await createTestApp();
    const admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    const added = await json<AddFilmResponse>(
      await t.request('/api/admin/addphim', { json: { title: 'Product X', category_id: 25 }, headers: admin }),
    );
    expect(added.slug).toBe('product-x');
    const detail = await json<FilmDetailResponse>(await t.request('/api/product/product-x'));
    expect(detail.datafilm.title).toBe('Product X');
    expect((await t.request('/api/product/product-phimle')).status).toBe(200);
    // A film titled like a listing gets another slug: the listing keeps its path.
    const clash = await json<AddFilmResponse>(
      await t.request('/api/admin/addphim', { json: { title: 'Product Phimle', category_id: 25 }, headers: admin }),
    );
    expect(clash.slug).toBe('product-phimle-2');
    expect((await t.request('/api/product/product-phimle-2')).status).toBe(200);
    expect((await t.request('/api/product/product-khong-co')).status).toBe(404);
  });

  it('finds users without diacritics: "nguoi ham mo" finds "Người Hâm Mộ"', async () => {
    t = await createTestApp();
    const admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    await createUser(t.deps.db, { email: 'viewer1@example.com', name: 'Người Hâm Mộ Đầu Tiên' });
    await createUser(t.deps.db, { email: 'other@example.com', name: 'Khán Giả' });
    for (const q of ['nguoi ham mo', 'NGƯỜI hâm', 'dau tien', 'viewer1']) {
      const res = await json<{ data: { username: string }[] }>(
        await t.request(`/api/getalluser?q=${encodeURIComponent(q)}`, { headers: admin }),
      );
      expect(
        res.data.map((u) => u.username),
        q,
      ).toEqual(['Người Hâm Mộ Đầu Tiên']);
    }
  });
});

describe('the footer pages', () => {
  it('serve real Vietnamese text by default; an admin edits them in settings (audited); others may not', async () => {
    t = await createTestApp();
    const admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    const user = bearer((await signedInUser(t, { permissions: 'VIP2' })).session.token);
    for (const slug of ['quy-dinh', 'dieu-khoan', 'bao-mat', 'gioi-thieu']) {
      const page = await json<SitePage>(await t.request(`/api/pages/${slug}`));
      expect(page.slug).toBe(slug);
      expect(page.body.length).toBeGreaterThan(200);
      expect(page.updatedAt).toBeNull();
    }
    expect((await t.request('/api/pages/khong-co')).status).toBe(400);
    const body = 'Điều 1. Người dùng phải tôn trọng nhau.\n\nĐiều 2. Không spam.';
    const put = (auth: Auth, json: unknown) => t.request('/api/admin/pages/quy-dinh', { method: 'PUT', json, headers: auth });
    expect((await put(user, { title: 'Quy định', body })).status).toBe(403);
    expect((await put(admin, { title: '', body })).status).toBe(400);
    const saved = await json<SitePage>(await put(admin, { title: 'Quy định chung', body }));
    expect(saved).toMatchObject({ title: 'Quy định chung', body, updatedAt: expect.any(Number) });
    expect(await json<SitePage>(await t.request('/api/pages/quy-dinh'))).toMatchObject({ title: 'Quy định chung', body });
    const list = await json<SitePagesResponse>(await t.request('/api/admin/pages', { headers: admin }));
    expect(list.data.map((p) => p.slug)).toEqual(['quy-dinh', 'dieu-khoan', 'bao-mat', 'gioi-thieu']);
    const [entry] = await audit(admin, 'page.update');
    expect(entry?.changes.map((c) => c.field).sort()).toEqual(['body', 'title']);
    const rows = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'page.update'));
    expect(rows).toHaveLength(1);
  });
});
