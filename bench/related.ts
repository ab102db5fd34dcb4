// `npm run bench -- related`: "Phim tương tự" (issue 40 §4, docs/decisions/1090).
// 1. Hit rate: a seeded synthetic history set with 8 clusters of taste (each device watches mostly inside its
//    cluster, which spans genres). For each held-out "next film watched", is it in the top 8 of the new related list
//    of the film watched before it, against today's list (the 8 most viewed films of the film's first genre)?
//    Goal: at least 2× as often.
// 2. The film API at 20,000 films (bench/catalogue.ts), in-process, read caches off: GET /api/product/{slug} with the
//    related list (after) against the same request whose batch carries today's genre statement instead (before,
//    replayed on the same client), median of CPU-timed runs. Goal: within 1 ms. Printed with the load average.
import { loadavg } from 'node:os';
import { sql } from 'drizzle-orm';
import { loadConfig } from '../worker/config';
import { openMigratedDatabase } from '../worker/db/node-client';
import { createApp } from '../worker/app';
import type { Db } from '../worker/db/client';
import { upsertFilms } from '../worker/services/films/film-writer';
import { dayOf } from '../worker/services/plays/plays';
import { refreshRelated } from '../worker/services/related/related';
import { GENRES } from '../worker/schemas/taxonomy';
import { benchDbFile, ensureCatalogue } from './catalogue';

const CLUSTERS = 8;
const FILMS_PER_CLUSTER = 40;
const DEVICES = 1_200;
const WATCHED = 6;
const IN_CLUSTER = 0.85;
const RUNS = Number(process.env.BENCH_RUNS ?? 300);

let state = 42;
const random = () => {
  state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
  return state / 2_147_483_648;
};
const pick = <T>(xs: readonly T[]) => xs[Math.floor(random() * xs.length)]!;
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const cpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Today's list: the 8 most viewed films of the film's first genre, the film excluded (the code this replaces). */
const oldList = (db: Db, filmId: number) =>
  db.all<{ id: number }>(sql`select f.id from films f where exists (select 1 from film_genres g where g.film_id = f.id and g.genre_id =
    (select min(genre_id) from film_genres where film_id = ${filmId})) and f.id != ${filmId} order by f.views desc, f.id desc limit 8`);

async function hitRate() {
  const { db, client } = await openMigratedDatabase(':memory:');
  const genres = GENRES.slice(0, 16).map((g) => g.slug);
  const countries = ['han-quoc', 'trung-quoc', 'au-my', 'nhat-ban'];
  // Each cluster leans to two genres but its films carry others too: taste is not a genre.
  const inputs = [];
  for (let c = 0; c < CLUSTERS; c++)
    for (let i = 0; i < FILMS_PER_CLUSTER; i++) {
      const lean = [genres[(2 * c) % genres.length]!, genres[(2 * c + 1) % genres.length]!];
      const own = random() < 0.5 ? [pick(lean)] : [pick(genres)];
      inputs.push({
        title: `Phim ${c}-${i}`,
        slug: `phim-${c}-${i}`,
        nameEnglish: `Film ${c}-${i}`,
        categoryId: (random() < 0.5 ? 24 : 25) as 24 | 25,
        genreSlugs: [...new Set([pick(genres), ...own])],
        countrySlugs: [pick(countries)],
        year: 2010 + Math.floor(random() * 15),
        sourceKey: `https://bench.example:${c}-${i}`,
      });
    }
  await upsertFilms(db, inputs);
  const ids = (await db.all<{ id: number; slug: string }>(sql`select id, slug from films`)).reduce(
    (m, r) => m.set(r.slug, r.id),
    new Map<string, number>(),
  );
  const clusterFilms = Array.from({ length: CLUSTERS }, (_, c) =>
    Array.from({ length: FILMS_PER_CLUSTER }, (_, i) => ids.get(`phim-${c}-${i}`)!),
  );
  const all = [...ids.values()];
  // Popularity inside a cluster is skewed (a few hits), as real viewing is.
  const skewed = (films: number[]) => films[Math.floor(random() ** 2 * films.length)]!;
  const now = Date.UTC(2026, 10, 28);
  const today = dayOf(now);
  const held: { before: number; next: number }[] = [];
  const rows: string[] = [];
  for (let d = 0; d < DEVICES; d++) {
    const c = d % CLUSTERS;
    const seen: number[] = [];
    while (seen.length < WATCHED) {
      const f = random() < IN_CLUSTER ? skewed(clusterFilms[c]!) : pick(all);
      if (!seen.includes(f)) seen.push(f);
    }
    const testDevice = d % 4 === 0;
    const kept = testDevice ? seen.slice(0, -1) : seen;
    if (testDevice) held.push({ before: seen[seen.length - 2]!, next: seen[seen.length - 1]! });
    for (const [i, f] of kept.entries()) rows.push(`(${today - 60 + i}, ${f}, 'dev-${d}', ${now})`);
  }
  for (let i = 0; i < rows.length; i += 500)
    await client.execute(`insert into plays (day, film_id, device, played_at) values ${rows.slice(i, i + 500).join(',')}`);
  // Today's list ranks by views: give it the plays as views (its best case).
  await client.execute('update films set views = (select count(*) from plays where plays.film_id = films.id)');
  while ((await refreshRelated(db, now, { limit: 1000, budgetMs: 600_000 })) > 0);
  let oldHits = 0;
  let newHits = 0;
  for (const { before, next } of held) {
    if ((await oldList(db, before)).some((r) => r.id === next)) oldHits++;
    const fresh = await db.all<{ id: number }>(sql`select related_id as id from film_related where film_id = ${before} order by rank`);
    if (fresh.some((r) => r.id === next)) newHits++;
  }
  client.close();
  const pct = (n: number) => `${((100 * n) / held.length).toFixed(1)} %`;
  console.log(
    `hit rate @8, ${held.length} held-out next films (${CLUSTERS} clusters, ${CLUSTERS * FILMS_PER_CLUSTER} films, ${DEVICES} devices):`,
  );
  console.log(`  today's list (most viewed of the first genre): ${oldHits} = ${pct(oldHits)}`);
  console.log(
    `  Phim tương tự:                                 ${newHits} = ${pct(newHits)}  (${(newHits / Math.max(1, oldHits)).toFixed(2)}×, goal ≥ 2×)`,
  );
  console.log(`  load average ${load()}`);
}

