// Intros learned from how viewers skip (issue 40 §7): reports per device, episode and server; a segment published
// when five devices' landings agree, hidden when viewers seek back after skipping it, fixed and locked by an admin
// (audited); the public read; rate limits and bad input.
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { AdminSegment, AdminSegmentsResponse, EpisodeSegments } from '../../worker/schemas/segments';
import { upsertFilms } from '../../worker/services/films/film-writer';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, signedInUser } from '../helpers/auth';

let t: TestApp;
const device = (n: number) => `device-${String(n).padStart(12, '0')}`;
const SERVER = 'Vietsub #1';
const ep = (episode: number, serverName = SERVER) => ({
  serverName,
  episode,
  name: `Tập ${episode}`,
  m3u8Url: `https://v.example/${serverName}/${episode}.m3u8`,
  embedUrl: '',
});

interface Report {
  episode?: number;
  server?: string;
  kind?: 'intro' | 'credits';
  start?: number;
  end?: number;
  before?: number;
  stepped?: boolean;
  via?: 'seek' | 'button' | 'auto';
  back?: boolean;
  duration?: number;
  slug?: string;
}
const report = (n: number, r: Report = {}, ip = '198.51.100.7') =>
  t.request('/api/segments/report', {
    json: {
      slug: r.slug ?? 'bo-1',
      episode: r.episode ?? 1,
      server: r.server ?? SERVER,
      device: device(n),
      kind: r.kind ?? 'intro',
      start: r.start ?? 31,
      end: r.end ?? 121 + (n % 4),
      duration: r.duration ?? 2700,
      ...(r.before === undefined ? {} : { before: r.before }),
      ...(r.stepped === undefined ? {} : { stepped: r.stepped }),
      ...(r.via === undefined ? {} : { via: r.via }),
      ...(r.back === undefined ? {} : { back: r.back }),
    },
    headers: { 'x-forwarded-for': ip, 'cf-connecting-ip': ip },
  });
const read = async (episode = 1, server = SERVER) => {
  const res = await t.request(`/api/segments/bo-1/tap-${episode}?server=${encodeURIComponent(server)}`);
  expect(res.status).toBe(200);
  return { body: ((await res.json()) as EpisodeSegments).data, cache: res.headers.get('cache-control') };
};

beforeEach(async () => {
  t = await createTestApp({ config: { PUBLIC_CACHE_SECONDS: 10 } });
  await upsertFilms(t.deps.db, [
    {
      title: 'Bo 1',
      categoryId: 24,
      genreSlugs: ['hanh-dong'],
      countrySlugs: ['han-quoc'],
      sourceKey: 'https://src.example:bo-1',
      episodes: [1, 2, 3, 4, 5].flatMap((n) => [ep(n), ep(n, 'Thuyết Minh #1')]),
    },
  ]);
});

