// Issue 32: films already duplicated are merged once ("Gộp phim"): everything moves to the kept film (episodes with
// their sources, comments with their threads, ratings — one per member, the latest —, the list, progress and
// history, views, error reports), the old slug answers 301 (the API and the pages), writes under it land on the kept
// film, and the audit entry's "Hoàn tác" puts both films back.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  auditLog,
  comments,
  filmAliases,
  films,
  mergeSuggestions,
  ratings,
  viewEvents,
  watchlist,
  watchProgress,
} from '../../worker/db/schema';
import { createNodeRoot } from '../../worker/node';
import type { FilmDetailResponse } from '../../worker/schemas/catalogue';
import type { MergeSuggestionsResponse } from '../../worker/schemas/sources';
import { runCrawl } from '../../worker/services/crawler/index';
import type { SsrEntry } from '../../worker/ssr/render';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, signedInUser } from '../helpers/auth';
import { ophimFilm, type Standin, startOphimStandin } from '../helpers/ophim-standin';
import { buildSsrEntry } from '../helpers/ssr-build';

let t: TestApp;
let first: Standin;
let second: Standin;
let load: () => Promise<SsrEntry>;
let web: string;
/** The live rooms the API pushed to (their URLs): a comment goes to the room of the film it landed on. */
const roomPushes: string[] = [];
const SHELL = `<!doctype html><html lang="vi"><head><script src="/assets/boot-abc.js" async></script><meta charset="UTF-8" /><title>PhimViet</title></head><body><div id="root"><div class="app-spinner" role="status"></div></div><!--/app--><script type="module" src="/assets/index-abc.js"></script></body></html>`;

beforeAll(async () => {
  // The same film, uploaded twice before this issue: festival and release years apart, no ids (nothing joins them).
  first = await startOphimStandin({ dialect: 'legacy' });
  second = await startOphimStandin({ dialect: 'kkphim' });
  first.films.push(
    ophimFilm(
      { slug: 'ngoi-truong-xac-song', name: 'Ngôi Trường Xác Sống', origin_name: 'All of Us Are Dead', year: 2021 },
      { episodeCount: 3 },
    ),
  );
  second.films.push(
    ophimFilm(
      { slug: 'ngoi-truong-xac-song', name: 'Ngôi Trường Xác Sống', origin_name: 'All of Us Are Dead', year: 2022 },
      { episodeCount: 4, servers: ['Vietsub #1'] },
    ),
  );
  t = await createTestApp({
    fetch: async (input, init) => {
      const url = input instanceof Request ? input.url : String(input);
      if (!url.includes('/parties/')) return globalThis.fetch(input, init);
      roomPushes.push(url);
      return new Response('{}', { status: 200 });
    },
    config: { CRAWL_SOURCES: [first.origin, second.origin], CRAWL_SOURCE: `${first.url},${second.url}`, CRAWL_DELAY_MS: 0 },
  });
  for (const source of [first, second])
    await runCrawl(
      { db: t.deps.db, fetch: globalThis.fetch, config: t.deps.config, now: t.deps.now },
      { source: source.url, trigger: 'cli' },
    );
  web = mkdtempSync(join(tmpdir(), 'web-dist-'));
  mkdirSync(join(web, 'assets'));
  writeFileSync(join(web, 'index.html'), SHELL);
  ({ load } = await buildSsrEntry());
}, 120_000);

afterAll(async () => {
  await first?.close();
  await second?.close();
});

async function json<T>(res: Response | Promise<Response>): Promise<T> {
  const r = await res;
  expect(r.status, await r.clone().text()).toBeLessThan(300);
  return (await r.json()) as T;
}

