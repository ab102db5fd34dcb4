import type { Db } from '../../worker/db/client';
import { upsertFilm, type EpisodeInput, type FilmInput } from '../../worker/services/films/film-writer';

const episodesOn = (
  servers: string[],
  count: number,
  link = (s: number, e: number) => `https://cdn.example.com/${s}/${e}/index.m3u8`,
): EpisodeInput[] =>
  servers.flatMap((serverName, s) =>
    Array.from({ length: count }, (_, i) => ({
      serverName,
      episode: i + 1,
      name: `Tập ${i + 1}`,
      m3u8Url: link(s, i + 1),
      embedUrl: `https://player.example.com/${s}/${i + 1}`,
    })),
  );

/** A small catalogue with the films the search and VIP tests name, plus 30 fillers for pagination. */
export const FIXTURE_FILMS: FilmInput[] = [
  {
    title: 'Đất Rừng Phương Nam',
    nameEnglish: 'Song of the South',
    categoryId: 24,
    status: 'completed',
    statusText: 'Hoàn Tất (3/3)',
    year: 2023,
    genreSlugs: ['hanh-dong', 'co-trang'],
    countrySlugs: ['quoc-gia-khac'],
    description: 'Hành trình của An.',
    episodes: episodesOn(['Vietsub #1', 'Thuyết Minh #2'], 3),
    episodeCountText: '3 Tập',
  },
  {
    title: 'Mắt Biếc',
    nameEnglish: 'Dreamy Eyes',
    categoryId: 25,
    status: 'completed',
    statusText: 'Full',
    year: 2019,
    genreSlugs: ['tinh-cam', 'tam-ly'],
    countrySlugs: ['han-quoc'],
    episodes: episodesOn(['Vietsub #1'], 1),
  },
  {
    title: 'Đất Phương Nam',
    nameEnglish: 'Southern Land',
    categoryId: 24,
    status: 'ongoing',
    statusText: 'Tập 2',
    year: 2022,
    genreSlugs: ['tam-ly'],
    countrySlugs: ['quoc-gia-khac'],
    episodes: episodesOn(['Vietsub #1'], 2),
  },
  {
    title: 'Người Vợ Cuối Cùng',
    nameEnglish: 'The Last Wife',
    categoryId: 25,
    status: 'completed',
    statusText: 'Full',
    year: 2023,
    genreSlugs: ['co-trang', 'tinh-cam'],
    countrySlugs: ['quoc-gia-khac'],
    vipOnly: true,
    episodes: episodesOn(['Vietsub #1'], 1),
  },
  {
    title: 'Thám Tử Lừng Danh Conan',
    nameEnglish: 'Detective Conan',
    categoryId: 24,
    status: 'ongoing',
    statusText: 'Tập 4',
    year: 2020,
    genreSlugs: ['hoat-hinh', 'bi-an'],
    countrySlugs: ['nhat-ban'],
    episodes: episodesOn(['Vietsub #1'], 4),
  },
  {
    title: 'Avengers: Hồi Kết',
    nameEnglish: 'Avengers: Endgame',
    categoryId: 25,
    status: 'completed',
    statusText: 'Full',
    year: 2019,
    genreSlugs: ['hanh-dong', 'vien-tuong'],
    countrySlugs: ['au-my'],
    episodes: episodesOn(['Vietsub #1'], 1),
  },
  {
    title: 'Lật Mặt 8',
    nameEnglish: 'Face Off 8',
    categoryId: 27,
    status: 'trailer',
    statusText: 'Trailer',
    year: 2026,
    genreSlugs: ['hanh-dong'],
    countrySlugs: ['quoc-gia-khac'],
    episodes: [],
  },
  ...Array.from(
    { length: 30 },
    (_, i): FilmInput => ({
      title: `Phim Bộ Thử ${i + 1}`,
      nameEnglish: `Test Series ${i + 1}`,
      categoryId: 24,
      status: 'ongoing',
      statusText: 'Tập 1',
      year: 2010 + (i % 15),
      genreSlugs: ['hanh-dong'],
      countrySlugs: ['trung-quoc'],
      episodes: episodesOn(['Vietsub #1'], 1),
    }),
  ),
];

/** Writes the fixture through the real film writer; views are set so 'sort=views' has an order. */
export async function seedCatalogue(db: Db, now = Date.now()): Promise<Map<string, { id: number; slug: string }>> {
  const bySlug = new Map<string, { id: number; slug: string }>();
  for (const [i, film] of FIXTURE_FILMS.entries()) {
    // Distinct timestamps: the first film is the most recently updated.
    const written = await upsertFilm(db, film, { now: () => now - i * 1000 });
    bySlug.set(written.slug, written);
  }
  return bySlug;
}
