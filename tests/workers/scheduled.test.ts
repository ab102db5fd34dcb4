// The Cron Trigger path inside workerd: scheduled() runs the shared jobs against the libSQL server, and the
// shared film writer (interactive transaction over Hrana) works from the Worker runtime.
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { createClient } from '@libsql/client/web';
import { eq, inArray } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/libsql/web';
import { afterAll, describe, expect, it } from 'vitest';
import { schema } from '../../worker/db/client';
import { rateLimits, refreshTokens, users, viewEvents } from '../../worker/db/schema';
import worker from '../../worker/index';
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
});