describe('Gộp phim', () => {
  it('moves everything to the kept film, answers 301 from the old slug, and comes undone from the audit log', async () => {
    expect((await t.deps.db.select({ slug: films.slug }).from(films)).map((f) => f.slug).sort()).toEqual([
      'ngoi-truong-xac-song',
      'ngoi-truong-xac-song-2',
    ]);
    const admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    const lan = await signedInUser(t);
    const minh = await signedInUser(t);
    const asLan = bearer(lan.session.token);
    const asMinh = bearer(minh.session.token);
    const [KEEP, DROP] = ['ngoi-truong-xac-song', 'ngoi-truong-xac-song-2'];

    // Both films have a life: a thread, ratings (Lan rated both: the later one counts), lists, progress, views, a report.
    const top = await json<{ id: number }>(
      t.request('/api/product/comment', { json: { titlefilm: DROP, contentcomment: 'Phim hay!' }, headers: asLan }),
    );
    await json(
      t.request('/api/product/comment', { json: { titlefilm: DROP, contentcomment: 'Đồng ý', parent_id: top.id }, headers: asMinh }),
    );
    await json(t.request('/api/product/comment', { json: { titlefilm: KEEP, contentcomment: 'Bản này rõ hơn' }, headers: asMinh }));
    await json(t.request('/api/product/rating_star', { json: { titlefilm: KEEP, starselect: 2 }, headers: asLan }));
    t.advance(1000);
    await json(t.request('/api/product/rating_star', { json: { titlefilm: DROP, starselect: 5 }, headers: asLan }));
    await json(t.request('/api/product/rating_star', { json: { titlefilm: DROP, starselect: 4 }, headers: asMinh }));
    await json(t.request(`/api/me/watchlist/${KEEP}`, { method: 'PUT', json: { notify: false }, headers: asLan }));
    await json(t.request(`/api/me/watchlist/${DROP}`, { method: 'PUT', json: { notify: true }, headers: asLan }));
    await json(t.request(`/api/me/watchlist/${DROP}`, { method: 'PUT', json: {}, headers: asMinh }));
    const now = t.deps.now();
    await json(
      t.request('/api/me/progress', {
        method: 'PUT',
        json: {
          items: [
            { slug: KEEP, episode: 1, position: 100, duration: 2700, updatedAt: now - 60_000 },
            { slug: DROP, episode: 1, position: 900, duration: 2700, updatedAt: now - 1000 },
            { slug: DROP, episode: 4, position: 30, duration: 2700, updatedAt: now - 2000 },
          ],
        },
        headers: asLan,
      }),
    );
    for (let i = 0; i < 3; i++) await json(t.request('/api/product/update_view', { json: { title: DROP } }));
    await json(t.request('/api/product/update_view', { json: { title: KEEP } }));
    await json(t.request('/api/product/report_error', { json: { slug: DROP, episode: 2, reason: 'khong-phat-duoc' } }));
    const [keepRow] = await t.deps.db.select().from(films).where(eq(films.slug, KEEP));
    const [dropRow] = await t.deps.db.select().from(films).where(eq(films.slug, DROP));

    // The merge, as an admin picks the two films.
    expect((await t.request('/api/admin/merges', { json: { keep: KEEP, drop: KEEP }, headers: admin })).status).toBe(400);
    expect((await t.request('/api/admin/merges', { json: { keep: KEEP, drop: 'khong-co' }, headers: admin })).status).toBe(404);
    expect((await t.request('/api/admin/merges', { json: { keep: KEEP, drop: DROP }, headers: asLan })).status).toBe(403);
    const merged = await json<{ slug: string; auditId: number }>(
      t.request('/api/admin/merges', { json: { keep: KEEP, drop: DROP }, headers: admin }),
    );
    expect(merged.slug).toBe(KEEP);

    // The old slug answers 301 to the kept film: the API read…
    const moved = await t.request(`/api/product/${DROP}`);
    expect(moved.status).toBe(301);
    expect(moved.headers.get('location')).toBe(`/api/product/${KEEP}`);
    // …and the pages (the host renders the redirect: links, bookmarks and search engines follow).
    const root = createNodeRoot(t.deps, undefined, web, load);
    const page = await root.request(`/${DROP}?ref=tin-nhan`);
    expect(page.status).toBe(301);
    expect(page.headers.get('location')).toBe(`/${KEEP}?ref=tin-nhan`);
    const watch = await root.request(`/xem-phim/${DROP}/tap-2?server=Vietsub%20%231%20%C2%B7%20KKPhim`);
    expect(watch.status).toBe(301);
    expect(watch.headers.get('location')).toBe(`/xem-phim/${KEEP}/tap-2?server=Vietsub%20%231%20%C2%B7%20KKPhim`);
    expect((await root.request(`/${KEEP}`)).status).toBe(200);

    const detail = await json<FilmDetailResponse>(t.request(`/api/product/${KEEP}`));
    // Both sources' servers, the episodes of both ('Vietsub #1' of each: labelled apart).
    expect(detail.datafilm.servers.map((s) => [s.server_name, s.linkfilms.length])).toEqual([
      ['Vietsub #1 · OPhim', 3],
      ['Thuyết Minh #2 · OPhim', 3],
      ['Vietsub #1 · KKPhim', 4],
    ]);
    expect(detail.datafilm.aliases).toEqual([DROP]);
    // The thread, whole.
    const thread = detail.comments.find((c) => c.id === top.id)!;
    expect(thread).toBeDefined();
    expect(detail.comments).toHaveLength(3);
    expect(JSON.stringify(detail.comments)).toContain('Đồng ý');
    // One rating per member, Lan's latest (5): 5 and 4.
    expect(detail.general_assessment).toEqual({ totalRatings: 2, averageRating: 4.5 });
    // Views: 3 + 1 (and the dashboard's events with them).
    expect(detail.datafilm.views).toBe(4);
    expect(await t.deps.db.$count(viewEvents, eq(viewEvents.filmId, keepRow!.id))).toBe(4);
    // Lists: one entry each; progress: the newer of two, and the other episodes.
    expect(
      (await t.deps.db.select().from(watchlist).where(eq(watchlist.filmId, keepRow!.id))).map((w) => [w.userId, w.notify]).sort(),
    ).toEqual([
      [lan.id, true],
      [minh.id, true],
    ]);
    const progress = await json<{ data: { episode: number; position: number }[] }>(
      t.request(`/api/me/progress?slug=${KEEP}`, { headers: asLan }),
    );
    expect(progress.data.map((p) => [p.episode, p.position]).sort()).toEqual([
      [1, 900],
      [4, 30],
    ]);
    // Progress an outbox or a downloaded episode sends under the old slug reaches the kept film, as does a comment.
    await json(
      t.request('/api/me/progress', {
        method: 'PUT',
        json: { items: [{ slug: DROP, episode: 3, position: 60, duration: 2700, updatedAt: t.deps.now() }] },
        headers: asLan,
      }),
    );
    roomPushes.length = 0;
    await json(t.request('/api/product/comment', { json: { titlefilm: DROP, contentcomment: 'Vẫn gửi được' }, headers: asMinh }));
    await t.background();
    // …and is shown live in the kept film's room, where its pages are, not the old slug's.
    expect(roomPushes).toEqual([expect.stringMatching(new RegExp(`/parties/comments/${KEEP}$`))]);
    expect(await t.deps.db.$count(watchProgress, eq(watchProgress.filmId, keepRow!.id))).toBe(3);
    expect(await t.deps.db.$count(comments, eq(comments.filmId, keepRow!.id))).toBe(4);
    // The sitemap names the kept slug only; the old one is taken for good (no new film takes it).
    const sitemap = await (await t.request('/sitemaps/films-1.xml')).text();
    expect(sitemap).toContain(`/${KEEP}</loc>`);
    expect(sitemap).not.toContain(`/${DROP}</loc>`);
    expect(await t.deps.db.select().from(filmAliases)).toMatchObject([{ slug: DROP, filmId: keepRow!.id }]);
    // A re-crawl of both sources updates the one film.
    for (const source of [first, second]) {
      const again = await runCrawl(
        { db: t.deps.db, fetch: globalThis.fetch, config: t.deps.config, now: t.deps.now },
        { source: source.url, trigger: 'cli', force: true },
      );
      expect(again).toMatchObject({ filmsNew: 0, filmsUpdated: 1 });
    }
    expect(await t.deps.db.$count(films)).toBe(1);

    // Audited, with its undo: both films back as they were (what was added to the kept film since stays there).
    const [entry] = await t.deps.db.select().from(auditLog).where(eq(auditLog.action, 'film.merge'));
    expect(entry!.id).toBe(merged.auditId);
    await json(t.request(`/api/admin/audit/${merged.auditId}/undo`, { method: 'POST', headers: admin }));
    expect((await t.request(`/api/product/${DROP}`)).status).toBe(200);
    const [back] = await t.deps.db.select().from(films).where(eq(films.slug, DROP));
    expect(back).toMatchObject({ id: dropRow!.id, views: 3 });
    const keepAgain = await json<FilmDetailResponse>(t.request(`/api/product/${KEEP}`));
    const dropAgain = await json<FilmDetailResponse>(t.request(`/api/product/${DROP}`));
    expect(keepAgain.datafilm.servers.map((s) => s.server_name)).toEqual(['Vietsub #1 · OPhim', 'Thuyết Minh #2 · OPhim']);
    expect(dropAgain.datafilm.servers.map((s) => s.server_name)).toEqual(['Vietsub #1 · KKPhim']);
    expect(keepAgain.datafilm.aliases).toBeUndefined();
    expect(keepAgain.datafilm.views).toBe(1);
    expect(dropAgain.comments.map((c) => c.id).sort()).toEqual(
      (await t.deps.db.select({ id: comments.id }).from(comments).where(eq(comments.filmId, dropRow!.id))).map((c) => c.id).sort(),
    );
    expect(dropAgain.comments).toHaveLength(2);
    // Lan's two ratings are back where she gave them.
    expect((await t.deps.db.select().from(ratings).where(eq(ratings.userId, lan.id))).map((r) => [r.filmId, r.stars]).sort()).toEqual(
      [
        [keepRow!.id, 2],
        [dropRow!.id, 5],
      ].sort(),
    );
    expect(dropAgain.general_assessment.totalRatings).toBe(2);
    expect(await t.deps.db.$count(watchlist, eq(watchlist.filmId, dropRow!.id))).toBe(2);
    expect(await t.deps.db.$count(viewEvents, eq(viewEvents.filmId, dropRow!.id))).toBe(3);
    expect(await t.deps.db.$count(filmAliases)).toBe(0);
    // Undone once.
    expect((await t.request(`/api/admin/audit/${merged.auditId}/undo`, { method: 'POST', headers: admin })).status).toBe(409);
  });

  it('offers duplicates found among the films already there, and merges a suggested pair', async () => {
    const admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    // The two films get the same TMDB id (what the next crawl of sources that give it would store).
    await t.deps.db.update(films).set({ tmdbType: 'tv', tmdbId: '99966', tmdbSeason: 1 });
    const scan = await json<{ found: number }>(t.request('/api/admin/merge-suggestions/scan', { method: 'POST', headers: admin }));
    expect(scan.found).toBe(1);
    const list = await json<MergeSuggestionsResponse>(t.request('/api/admin/merge-suggestions', { headers: admin }));
    expect(list.data).toHaveLength(1);
    const [pair] = list.data;
    expect(pair!.reason).toMatch(/TMDB tv 99966 mùa 1/);
    // The older film is offered as the one to keep.
    expect([pair!.keep.slug, pair!.drop.slug]).toEqual(['ngoi-truong-xac-song', 'ngoi-truong-xac-song-2']);
    expect(pair!.drop.sources).toEqual(['KKPhim']);
    await json(t.request('/api/admin/merges', { json: { keep: pair!.keep.slug, drop: pair!.drop.slug }, headers: admin }));
    expect(await t.deps.db.$count(mergeSuggestions)).toBe(0);
    expect(await t.deps.db.$count(films)).toBe(1);
    // A pair an admin says are two films is never offered again.
    expect((await t.request('/api/admin/merge-suggestions/999/dismiss', { method: 'POST', headers: admin })).status).toBe(404);
  });
});
