// The benchmark catalogue: deterministic generated films written through the real film writer, kept in
// data/bench-<size>.db so later runs reuse it. Shared by bench/run.ts, bench/service.ts and bench/load.ts.
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openMigratedDatabase } from '../worker/db/node-client';
import { REPO_ROOT } from '../worker/node';
import { COUNTRIES, GENRES, type CategoryId } from '../worker/schemas/taxonomy';
import { upsertFilm, type FilmInput } from '../worker/services/films/film-writer';

/** Catalogues larger than this are grown from it by copying (growFrom). */
const BASE_SIZE = 20_000;

export const benchDbFile = (films: number) => resolve(REPO_ROOT, `data/bench-${films}.db`);

// Deterministic generator: the same catalogue every run.
let seed = 20_000;
const random = () => {
  seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
  return seed / 2 ** 31;
};
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
const WORDS = [
  'Đất',
  'Rừng',
  'Phương',
  'Nam',
  'Mắt',
  'Biếc',
  'Người',
  'Vợ',
  'Cuối',
  'Cùng',
  'Hồi',
  'Kết',
  'Tình',
  'Yêu',
  'Đêm',
  'Trăng',
  'Máu',
  'Bố',
  'Già',
  'Lật',
  'Mặt',
  'Gái',
  'Già',
  'Lắm',
  'Chiêu',
  'Hai',
  'Phượng',
  'Cô',
  'Ba',
  'Sài',
  'Gòn',
  'Hà',
  'Nội',
  'Mùa',
  'Hè',
  'Năm',
  'Ấy',
  'Thanh',
  'Xuân',
  'Ký',
  'Ức',
  'Đường',
  'Về',
  'Nhà',
  'Bóng',
  'Đè',
  'Quỷ',
  'Cẩu',
  'Thiên',
  'Long',
  'Bát',
  'Bộ',
];

export function generatedFilm(i: number): FilmInput {
  const title = `${Array.from({ length: 2 + Math.floor(random() * 3) }, () => pick(WORDS)).join(' ')} ${i}`;
  const categoryId = pick([24, 25, 26, 27] as CategoryId[]);
  const episodeCount = categoryId === 24 ? 4 + Math.floor(random() * 20) : 1;
  return {
    sourceKey: `bench:${i}`,
    title,
    nameEnglish: `Generated Film ${i}`,
    categoryId,
    status: pick(['ongoing', 'completed'] as const),
    statusText: categoryId === 24 ? `Tập ${episodeCount}` : 'Full',
    year: 2010 + Math.floor(random() * 17),
    genreSlugs: [pick(GENRES).slug, pick(GENRES).slug],
    countrySlugs: [pick(COUNTRIES).slug],
    description: `Bộ phim ${title} kể về những con người bình dị và những lựa chọn khó khăn trong cuộc đời.`.repeat(3),
    posterUrl: `/demo-media/posters/${i % 300}.webp`,
    episodes: Array.from({ length: episodeCount }, (_, e) => ({
      serverName: 'Vietsub #1',
      episode: e + 1,
      name: `Tập ${e + 1}`,
      m3u8Url: '/demo-media/hls/clip.m3u8',
      embedUrl: '',
    })),
  };
}

