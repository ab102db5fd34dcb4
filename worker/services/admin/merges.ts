// "Gộp phim" (admin): pairs of films that may be one — a crawl's doubt, or duplicates found among the films already
// there — and the merge of a pair or of two films an admin picks (services/films/film-merge.ts does the merge and
// its undo). Issue 32; docs/decisions/0104-one-film-every-source.md.
import { and, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { comments, episodes, films, filmSources, mergeSuggestions, sources } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { MERGE_TEXTS, type MergeFilmDto, type MergeSuggestionsResponse } from '../../schemas/sources';
import { contradiction, type FilmIdentity } from '../films/film-identity';
import { type Actor, auditInsert } from './audit';

async function filmDtos(db: Db, ids: readonly number[]): Promise<Map<number, MergeFilmDto>> {
  if (!ids.length) return new Map();
  const [rows, sourceRows, episodeRows, commentRows] = await Promise.all([
    db
      .select()
      .from(films)
      .where(inArray(films.id, [...ids])),
    db
      .select({ filmId: filmSources.filmId, name: sources.name })
      .from(filmSources)
      .leftJoin(sources, eq(sources.id, filmSources.sourceId))
      .where(inArray(filmSources.filmId, [...ids])),
    db
      .select({ filmId: episodes.filmId, n: sql<number>`count(distinct ${episodes.episode})` })
      .from(episodes)
      .where(inArray(episodes.filmId, [...ids]))
      .groupBy(episodes.filmId),
    db
      .select({ filmId: comments.filmId, n: sql<number>`count(*)` })
      .from(comments)
      .where(inArray(comments.filmId, [...ids]))
      .groupBy(comments.filmId),
  ]);
  const count = (list: { filmId: number; n: number }[], id: number) => Number(list.find((r) => r.filmId === id)?.n ?? 0);
  return new Map(
    rows.map((f) => [
      f.id,
      {
        id: f.id,
        slug: f.slug,
        title: f.title,
        nameEnglish: f.nameEnglish,
        year: f.year,
        kind: f.kind,
        tmdb: f.tmdbId ? `${f.tmdbType} ${f.tmdbId}${f.tmdbType === 'tv' && f.tmdbSeason !== null ? ` mùa ${f.tmdbSeason}` : ''}` : null,
        imdbId: f.imdbId,
        sources: [...new Set(sourceRows.filter((s) => s.filmId === f.id).map((s) => s.name ?? 'không rõ'))],
        episodes: count(episodeRows, f.id),
        views: f.views,
        comments: count(commentRows, f.id),
        createdAt: f.createdAt,
      },
    ]),
  );
}

/** GET /api/admin/merge-suggestions?status=: newest first; each pair with the older film first (the one kept by default). */
export async function listMergeSuggestions(db: Db, status: 'open' | 'dismissed' | 'merged'): Promise<MergeSuggestionsResponse> {
  const rows = await db
    .select()
    .from(mergeSuggestions)
    .where(eq(mergeSuggestions.status, status))
    .orderBy(desc(mergeSuggestions.createdAt), desc(mergeSuggestions.id))
    .limit(200);
  const dtos = await filmDtos(db, [...new Set(rows.flatMap((r) => [r.filmA, r.filmB]))]);
  return {
    data: rows.flatMap((r) => {
      const a = dtos.get(r.filmA);
      const b = dtos.get(r.filmB);
      if (!a || !b) return [];
      const [keep, drop] = a.createdAt <= b.createdAt ? [a, b] : [b, a];
      return [{ id: r.id, reason: r.reason, status: r.status, createdAt: r.createdAt, keep, drop }];
    }),
  };
}

/** POST /api/admin/merge-suggestions/{id}/dismiss: they are two films; never suggested again. */
export async function dismissSuggestion(db: Db, actor: Actor, id: number, now: number) {
  const [row] = await db.select().from(mergeSuggestions).where(eq(mergeSuggestions.id, id));
  if (!row) throw notFound(`id: ${MERGE_TEXTS.suggestionNotFound}`);
  await db.batch([
    db.update(mergeSuggestions).set({ status: 'dismissed', resolvedAt: now, resolvedBy: actor.id }).where(eq(mergeSuggestions.id, id)),
    auditInsert(
      db,
      actor,
      {
        action: 'merge.dismiss',
        target: id,
        before: { status: row.status },
        after: { status: 'dismissed', films: [row.filmA, row.filmB] },
      },
      now,
    ),
  ]);
  return { message: MERGE_TEXTS.dismissed };
}

type IdentityRow = FilmIdentity & { id: number };

/**
 * POST /api/admin/merge-suggestions/scan: films already in the catalogue that are one by the identity rule (the same
 * TMDB movie, or series season; the same IMDb movie; the same original name, year and kind with nothing contradicting)
 * become suggestions, for an admin to merge once. Films added by hand are left out, as the crawl leaves them.
 */
export async function scanDuplicates(db: Db, now: number): Promise<{ found: number }> {
  const columns = {
    id: films.id,
    tmdbType: films.tmdbType,
    tmdbId: films.tmdbId,
    tmdbSeason: films.tmdbSeason,
    imdbId: films.imdbId,
    originKey: films.originKey,
    year: films.year,
    kind: films.kind,
  };
  const crawled = isNull(films.createdBy);
  const [byTmdb, byImdb, byName] = await db.batch([
    db
      .select(columns)
      .from(films)
      .where(
        and(
          crawled,
          isNotNull(films.tmdbId),
          sql`exists (select 1 from ${films} f2 where f2.id <> ${films.id} and f2.tmdb_id = ${films.tmdbId} and f2.tmdb_type = ${films.tmdbType} and f2.created_by is null)`,
        ),
      ),
    db
      .select(columns)
      .from(films)
      .where(
        and(
          crawled,
          eq(films.kind, 'single'),
          isNotNull(films.imdbId),
          sql`exists (select 1 from ${films} f2 where f2.id <> ${films.id} and f2.imdb_id = ${films.imdbId} and f2.kind = 'single' and f2.created_by is null)`,
        ),
      ),
    db
      .select(columns)
      .from(films)
      .where(
        and(
          crawled,
          isNotNull(films.originKey),
          isNotNull(films.year),
          sql`exists (select 1 from ${films} f2 where f2.id <> ${films.id} and f2.origin_key = ${films.originKey} and f2.year = ${films.year} and f2.kind is ${films.kind} and f2.created_by is null)`,
        ),
      ),
  ]);
  const pairs = new Map<string, { a: number; b: number; reason: string }>();
  const add = (group: IdentityRow[], key: (r: IdentityRow) => string | null, reason: (r: IdentityRow) => string) => {
    const byKey = new Map<string, IdentityRow[]>();
    for (const r of group) {
      const k = key(r);
      if (k === null) continue;
      byKey.set(k, [...(byKey.get(k) ?? []), r]);
    }
    for (const list of byKey.values())
      for (let i = 0; i < list.length; i++)
        for (let j = i + 1; j < list.length; j++) {
          const [x, y] = [list[i]!, list[j]!];
          if (contradiction(x, y)) continue;
          const [a, b] = x.id < y.id ? [x.id, y.id] : [y.id, x.id];
          if (!pairs.has(`${a}:${b}`)) pairs.set(`${a}:${b}`, { a, b, reason: reason(x) });
        }
  };
  add(
    byTmdb,
    (r) => (r.tmdbType === 'movie' ? `movie:${r.tmdbId}` : r.tmdbSeason === null ? null : `tv:${r.tmdbId}:${r.tmdbSeason}`),
    (r) => `trùng phim có sẵn: cùng TMDB ${r.tmdbType} ${r.tmdbId}${r.tmdbType === 'tv' ? ` mùa ${r.tmdbSeason}` : ''}`,
  );
  add(
    byImdb,
    (r) => r.imdbId,
    (r) => `trùng phim có sẵn: cùng IMDb ${r.imdbId}`,
  );
  add(
    byName,
    (r) => `${r.originKey}:${r.year}:${r.kind}`,
    (r) => `trùng phim có sẵn: cùng tên gốc "${r.originKey}" năm ${r.year}`,
  );
  const values = [...pairs.values()];
  for (let i = 0; i < values.length; i += 200) {
    await db
      .insert(mergeSuggestions)
      .values(values.slice(i, i + 200).map((p) => ({ filmA: p.a, filmB: p.b, reason: p.reason, createdAt: now })))
      .onConflictDoNothing();
  }
  return { found: values.length };
}
