// The Cron Trigger path inside workerd: scheduled() runs the shared jobs against the libSQL server, and the
// shared film writer (interactive transaction over Hrana) works from the Worker runtime.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { createClient } from '@libsql/client/web';
import { eq, inArray } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/libsql/web';
import { afterAll, describe, expect, it } from 'vitest';
import { schema } from '../../worker/db/client';
import { loadConfig } from '../../worker/config';
import { crawlRuns, crawlSchedules, films, rateLimits, refreshTokens, users, viewEvents } from '../../worker/db/schema';
import worker from '../../worker/index';
import { crawlTick } from '../../worker/services/admin/crawls';
import { upsertFilm } from '../../worker/services/films/film-writer';

const DAY = 24 * 60 * 60 * 1000;
const client = createClient({ url: env.DATABASE_URL, authToken: env.DATABASE_AUTH_TOKEN });
const db = drizzle(client, { schema });

afterAll(() => client.close());

describe('Workers entry: scheduled()', () => {
  it('runs the housekeeping job on the Cron Trigger and keeps recent data', async () => {
    const now = Date.now();
    const film = await upsertFilm(db, {
      title: 'Đất Rừng Phương Nam (cron)',
      categoryId: 24,
      episodes: [
        {
          serverName: 'Vietsub #1',
          episode: 1,
          name: 'Tập 1',
          m3u8Url: 'https://cdn.example.com/1/index.m3u8',
          embedUrl: 'https://player.example.com/1',
        },
      ],
    });
    const [user] = await db
      .insert(users)
      .values({ email: `cron-${now}@example.com`, username: 'cron' })
      .returning({ id: users.id });
    const events = await db
      .insert(viewEvents)
      .values([
        { filmId: film.id, viewedAt: now - 40 * DAY },
        { filmId: film.id, viewedAt: now - DAY },
      ])
      .returning({ id: viewEvents.id });
    await db.insert(rateLimits).values([
      { key: `cron:old:${now}`, count: 3, windowStart: now - 2 * DAY },
      { key: `cron:new:${now}`, count: 1, windowStart: now },
    ]);
    await db.insert(refreshTokens).values([
      { userId: user!.id, familyId: 'f-old', tokenHash: `cron-old-${now}`, expiresAt: now - 1000 },
      { userId: user!.id, familyId: 'f-new', tokenHash: `cron-new-${now}`, expiresAt: now + DAY },
    ]);

    const ctx = createExecutionContext();
    await worker.scheduled(createScheduledController({ scheduledTime: now, cron: '* * * * *' }), env, ctx);
    await waitOnExecutionContext(ctx);

    const keptEvents = await db
      .select({ id: viewEvents.id })
      .from(viewEvents)
      .where(
        inArray(
          viewEvents.id,
          events.map((e) => e.id),
        ),
      );
    expect(keptEvents).toEqual([events[1]]);
    const keptLimits = await db
      .select({ key: rateLimits.key })
      .from(rateLimits)
      .where(inArray(rateLimits.key, [`cron:old:${now}`, `cron:new:${now}`]));
    expect(keptLimits).toEqual([{ key: `cron:new:${now}` }]);
    const keptTokens = await db.select({ hash: refreshTokens.tokenHash }).from(refreshTokens).where(eq(refreshTokens.userId, user!.id));
    expect(keptTokens).toEqual([{ hash: `cron-new-${now}` }]);
  });

  it('serves a film written by the shared film writer from the Worker', async () => {
    const film = await upsertFilm(db, {
      title: 'Mắt Biếc (workers)',
      nameEnglish: 'Dreamy Eyes',
      categoryId: 25,
      episodes: [
        {
          serverName: 'Vietsub #1',
          episode: 1,
          name: 'Full',
          m3u8Url: 'https://cdn.example.com/mb/index.m3u8',
          embedUrl: 'https://player.example.com/mb',
        },
      ],
    });
    const ctx = createExecutionContext();
    const request = new Request(`https://phimviet.example.workers.dev/api/product/${film.slug}`) as Request<
      unknown,
      IncomingRequestCfProperties
    >;
    const res = await worker.fetch(request, env, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { datafilm: { title: string; slug: string } };
    expect(body.datafilm).toMatchObject({ title: 'Mắt Biếc (workers)', slug: film.slug });
  });

  it('crawls a due schedule over two ticks inside workerd: claimed, paused at the budget, resumed from the cursor, done', async () => {
    const stamp = Date.now();
    const origin = `https://nguon-${stamp}.example`;
    const slugs = Array.from({ length: 6 }, (_, i) => `cron-crawl-${stamp}-${i}`);
    let clock = stamp;
    const detailsFetched: string[] = [];
    // An OPhim-compatible source answered in-process (no network in workerd tests); each film detail
    // "takes" a second of the tick's clock, so a 3.5 s budget stops the first tick mid-list.
    const source: typeof fetch = async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === '/the-loai/tinh-cam') {
        const page = Number(url.searchParams.get('page') ?? 1);
        const items = slugs
          .slice((page - 1) * 4, page * 4)
          .map((slug) => ({ _id: slug, name: slug, slug, modified: { time: '2024-05-01T10:00:00.000Z' } }));
        return Response.json({
          status: true,
          items,
          pathImage: `${origin}/img/`,
          pagination: { totalItems: 6, totalItemsPerPage: 4, currentPage: page, totalPages: 2 },
        });
      }
      const slug = /^\/phim\/(.+)$/.exec(url.pathname)?.[1];
      if (slug && slugs.includes(slug)) {
        detailsFetched.push(slug);
        clock += 1_000;
        return Response.json({
          status: true,
          msg: '',
          movie: {
            _id: slug,
            slug,
            name: `Phim Tình Cảm ${slug.slice(-1)}`,
            origin_name: 'Romance',
            content: '<p>Chuyện tình.</p>',
            type: 'single',
            status: 'completed',
            thumb_url: `${slug}.jpg`,
            poster_url: `${slug}.jpg`,
            time: '100 phút',
            episode_current: 'Full',
            episode_total: '1 Tập',
            quality: 'HD',
            lang: 'Vietsub',
            year: 2024,
            actor: [],
            director: [],
            category: [{ id: 'g', name: 'Tình Cảm', slug: 'tinh-cam' }],
            country: [{ id: 'c', name: 'Hàn Quốc', slug: 'han-quoc' }],
            modified: { time: '2024-05-01T10:00:00.000Z' },
          },
          episodes: [
            {
              server_name: 'Vietsub #1',
              server_data: [{ name: 'Full', slug: 'full', filename: slug, link_embed: '', link_m3u8: `${origin}/${slug}/index.m3u8` }],
            },
          ],
        });
      }
      return Response.json({ status: false, msg: 'Not found' }, { status: 404 });
    };
    const config = {
      ...loadConfig({ APP_ENV: 'test' }),
      CRAWL_SOURCES: [origin],
      CRAWL_SOURCE: origin,
      CRAWL_DELAY_MS: 0,
      CRAWL_CONCURRENCY: 1,
    };
    const deps = { db, config, fetch: source, now: () => clock };
    const [schedule] = await db
      .insert(crawlSchedules)
      .values({ crawlDate: '2026-01-01', crawlTime: '08:00', runAt: stamp - 1_000, categories: JSON.stringify(['Tình Cảm']) })
      .returning({ id: crawlSchedules.id });
    const ours = () => db.$count(films, inArray(films.slug, slugs));

    const first = await crawlTick(deps, 3_500);
    expect(first.claimed.map((c) => c.id)).toEqual([schedule!.id]);
    expect(first.advanced.map((r) => r.outcome)).toEqual(['paused']);
    const partly = await ours();
    expect(partly).toBeGreaterThan(0);
    expect(partly).toBeLessThan(6);

    const second = await crawlTick(deps, 600_000);
    expect(second.claimed).toEqual([]);
    expect(second.advanced.map((r) => r.outcome)).toEqual(['done']);
    expect(await ours()).toBe(6);
    expect([...detailsFetched].sort()).toEqual([...slugs].sort());
    const [row] = await db.select().from(crawlSchedules).where(eq(crawlSchedules.id, schedule!.id));
    const [run] = await db.select().from(crawlRuns).where(eq(crawlRuns.id, row!.crawlRunId!));
    expect(row?.status).toBe(2);
    expect(run).toMatchObject({ status: 'done', trigger: 'schedule', filmsNew: 6, pagesDone: 2 });
  });
});