async function filmApi(size: number) {
  await ensureCatalogue(size);
  const database = await openMigratedDatabase(`file:${benchDbFile(size)}`);
  const { db, client } = database;
  const slugs = (await client.execute(`select id, slug from films where id % ${Math.floor(size / 200)} = 0 limit 200`)).rows.map((r) => ({
    id: Number(r.id),
    slug: String(r.slug),
  }));
  // The lists of those films, as the scheduled job keeps them.
  const started = performance.now();
  for (const { id } of slugs) {
    const { computeRelated, writeRelated } = await import('../worker/services/related/related');
    await writeRelated(db, id, await computeRelated(db, id, Date.now()), Date.now());
  }
  const perFilm = (performance.now() - started) / slugs.length;
  const config = loadConfig({ APP_ENV: 'test', PUBLIC_CACHE_SECONDS: '0' });
  const app = createApp({ db, config, now: Date.now, fetch: globalThis.fetch });
  const time = async (f: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = cpuMs();
      await f();
      samples.push(cpuMs() - t0);
    }
    return median(samples);
  };
  let i = 0;
  const next = () => slugs[i++ % slugs.length]!;
  // Floor: the same client answering a one-row read.
  const floor = await time(() => client.execute({ sql: 'select id from films where slug = ?', args: [next().slug] }));
  const after = await time(async () => (await app.request(`/api/product/${next().slug}`)).arrayBuffer());
  // Before: the same request plus the cost difference of today's statement over the new one, both run directly.
  const oldStatement = await time(() => oldList(db, next().id));
  const newStatement = await time(() =>
    db.all(sql`select f.id from film_related r join films f on f.id = r.related_id where r.film_id = ${next().id} order by r.rank`),
  );
  client.close();
  console.log(`film API at ${size} films, in-process CPU ms (median of ${RUNS}), read caches off:`);
  console.log(`  floor (one-row read):                 ${floor.toFixed(3)}`);
  console.log(`  GET /api/product/{slug} after:        ${after.toFixed(3)}`);
  console.log(`  today's genre statement alone:        ${oldStatement.toFixed(3)}`);
  console.log(`  the related list's statement alone:   ${newStatement.toFixed(3)}`);
  console.log(
    `  before ≈ after − related + genre:     ${(after - newStatement + oldStatement).toFixed(3)}  (after − before ${(newStatement - oldStatement).toFixed(3)} ms, goal ≤ +1 ms)`,
  );
  console.log(`  the job's cost per film (computeRelated + write): ${perFilm.toFixed(1)} ms wall`);
  console.log(`  load average ${load()}`);
}

console.log(`load average at start ${load()}`);
/** BENCH_ONLY=hits or BENCH_ONLY=api: one part. */
const only = process.env.BENCH_ONLY;
if (only !== 'api') await hitRate();
if (only !== 'hits') await filmApi(Number(process.env.BENCH_FILMS ?? 20_000));
