// "Phim tương tự" (issue 40 §4, docs/decisions/1090-related-films.md). Each film's related films are computed by the
// scheduled job `related-films` into film_related (best first, with the reason the card shows); the film's detail
// reads them in its own batch (services/catalogue/detail.ts), so the film API costs what a small indexed read costs
// whatever the catalogue's size. Signals: devices that played both films for 120 s within 90 days (the plays of
// decision 1071), shared director and actors (decision 1070), genres, country and year. The other seasons of the
// same TMDB show are "Các phần", never here.
import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { filmRelated, filmRelatedState, films } from '../../db/schema';
import type { RelatedReasonKind } from '../../schemas/related';
import { dayOf } from '../plays/plays';

/** How many related films a film keeps (the film page shows them all; the home row too). */
export const RELATED_SIZE = 8;
/** Co-watch looks back this many days. */
export const COWATCH_DAYS = 90;
/** Fewer devices than this having played both says nothing. */
export const COWATCH_MIN = 3;
/** Weights: a strong co-watch (cosine near 1) outweighs a shared person with the same genre; a shared person outweighs genre, country and year together (3.5). */
export const WEIGHTS = { cowatch: 10, director: 4, actor: 4, extraActor: 0.5, genre: 2, country: 1, year: 0.5 } as const;
/** Candidates read per signal. */
const CANDIDATES = 60;
/** A list is recomputed after this long (co-watch moves slowly); never-computed films go first. */
export const RELATED_REFRESH_MS = 6 * 3_600_000;

interface Candidate {
  id: number;
  cowatch: number;
  director: boolean;
  actors: number;
  actorName: string;
  genre: number;
  genreName: string;
  country: number;
  countryName: string;
  year: number;
}

export interface ScoredRelated {
  id: number;
  score: number;
  reason: RelatedReasonKind;
  reasonName: string;
}

/** Not the film itself, nor another season of its TMDB show ("Các phần"). */
const otherShow = (a: number) => sql`f2.id != ${a} and not (f2.tmdb_type = 'tv' and exists (
  select 1 from films me where me.id = ${a} and me.tmdb_type = 'tv' and me.tmdb_id is not null and me.tmdb_id = f2.tmdb_id))`;

/** Genre overlap (Jaccard), a shared country, a year within 3, for the given candidates or the best of the genre pool. */
const similarity = (a: number, only: number[] | null) => sql`
  with mine as (select genre_id from film_genres where film_id = ${a}),
  pool as (
    ${
      only
        ? sql`select value as film_id from json_each(${JSON.stringify(only)})`
        : sql`select distinct fg.film_id from film_genres fg join mine on mine.genre_id = fg.genre_id`
    }
  )
  select f2.id as id,
    (select count(*) from film_genres g where g.film_id = f2.id and g.genre_id in (select genre_id from mine)) as shared,
    (select count(*) from film_genres g where g.film_id = f2.id) as theirs,
    (select count(*) from mine) as ours,
    coalesce((select n.name from film_genres g join genres n on n.id = g.genre_id
      where g.film_id = f2.id and g.genre_id in (select genre_id from mine) order by g.genre_id limit 1), '') as genre_name,
    coalesce((select c.name from film_countries fc join countries c on c.id = fc.country_id
      where fc.film_id = f2.id and fc.country_id in (select country_id from film_countries where film_id = ${a})
      order by fc.country_id limit 1), '') as country_name,
    coalesce(abs(f2.year - (select year from films where id = ${a})) <= 3, 0) as near_year
  from pool join films f2 on f2.id = pool.film_id
  where ${otherShow(a)}
  ${
    only
      ? sql``
      : sql`order by 2.0 * shared / (ours + theirs - shared) + (country_name != '') + 0.5 * near_year desc, f2.views desc, f2.id desc
            limit ${CANDIDATES}`
  }`;

type SimilarityRow = {
  id: number;
  shared: number;
  theirs: number;
  ours: number;
  genre_name: string;
  country_name: string;
  near_year: number;
};

