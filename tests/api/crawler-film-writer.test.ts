import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { Db } from '../../worker/db/client';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { episodes, filmGenres, films } from '../../worker/db/schema';
import { FilmWriteError, upsertFilm, type FilmInput } from '../../worker/services/films/film-writer';

const base = (over: Partial<FilmInput> = {}): FilmInput => ({ title: 'Đất Rừng Phương Nam', categoryId: 25, ...over });

async function fresh() {
  const { db, client } = await openMigratedDatabase(':memory:');
  return { db, client };
}

async function ftsMatch(db: Db, query: string): Promise<string[]> {
  const rows = await db.all<{ slug: string }>(
    sql`SELECT films.slug FROM films_fts JOIN films ON films.id = films_fts.rowid WHERE films_fts MATCH ${`"${query}"`} ORDER BY films.slug`,
  );
  return rows.map((r) => r.slug);
}

describe('upsertFilm', () => {
  it('folds title and English name for diacritic-insensitive search (đ → d) and keeps the FTS index in sync', async () => {
    const { db } = await fresh();
    const { id, slug, created } = await upsertFilm(
      db,
      base({ nameEnglish: 'Song of the South', genreSlugs: ['phieu-luu', 'gia-dinh'], countrySlugs: ['quoc-gia-khac'] }),
    );
    expect(created).toBe(true);
    expect(slug).toBe('dat-rung-phuong-nam');
    const [row] = await db.select().from(films).where(eq(films.id, id));
    expect(row).toMatchObject({
      titleFolded: 'dat rung phuong nam',
      searchText: 'dat rung phuong nam song of the south',
      genreNames: 'Phiêu Lưu, Gia Đình',
      countryNames: 'Quốc Gia Khác',
    });
    expect(await ftsMatch(db, 'dat rung')).toEqual(['dat-rung-phuong-nam']);
    expect(await ftsMatch(db, 'the south')).toEqual(['dat-rung-phuong-nam']);

    await upsertFilm(db, base({ id, title: 'Mắt Biếc', nameEnglish: 'Dreamy Eyes' }));
    expect(await ftsMatch(db, 'dat rung')).toEqual([]);
    expect(await ftsMatch(db, 'mat biec')).toEqual(['dat-rung-phuong-nam']);
    const [renamed] = await db.select().from(films).where(eq(films.id, id));
    // The slug stays: links and comment rooms are keyed by it.
    expect(renamed).toMatchObject({ slug: 'dat-rung-phuong-nam', titleFolded: 'mat biec', genreNames: 'Phiêu Lưu, Gia Đình' });
  });

  it('gives a colliding title from another source the next free suffix, and never a reserved route name', async () => {
    const { db } = await fresh();
    const a = await upsertFilm(db, base({ title: 'Mắt Biếc', sourceKey: 'https://a.example:1' }));
    const b = await upsertFilm(db, base({ title: 'Mắt Biếc', sourceKey: 'https://b.example:1' }));
    const c = await upsertFilm(db, base({ title: 'Mắt biếc!', sourceKey: 'https://c.example:1' }));
    expect([a.slug, b.slug, c.slug]).toEqual(['mat-biec', 'mat-biec-2', 'mat-biec-3']);
    // The same source key again is the same film, not a fourth.
    const again = await upsertFilm(db, base({ title: 'Mắt Biếc', sourceKey: 'https://b.example:1' }));
    expect(again).toEqual({ id: b.id, slug: 'mat-biec-2', created: false, addedEpisodes: [] });

    for (const title of ['Anh', 'Phim Bộ', 'Admin', 'Tìm Kiếm', 'Hàn Quốc']) {
      const { slug } = await upsertFilm(db, base({ title }));
      expect(slug).toMatch(/-2$/);
    }
    expect((await upsertFilm(db, base({ title: '!!!' }))).slug).toBe('phim');
    expect((await upsertFilm(db, base({ title: 'Ký tự', slug: 'nguon-goc-khac' }))).slug).toBe('nguon-goc-khac');
  });

  it('replaces links and episodes on update instead of adding to them', async () => {
    const { db } = await fresh();
    const ep = (serverName: string, episode: number) => ({
      serverName,
      episode,
      name: `Tập ${episode}`,
      m3u8Url: `https://cdn.example/${episode}.m3u8`,
      embedUrl: '',
    });
    const { id } = await upsertFilm(
      db,
      base({
        sourceKey: 's:1',
        genreSlugs: ['hanh-dong', 'vo-thuat'],
        episodes: [ep('Vietsub #1', 1), ep('Vietsub #1', 2), ep('Thuyết Minh #2', 1)],
      }),
    );
    await upsertFilm(db, base({ sourceKey: 's:1', genreSlugs: ['tinh-cam'], episodes: [ep('Vietsub #1', 1)] }));
    expect(await db.$count(episodes, eq(episodes.filmId, id))).toBe(1);
    expect(await db.$count(filmGenres, eq(filmGenres.filmId, id))).toBe(1);
    // Omitted lists are left alone (an admin edit of the text fields only).
    await upsertFilm(db, base({ id, title: 'Tên Mới' }));
    expect(await db.$count(episodes, eq(episodes.filmId, id))).toBe(1);
    const [row] = await db.select({ genreNames: films.genreNames }).from(films).where(eq(films.id, id));
    expect(row!.genreNames).toBe('Tình Cảm');
  });

  it('writes nothing when any part fails (one transaction)', async () => {
    const { db } = await fresh();
    await expect(upsertFilm(db, base({ genreSlugs: ['hanh-dong', 'khong-co'] }))).rejects.toThrow(FilmWriteError);
    const dup = { serverName: 'Vietsub #1', episode: 1, name: '1', m3u8Url: '', embedUrl: 'https://p.example/1' };
    await expect(upsertFilm(db, base({ episodes: [dup, dup] }))).rejects.toThrow(/duplicated/);
    await expect(upsertFilm(db, base({ title: '   ' }))).rejects.toThrow(/title/);
    expect(await db.$count(films)).toBe(0);
    expect(await db.$count(episodes)).toBe(0);
  });
});