/** Writes the catalogue of `size` films on first use; returns every title (search queries come from them). */
export async function ensureCatalogue(size: number): Promise<string[]> {
  const DB_FILE = benchDbFile(size);
  if (size > BASE_SIZE && !existsSync(DB_FILE)) await growFrom(BASE_SIZE, size);
  seed = 20_000;
  mkdirSync(resolve(REPO_ROOT, 'data'), { recursive: true });
  const fresh = !existsSync(DB_FILE);
  const database = await openMigratedDatabase(`file:${DB_FILE}`);
  const titles: string[] = [];
  const started = performance.now();
  for (let i = 1; i <= size; i++) {
    const film = generatedFilm(i);
    titles.push(film.title);
    if (fresh) await upsertFilm(database.db, film);
    if (fresh && i % 10_000 === 0) console.log(`  ${i} films written (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  if (fresh) console.log(`generated ${size} films through the film writer in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  // Trending has something to rank.
  if (fresh)
    await database.client.execute(`insert into view_events (film_id, viewed_at) select id, ${Date.now()} from films where id % 7 = 0`);
  database.client.close();
  return titles;
}

/**
 * A bigger catalogue from the 20,000-film one in minutes instead of an hour: copies of its films (rows
 * the film writer wrote) with new ids, slugs, numbered titles and source keys, their genres, countries
 * and episodes; the FTS triggers index them as they are inserted. Common words then match five times
 * as many titles, which is the growth the benchmark looks at.
 */
async function growFrom(baseSize: number, size: number): Promise<void> {
  await ensureCatalogue(baseSize);
  const started = performance.now();
  const base = await openMigratedDatabase(`file:${benchDbFile(baseSize)}`);
  await base.client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  base.client.close();
  copyFileSync(benchDbFile(baseSize), `${benchDbFile(size)}.tmp`);
  const database = await openMigratedDatabase(`file:${benchDbFile(size)}.tmp`);
  const { client } = database;
  const columns = async (table: string) => (await client.execute(`PRAGMA table_info(${table})`)).rows.map((r) => String(r.name));
  const filmColumns = (await columns('films')).filter((c) => c !== 'id');
  const episodeColumns = (await columns('episodes')).filter((c) => c !== 'id');
  for (let k = 1; k * baseSize < size; k++) {
    const shift = k * baseSize;
    const n = `(id + ${shift})`;
    // Titles end in their film number (bench/catalogue.ts generatedFilm): the copy gets its own number.
    const numbered = (column: string) => `substr(${column}, 1, length(${column}) - length(cast(id as text))) || ${n}`;
    const expression: Record<string, string> = {
      slug: `slug || '-${k}'`,
      title: numbered('title'),
      title_folded: numbered('title_folded'),
      search_text: `${numbered('title_folded')} || ' generated film ' || ${n}`,
      name_english: `'Generated Film ' || ${n}`,
      source_key: `'bench:' || ${n}`,
    };
    const last = Math.min(baseSize, size - shift);
    await client.batch(
      [
        `insert into films (id, ${filmColumns.join(', ')}) select ${n}, ${filmColumns.map((c) => expression[c] ?? c).join(', ')} from films where id <= ${last}`,
        `insert into film_genres (film_id, genre_id) select film_id + ${shift}, genre_id from film_genres where film_id <= ${last}`,
        `insert into film_countries (film_id, country_id) select film_id + ${shift}, country_id from film_countries where film_id <= ${last}`,
        `insert into episodes (${episodeColumns.join(', ')}) select ${episodeColumns.map((c) => (c === 'film_id' ? `film_id + ${shift}` : c)).join(', ')} from episodes where film_id <= ${last}`,
        `insert into view_events (film_id, viewed_at) select film_id + ${shift}, viewed_at from view_events where film_id <= ${last}`,
      ],
      'write',
    );
    console.log(`  ${shift + last} films (${((performance.now() - started) / 1000).toFixed(0)} s)`);
  }
  await client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  client.close();
  renameSync(`${benchDbFile(size)}.tmp`, benchDbFile(size));
  for (const suffix of ['-wal', '-shm']) rmSync(`${benchDbFile(size)}.tmp${suffix}`, { force: true });
}

/** `tsx bench/catalogue.ts 100000`: write a catalogue ahead of a benchmark run. */
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await ensureCatalogue(Number(process.argv[2] ?? 20_000));
}

/**
 * The home's heavy variant: a copy of the `size` catalogue with `views` more view events over the last 30
 * days (deterministic, skewed towards popular films), kept in data/bench-<size>-views.db; returns the file.
 */
export async function ensureHeavyViews(size: number, views: number): Promise<string> {
  const file = resolve(REPO_ROOT, `data/bench-${size}-views.db`);
  if (existsSync(file)) return file;
  const started = performance.now();
  const base = await openMigratedDatabase(`file:${benchDbFile(size)}`);
  await base.client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  base.client.close();
  copyFileSync(benchDbFile(size), `${file}.tmp`);
  const database = await openMigratedDatabase(`file:${file}.tmp`);
  const minutes = 30 * 24 * 60;
  // Film ids as the product of two spread values: low ids come up far more often, as popular films do.
  await database.client.execute(
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${views})
     insert into view_events (film_id, viewed_at)
     select 1 + ((i * 2654435761) % ${size}) * ((i * 40503) % ${size}) / ${size}, ${Date.now()} - ((i * 7727) % ${minutes}) * 60000 from n`,
  );
  await database.client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  database.client.close();
  renameSync(`${file}.tmp`, file);
  for (const suffix of ['-wal', '-shm']) rmSync(`${file}.tmp${suffix}`, { force: true });
  console.log(
    `added ${views} view events to a copy of the ${size}-film catalogue in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  return file;
}