/** The film's related list, scored (pure once the rows are read; tested through computeRelated). */
export async function computeRelated(db: Db, filmId: number, now: number): Promise<ScoredRelated[]> {
  const since = dayOf(now) - COWATCH_DAYS;
  const [cowatch, peopleRows, pool] = await db.batch([
    // Devices that played this film and another within the window: c_ab, with c_a and c_b for the cosine.
    db.all<{ id: number; c: number; ca: number; cb: number }>(sql`
      with mine as (select distinct device from plays where film_id = ${filmId} and day >= ${since})
      select f2.id as id, count(distinct p.device) as c,
        (select count(*) from mine) as ca,
        (select count(distinct q.device) from plays q where q.film_id = f2.id and q.day >= ${since}) as cb
      from mine join plays p on p.device = mine.device and p.film_id != ${filmId} and p.day >= ${since}
      join films f2 on f2.id = p.film_id
      where ${otherShow(filmId)}
      group by f2.id having c >= ${COWATCH_MIN}
      order by c desc limit ${CANDIDATES}`),
    // Films sharing a director or an actor, with the first shared actor in this film's billing order.
    db.all<{ id: number; role: 'actor' | 'director'; name: string; position: number }>(sql`
      select f2.id as id, mine.role as role, pe.name as name, mine.position as position
      from film_people mine
      join film_people theirs on theirs.person_id = mine.person_id and theirs.role = mine.role and theirs.film_id != mine.film_id
      join films f2 on f2.id = theirs.film_id
      join people pe on pe.id = mine.person_id
      where mine.film_id = ${filmId} and ${otherShow(filmId)}
      order by mine.role desc, mine.position limit ${CANDIDATES * 8}`),
    db.all<SimilarityRow>(similarity(filmId, null)),
  ]);
  const candidates = new Map<number, Candidate>();
  const get = (id: number) => {
    let c = candidates.get(id);
    if (!c) {
      c = { id, cowatch: 0, director: false, actors: 0, actorName: '', genre: 0, genreName: '', country: 0, countryName: '', year: 0 };
      candidates.set(id, c);
    }
    return c;
  };
  for (const row of cowatch) get(row.id).cowatch = row.c / Math.sqrt(row.ca * row.cb);
  for (const row of peopleRows) {
    const c = get(row.id);
    if (row.role === 'director') c.director = true;
    else {
      if (!c.actors) c.actorName = row.name;
      c.actors++;
    }
  }
  const applySimilarity = (row: SimilarityRow) => {
    const c = get(row.id);
    const union = row.ours + row.theirs - row.shared;
    c.genre = union > 0 ? row.shared / union : 0;
    c.genreName = row.genre_name;
    c.country = row.country_name ? 1 : 0;
    c.countryName = row.country_name;
    c.year = row.near_year ? 1 : 0;
  };
  const seen = new Set<number>();
  for (const row of pool) {
    applySimilarity(row);
    seen.add(row.id);
  }
  // Co-watched or people-sharing films outside the genre pool: their genre, country and year too.
  const rest = [...candidates.keys()].filter((id) => !seen.has(id));
  if (rest.length) for (const row of await db.all<SimilarityRow>(similarity(filmId, rest))) applySimilarity(row);
  return rankCandidates([...candidates.values()]);
}

/** Scores and reasons: the largest part of a film's score is its reason. */
export function rankCandidates(candidates: Candidate[]): ScoredRelated[] {
  const scored = candidates.map((c) => {
    const parts: [RelatedReasonKind, number, string][] = [
      ['cowatch', WEIGHTS.cowatch * c.cowatch, ''],
      ['director', c.director ? WEIGHTS.director : 0, ''],
      ['actor', c.actors ? WEIGHTS.actor + WEIGHTS.extraActor * Math.min(c.actors - 1, 2) : 0, c.actorName],
      ['genre', WEIGHTS.genre * c.genre, c.genreName],
      ['country', WEIGHTS.country * c.country, c.countryName],
      ['year', WEIGHTS.year * c.year, ''],
    ];
    const score = parts.reduce((sum, [, v]) => sum + v, 0);
    const [reason, , reasonName] = parts.reduce((best, part) => (part[1] > best[1] ? part : best));
    return { id: c.id, score, reason, reasonName };
  });
  return scored
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || b.id - a.id)
    .slice(0, RELATED_SIZE);
}

/** Replaces the film's list and records when (one batch). */
export async function writeRelated(db: Db, filmId: number, list: ScoredRelated[], now: number) {
  await db.batch([
    db.delete(filmRelated).where(eq(filmRelated.filmId, filmId)),
    ...(list.length
      ? [
          db
            .insert(filmRelated)
            .values(list.map((r, rank) => ({ filmId, rank, relatedId: r.id, score: r.score, reason: r.reason, reasonName: r.reasonName }))),
        ]
      : []),
    db
      .insert(filmRelatedState)
      .values({ filmId, refreshedAt: now })
      .onConflictDoUpdate({ target: filmRelatedState.filmId, set: { refreshedAt: now } }),
  ]);
}

/**
 * The scheduled job's step: films never computed first (new films get a list within a tick, and the films in it are
 * due again so the new film shows in theirs), then the lists older than RELATED_REFRESH_MS, oldest first, up to
 * `limit` films or `budgetMs`. Answers how many were refreshed.
 */
export async function refreshRelated(db: Db, now: number, { limit = 200, budgetMs = 5_000, clock = Date.now } = {}) {
  const due = await db
    .select({ id: films.id, never: sql<number>`${filmRelatedState.filmId} is null` })
    .from(films)
    .leftJoin(filmRelatedState, eq(filmRelatedState.filmId, films.id))
    .where(or(isNull(filmRelatedState.refreshedAt), lt(filmRelatedState.refreshedAt, now - RELATED_REFRESH_MS)))
    .orderBy(asc(sql`coalesce(${filmRelatedState.refreshedAt}, 0)`), asc(films.id))
    .limit(limit);
  const started = clock();
  let done = 0;
  for (const { id, never } of due) {
    if (clock() - started > budgetMs) break;
    const list = await computeRelated(db, id, now);
    await writeRelated(db, id, list, now);
    // A new film's neighbours computed in an earlier tick did not know it: they are due again, so it shows in their
    // lists next tick (those computed in this tick already saw it).
    if (never && list.length)
      await db
        .update(filmRelatedState)
        .set({ refreshedAt: 0 })
        .where(
          and(
            inArray(
              filmRelatedState.filmId,
              list.map((r) => r.id),
            ),
            gt(filmRelatedState.refreshedAt, 0),
            lt(filmRelatedState.refreshedAt, now),
          ),
        );
    done++;
  }
  return done;
}
