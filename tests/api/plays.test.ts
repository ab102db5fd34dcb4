// Plays and the Top 10 (issue 40 §3): a play counts once per device, film and Asia/Ho_Chi_Minh day after 120 s;
// page loads rank nothing; a Top 10 row shows once ten films have three viewers.
import { sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import type { FilmDetailResponse, HomeData } from '../../worker/schemas/catalogue';
import { upsertFilms } from '../../worker/services/films/film-writer';
import { dayOf } from '../../worker/services/plays/plays';
import { createTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
// 2026-11-27 23:30 in Hanoi (16:30 UTC): the day turns in 30 minutes there, not at UTC midnight.
const START = Date.UTC(2026, 10, 27, 16, 30);
let clock = START;

const device = (n: number) => `device-${String(n).padStart(12, '0')}`;
const play = (slug: string, dev: string, seconds = 130, ip = '198.51.100.7') =>
  t.request('/api/product/play', { json: { slug, device: dev, seconds }, headers: { 'x-forwarded-for': ip, 'cf-connecting-ip': ip } });
const playsOf = async (slug: string) => {
  const rows = await t.deps.db.all<{ n: number }>(
    sql`select coalesce(sum(plays), 0) as n from play_counts where film_id = (select id from films where slug = ${slug})`,
  );
  return rows[0]?.n ?? 0;
};
const home = async () => (await (await t.request('/api/product/product-home')).json()) as HomeData;

beforeEach(async () => {
  clock = START;
  t = await createTestApp({ now: () => clock, config: { PUBLIC_CACHE_SECONDS: 0 } });
  const films = (category: 24 | 25, prefix: string) =>
    Array.from({ length: 12 }, (_, i) => ({
      title: `${prefix} ${i + 1}`,
      categoryId: category,
      genreSlugs: ['hanh-dong'],
      countrySlugs: ['han-quoc'],
      sourceKey: `https://src.example:${prefix}-${i + 1}`,
    }));
  await upsertFilms(t.deps.db, [...films(24, 'Bo'), ...films(25, 'Le')]);
});

describe('POST /api/product/play', () => {
  it('100 reloads and 20 plays from one device add 1; three devices add 3', async () => {
    for (let i = 0; i < 100; i++) expect((await t.request('/api/product/update_view', { json: { title: 'bo-1' } })).status).toBe(200);
    expect(await playsOf('bo-1')).toBe(0);
    const answers = [];
    for (let i = 0; i < 20; i++)
      answers.push(((await (await play('bo-1', device(1))).json()) as { data: { counted: boolean } }).data.counted);
    expect(answers.filter(Boolean)).toHaveLength(1);
    expect(await playsOf('bo-1')).toBe(1);
    await play('bo-1', device(2));
    await play('bo-1', device(3));
    expect(await playsOf('bo-1')).toBe(3);
    // Page loads moved nothing ranked: the day's trending list leads with the played film.
    expect((await home()).phimtrending.day[0]?.slug).toBe('bo-1');
  });

  it('a 90 s play is refused and adds 0', async () => {
    const res = await play('bo-2', device(1), 90);
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^seconds:/);
    expect(await playsOf('bo-2')).toBe(0);
  });

  it('counts the same device again on the next Asia/Ho_Chi_Minh day (which begins at 17:00 UTC)', async () => {
    await play('bo-3', device(1));
    clock = START + 20 * 60_000; // 23:50 in Hanoi
    await play('bo-3', device(1));
    expect(await playsOf('bo-3')).toBe(1);
    clock = START + 40 * 60_000; // 00:10 the next day in Hanoi, still the 27th in UTC
    expect(dayOf(clock)).toBe(dayOf(START) + 1);
    await play('bo-3', device(1));
    expect(await playsOf('bo-3')).toBe(2);
  });

  it('refuses bad input by field, an unknown film with 404, and a flood with 429', async () => {
    expect((await play('khong-co', device(1))).status).toBe(404);
    expect((await t.request('/api/product/play', { json: { slug: 'bo-1', device: 'short', seconds: 200 } })).status).toBe(400);
    expect((await t.request('/api/product/play', { json: { slug: 'bo-1', seconds: 200 } })).status).toBe(400);
    const statuses = [];
    for (let i = 0; i < 31; i++) statuses.push((await play(`bo-${(i % 12) + 1}`, device(9))).status);
    expect(statuses.slice(0, 29).every((s) => s === 200 || s === 404)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('Top 10 rows', () => {
  /** Film `prefix n` gets `viewers` distinct devices today. */
  const watch = async (slug: string, viewers: number, from = 0) => {
    for (let d = 0; d < viewers; d++) expect((await play(slug, device(from + d), 130, `203.0.113.${(from + d) % 250}`)).status).toBe(200);
  };

  it('stays hidden until ten films have three viewers, then ranks them with "Mới" or the move against yesterday', async () => {
    // Yesterday (Hanoi): bo-1..bo-10 with 3..12 viewers (bo-10 first).
    clock = START - 86_400_000;
    for (let i = 1; i <= 10; i++) await watch(`bo-${i}`, i + 2, i * 20);
    clock = START;
    // Today: nine films with three viewers or more, one with two: hidden.
    for (let i = 1; i <= 9; i++) await watch(`bo-${i}`, 3 + i, i * 20);
    await watch('bo-11', 2, 500);
    expect((await home()).top10.phimbo).toEqual([]);
    // bo-11 gets its third viewer: ten films qualify.
    await watch('bo-11', 1, 600);
    const row = (await home()).top10.phimbo;
    expect(row.map((e) => [e.film.slug, e.rank])).toEqual([
      ['bo-9', 1],
      ['bo-8', 2],
      ['bo-7', 3],
      ['bo-6', 4],
      ['bo-5', 5],
      ['bo-4', 6],
      ['bo-3', 7],
      ['bo-2', 8],
      ['bo-1', 9],
      ['bo-11', 10],
    ]);
    // Yesterday bo-9 was 2nd (bo-10 first): ▲1; bo-11 was not there: Mới.
    expect(row[0]?.previous).toBe(2);
    expect(row[9]?.previous).toBeNull();
    expect((await home()).top10.phimle).toEqual([]);
    const detail = (await (await t.request('/api/product/bo-7')).json()) as FilmDetailResponse;
    expect(detail.datafilm.top10).toEqual({ rank: 3, list: 'phimbo' });
    const outside = (await (await t.request('/api/product/bo-12')).json()) as FilmDetailResponse;
    expect(outside.datafilm.top10).toBeNull();
  });
});