describe('POST /api/segments/report and GET /api/segments/{slug}/tap-{n}', () => {
  it('publishes the intro when 5 devices land within 5 s, ending a little before their landings; 4 publish nothing', async () => {
    for (let n = 1; n <= 4; n++) expect(((await (await report(n)).json()) as { data: { counted: boolean } }).data.counted).toBe(true);
    expect((await read()).body.intro).toBeNull();
    // The same device again counts nothing.
    const again = (await (await report(1)).json()) as { data: { counted: boolean } };
    expect(again.data.counted).toBe(false);
    expect((await read()).body.intro).toBeNull();
    const fifth = (await (await report(5)).json()) as { data: { published: boolean } };
    expect(fifth.data.published).toBe(true);
    const { body, cache } = await read();
    // Landings 121, 122, 123, 124, 122: the second lowest (122) minus 2 s.
    expect(body.intro).toEqual({ start: 31, end: 120 });
    expect(cache).toMatch(/public/);
    // Per server: the other server's encode has none.
    expect((await read(1, 'Thuyết Minh #1')).body.intro).toBeNull();
  });

  it('learns the credits start from where devices leave for the next episode', async () => {
    for (let n = 1; n <= 5; n++) await report(n, { kind: 'credits', start: 2590 + n, end: 2590 + n });
    expect((await read()).body.credits).toEqual({ start: 2590 });
  });

  it('two devices suffice once three episodes of the series agree on the intro length', async () => {
    for (const episode of [1, 2, 3])
      for (let n = 1; n <= 5; n++) await report(n + episode * 10, { episode, start: 10 * episode, end: 10 * episode + 90 });
    await report(100, { episode: 4, start: 50, end: 141 });
    expect((await read(4)).body.intro).toBeNull();
    await report(101, { episode: 4, start: 52, end: 142 });
    const { body } = await read(4);
    expect(body.intro?.end).toBe(140);
    expect(body.intro?.start).toBe(52);
  });

  it('hides the intro when more than 30 % of at least 10 skips seek back right after', async () => {
    for (let n = 1; n <= 5; n++) await report(n);
    for (let n = 6; n <= 7; n++) await report(n, { via: 'button', end: 120 });
    // A tap on the button late in the intro: a short jump, still a vote.
    expect((await report(8, { via: 'button', start: 110, end: 120 })).status).toBe(200);
    expect((await read()).body.intro).not.toBeNull();
    for (let n = 9; n <= 12; n++) await report(n, { via: 'button', end: 120, back: true });
    // 4 of 12 sought back: hidden.
    expect((await read()).body.intro).toBeNull();
  });

  it('refuses bad input by field (400 JSON), an unknown film or episode (404), and a flood (429)', async () => {
    const bad: [Report & { device?: string }, string][] = [
      [{ start: 900 }, 'start'],
      [{ end: 35 }, 'end'],
      [{ end: 500 }, 'end'],
      [{ kind: 'credits', start: 100, end: 100 }, 'end'],
      [{ before: 10 }, 'before'],
      [{ duration: 30 }, 'duration'],
    ];
    for (const [r, field] of bad) {
      const res = await report(1, r);
      expect(res.status, field).toBe(400);
      const error = await errorOf(res);
      expect(error.code).toBe('invalid_input');
      expect(error.message).toMatch(new RegExp(`^${field}:`));
    }
    const noDevice = await t.request('/api/segments/report', {
      json: { slug: 'bo-1', episode: 1, server: SERVER, kind: 'intro', start: 1, end: 90, duration: 2700 },
    });
    expect((await errorOf(noDevice)).message).toMatch(/^device:/);
    expect((await report(1, { slug: 'khong-co' })).status).toBe(404);
    expect((await report(1, { episode: 9 })).status).toBe(404);
    expect((await report(1, { server: 'Không có' })).status).toBe(404);
    expect((await t.request('/api/segments/bo-1/tap-1')).status).toBe(400);
    expect((await t.request('/api/segments/khong-co/tap-1?server=x')).status).toBe(404);
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await report(50, { episode: (i % 5) + 1, end: 100 + i })).status);
    expect(statuses.slice(0, 16).every((s) => s === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
    expect((await errorOf(await report(50))).code).toBe('rate_limited');
  });
});

describe('admin: /api/admin/segments', () => {
  it('an admin sees, fixes and locks a segment (audited); reports no longer move a locked one; others are refused', async () => {
    for (let n = 1; n <= 5; n++) await report(n);
    const admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    const list = (await (await t.request('/api/admin/segments?slug=bo-1', { headers: admin })).json()) as AdminSegmentsResponse;
    expect(list.data).toEqual([
      expect.objectContaining({
        episode: 1,
        server: SERVER,
        kind: 'intro',
        start: 31,
        end: 120,
        devices: 5,
        reports: 5,
        against: 0,
        locked: false,
      }),
    ]);
    const fix = { slug: 'bo-1', episode: 1, server: SERVER, kind: 'intro', start: 30, end: 118.5, hidden: false, locked: true };
    const res = await t.request('/api/admin/segments', { method: 'PUT', json: fix, headers: admin });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { data: AdminSegment }).data).toMatchObject({ start: 30, end: 118.5, locked: true });
    expect((await read()).body.intro).toEqual({ start: 30, end: 118.5 });
    const [entry] = await t.deps.db.all<{ action: string; target: string; before: string; after: string }>(
      sql`select action, target, before, after from audit_log where action = 'segment.update'`,
    );
    expect(entry?.target).toBe(`bo-1/tap-1/${SERVER}/intro`);
    expect(JSON.parse(entry?.before ?? '{}')).toMatchObject({ end: 120, locked: false });
    expect(JSON.parse(entry?.after ?? '{}')).toMatchObject({ end: 118.5, locked: true });
    // Reports and votes against no longer move or hide it.
    for (let n = 6; n <= 20; n++) await report(n, { end: 140, via: 'button', back: true });
    expect((await read()).body.intro).toEqual({ start: 30, end: 118.5 });
    // Hidden by the admin.
    await t.request('/api/admin/segments', { method: 'PUT', json: { ...fix, hidden: true }, headers: admin });
    expect((await read()).body.intro).toBeNull();

    const bad = await t.request('/api/admin/segments', { method: 'PUT', json: { ...fix, end: 10 }, headers: admin });
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/^end:/);
    expect((await t.request('/api/admin/segments', { method: 'PUT', json: { ...fix, episode: 9 }, headers: admin })).status).toBe(404);
    const member = bearer((await signedInUser(t, { email: 'm@example.com' })).session.token);
    expect((await t.request('/api/admin/segments?slug=bo-1', { headers: member })).status).toBe(403);
    expect((await t.request('/api/admin/segments', { method: 'PUT', json: fix })).status).toBe(401);
  });
});
