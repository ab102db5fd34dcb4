// The one way a film is written: every derived field — slug, folded search text, denormalised genre/country
// names, links and episodes — is computed here (filmValues), inside one transaction, so no caller can leave a
// film half-written or its search text stale. upsertFilm writes one film (admin add/edit, with hooks inside
// its transaction); upsertFilms a crawled page of them, as statements sent in one batch.
import { and, eq, inArray, isNull, like, or, type SQL, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { fold, slugify } from '../../db/fold';
import {
  countries,
  deletedFilms,
  episodes,
  filmAliases,
  filmCountries,
  filmGenres,
  films,
  filmSources,
  genres,
  mergeSuggestions,
  sources,
} from '../../db/schema';
import { RESERVED_FILM_SLUGS, type CategoryId } from '../../schemas/taxonomy';
import { forgetCatalogueVersion } from '../catalogue/version';
import { episodeNumbers, newEpisodeNumbers, recordEpisodeReleases, releaseInserts } from '../library/episode-releases';
import { peopleStatements } from '../people/people-writes';
import { assertNotDeleted } from './deleted-films';
import {
  type Candidate,
  completeIdentity,
  type Doubt,
  type FilmIdentity,
  lookupKeys,
  type MatchBy,
  matchFilm,
  NO_IDENTITY,
} from './film-identity';

export type FilmStatus = 'ongoing' | 'completed' | 'trailer';

export interface EpisodeInput {
  serverName: string;
  /** Unique per film and server; /tap-{episode}. */
  episode: number;
  name: string;
  m3u8Url: string;
  embedUrl: string;
}

export interface FilmInput {
  /** Update this film (admin edit). Without it the film is matched by sourceKey, else created. */
  id?: number;
  /** Stable identity at the source ('{origin}:{id}'); null for films added by hand. */
  sourceKey?: string | null;
  sourceChecksum?: string | null;
  /** Preferred slug (e.g. the source's); slugified. Defaults to the title. Ignored for existing films. */
  slug?: string;
  title: string;
  nameEnglish?: string;
  posterUrl?: string;
  thumbUrl?: string;
  statusText?: string;
  status?: FilmStatus;
  language?: string;
  episodeCountText?: string;
  duration?: string;
  year?: number | null;
  quality?: string;
  director?: string;
  actors?: string;
  description?: string;
  categoryId: CategoryId;
  vipOnly?: boolean;
  /** Taxonomy slugs (schemas/taxonomy.ts). Omitted on update: links kept as they are. */
  genreSlugs?: readonly string[];
  countrySlugs?: readonly string[];
  /** Replaces every episode of the film. Omitted on update: episodes kept as they are. */
  episodes?: readonly EpisodeInput[];
  /** When the film first appeared (new films only); default now. Crawled films use the source's time. */
  createdAt?: number;
  /** When the film last changed; default now. 'Mới cập nhật' listings sort by these. */
  updatedAt?: number;
  /** Who writes: the admin or VIP2 uploader; null or omitted for the crawler. Kept as created_by / updated_by. */
  actorId?: number | null;
  /** A crawled film's external identity (services/films/film-identity.ts): how another source's copy finds it. */
  identity?: FilmIdentity;
  /** A crawled film's slug at its source. */
  sourceSlug?: string;
  /** YouTube video id of the trailer ('' none), the source's schedule and notice as plain text, "Phim chiếu rạp", TMDB score. */
  trailerId?: string;
  showtimes?: string;
  notify?: string;
  chieurap?: boolean;
  tmdbVoteAverage?: number | null;
  tmdbVoteCount?: number | null;
}

export interface UpsertFilmResult {
  id: number;
  slug: string;
  created: boolean;
  /** Episode numbers an existing film gained in this write (new-episode notifications, services/push/notifier.ts). */
  addedEpisodes: number[];
}

export class FilmWriteError extends Error {
  override readonly name = 'FilmWriteError';
}

/** The transaction a film is written in. */
export type FilmTx = Parameters<Parameters<Db['transaction']>[0]>[0];
type Tx = FilmTx;

export interface UpsertFilmOptions {
  now?: () => number;
  /** Runs first inside the film's transaction (a restore removes the film's tombstone there). */
  beforeWrite?: (tx: FilmTx) => Promise<void>;
  /** Runs last inside the film's transaction: bookkeeping that must commit or roll back with the film. */
  afterWrite?: (tx: FilmTx, result: UpsertFilmResult) => Promise<void>;
}

const EPISODE_CHUNK = 200;

/**
 * Inserts or updates one film with its genre/country links and episodes in one transaction.
 * An existing film keeps its slug: URLs and comment rooms are keyed by it.
 */
export async function upsertFilm(db: Db, input: FilmInput, options: UpsertFilmOptions = {}): Promise<UpsertFilmResult> {
  const title = input.title.trim();
  if (!title) throw new FilmWriteError('title: required');
  const now = (options.now ?? Date.now)();

  return db.transaction(async (tx) => {
    await options.beforeWrite?.(tx);
    const existing = await findExisting(tx, input);
    const genreRows = input.genreSlugs ? await resolveSlugs(tx, 'genre', input.genreSlugs) : undefined;
    const countryRows = input.countrySlugs ? await resolveSlugs(tx, 'country', input.countrySlugs) : undefined;

    const values = filmValues(input, title, existing, genreRows, countryRows);

    let id: number;
    let slug: string;
    if (existing) {
      ({ id, slug } = existing);
      await tx
        .update(films)
        .set({ ...values, updatedAt: input.updatedAt ?? now })
        .where(eq(films.id, id));
    } else {
      if (input.sourceKey) await assertNotDeleted(tx, input.sourceKey);
      slug = await uniqueSlug(tx, input.slug || title);
      const [row] = await tx
        .insert(films)
        .values({
          ...values,
          slug,
          createdBy: input.actorId ?? null,
          createdAt: input.createdAt ?? input.updatedAt ?? now,
          updatedAt: input.updatedAt ?? now,
        })
        .returning({ id: films.id });
      if (!row) throw new FilmWriteError('insert returned no row');
      id = row.id;
      // Its source's item, so a crawl of that source finds it by its key (docs/decisions/0104).
      if (input.sourceKey)
        await tx
          .insert(filmSources)
          .values({ filmId: id, sourceKey: input.sourceKey, sourceSlug: input.sourceSlug ?? '', checksum: input.sourceChecksum ?? null })
          .onConflictDoNothing();
    }

    if (input.director !== undefined || input.actors !== undefined) {
      const [named] = await tx.select({ director: films.director, actors: films.actors }).from(films).where(eq(films.id, id));
      for (const statement of peopleStatements(sql`${id}`, named?.director ?? '', named?.actors ?? '')) await tx.run(statement);
    }
    if (genreRows) {
      await tx.delete(filmGenres).where(eq(filmGenres.filmId, id));
      if (genreRows.length) await tx.insert(filmGenres).values(genreRows.map((g) => ({ filmId: id, genreId: g.id })));
    }
    if (countryRows) {
      await tx.delete(filmCountries).where(eq(filmCountries.filmId, id));
      if (countryRows.length) await tx.insert(filmCountries).values(countryRows.map((c) => ({ filmId: id, countryId: c.id })));
    }
    let addedEpisodes: number[] = [];
    if (input.episodes) {
      assertUniqueEpisodes(input.episodes);
      // New-episode hook: numbers the film did not have are recorded as releases in this transaction.
      const before = existing ? await episodeNumbers(tx, id) : undefined;
      await tx.delete(episodes).where(eq(episodes.filmId, id));
      for (let i = 0; i < input.episodes.length; i += EPISODE_CHUNK) {
        const chunk = input.episodes.slice(i, i + EPISODE_CHUNK);
        await tx.insert(episodes).values(chunk.map((e) => episodeRow(e, id, input.actorId, now)));
      }
      if (before)
        addedEpisodes = await recordEpisodeReleases(
          tx,
          id,
          before,
          input.episodes.map((e) => e.episode),
          now,
        );
    }
    const result = { id, slug, created: !existing, addedEpisodes };
    await options.afterWrite?.(tx, result);
    return result;
  });
}

type TaxonomyRow = { id: number; slug: string; name: string };

/** Every column of a film row the writer derives from its input: search text, denormalised names, … */
function filmValues(
  input: FilmInput,
  title: string,
  existing: { nameEnglish: string } | undefined,
  genreRows: TaxonomyRow[] | undefined,
  countryRows: TaxonomyRow[] | undefined,
) {
  const nameEnglish = input.nameEnglish?.trim() ?? existing?.nameEnglish ?? '';
  return {
    title,
    nameEnglish,
    posterUrl: input.posterUrl,
    thumbUrl: input.thumbUrl,
    statusText: input.statusText,
    status: input.status,
    language: input.language,
    episodeCountText: input.episodeCountText,
    duration: input.duration,
    year: input.year,
    quality: input.quality,
    director: input.director,
    actors: input.actors,
    description: input.description,
    categoryId: input.categoryId,
    vipOnly: input.vipOnly,
    trailerId: input.trailerId,
    showtimes: input.showtimes,
    notify: input.notify,
    chieurap: input.chieurap,
    tmdbVoteAverage: input.tmdbVoteAverage,
    tmdbVoteCount: input.tmdbVoteCount,
    genreNames: genreRows?.map((g) => g.name).join(', '),
    countryNames: countryRows?.map((c) => c.name).join(', '),
    titleFolded: fold(title),
    searchText: fold(`${title} ${nameEnglish}`),
    sourceKey: input.sourceKey,
    sourceChecksum: input.sourceChecksum,
    updatedBy: input.actorId ?? null,
    ...(input.identity
      ? {
          tmdbType: input.identity.tmdbType,
          tmdbId: input.identity.tmdbId,
          tmdbSeason: input.identity.tmdbSeason,
          imdbId: input.identity.imdbId,
          originKey: input.identity.originKey,
          kind: input.identity.kind,
        }
      : {}),
  };
}

/** An episode row as every write stores it, with who wrote it (null: the crawler). */
function episodeRow<F>(e: EpisodeInput, filmId: F, actorId: number | null | undefined, now: number) {
  const by = actorId ?? null;
  return { ...e, filmId, createdBy: by, updatedBy: by, createdAt: now };
}

async function findExisting(tx: Tx, input: FilmInput) {
  const columns = { id: films.id, slug: films.slug, nameEnglish: films.nameEnglish };
  if (input.id !== undefined) {
    const [row] = await tx.select(columns).from(films).where(eq(films.id, input.id));
    if (!row) throw new FilmWriteError(`film ${input.id}: not found`);
    return row;
  }
  if (input.sourceKey) return filmBySourceKey(tx, input.sourceKey);
  return undefined;
}

/**
 * The film imported from `sourceKey`, with the checksum of what was imported: the writer's own
 * lookup, and the crawler's "unchanged since the last crawl?" test.
 */
export async function filmBySourceKey(db: Pick<Db, 'select'>, sourceKey: string) {
  const [row] = await db
    .select({ id: films.id, slug: films.slug, nameEnglish: films.nameEnglish, checksum: filmSources.checksum })
    .from(filmSources)
    .innerJoin(films, eq(films.id, filmSources.filmId))
    .where(eq(filmSources.sourceKey, sourceKey));
  if (row) return row;
  const [own] = await db
    .select({ id: films.id, slug: films.slug, nameEnglish: films.nameEnglish, checksum: films.sourceChecksum })
    .from(films)
    .where(eq(films.sourceKey, sourceKey));
  return own;
}

/** Taxonomy rows for the slugs, in the caller's order, duplicates dropped; an unknown slug is an error. */
async function resolveSlugs(tx: Tx, kind: 'genre' | 'country', slugs: readonly string[]) {
  const wanted = [...new Set(slugs)];
  if (!wanted.length) return [];
  const table = kind === 'genre' ? genres : countries;
  const rows = await tx.select({ id: table.id, slug: table.slug, name: table.name }).from(table).where(inArray(table.slug, wanted));
  const bySlug = new Map(rows.map((r) => [r.slug, r]));
  return wanted.map((slug) => {
    const row = bySlug.get(slug);
    if (!row) throw new FilmWriteError(`${kind} '${slug}': unknown`);
    return row;
  });
}

function assertUniqueEpisodes(list: readonly EpisodeInput[]) {
  const seen = new Set<string>();
  for (const e of list) {
    if (!Number.isInteger(e.episode) || e.episode < 1) throw new FilmWriteError(`episode ${e.episode}: must be a positive integer`);
    const key = `${e.serverName}\u0000${e.episode}`;
    if (seen.has(key)) throw new FilmWriteError(`episode ${e.episode} on '${e.serverName}': duplicated`);
    seen.add(key);
  }
}

/**
 * slugify(preferred), never a reserved route name, unique among films: 'mat-biec', then 'mat-biec-2',
 * 'mat-biec-3'… Film slugs share the /{slug} namespace with country pages and fixed routes.
 */
async function uniqueSlug(tx: Tx, preferred: string): Promise<string> {
  const base = slugBase(preferred);
  const [rows, aliases] = await Promise.all([
    tx.select({ slug: films.slug }).from(films).where(slugsLike(films.slug, base)),
    tx.select({ slug: filmAliases.slug }).from(filmAliases).where(slugsLike(filmAliases.slug, base)),
  ]);
  return freeSlug(base, new Set([...rows, ...aliases].map((r) => r.slug)));
}

const slugBase = (preferred: string) => slugify(preferred) || 'phim';
// Slugs are [a-z0-9-] only, so the LIKE pattern holds no wildcard but the one added here. A merged-away film's slug
// (film_aliases) stays taken: it answers 301 to the film it was merged into.
const slugsLike = (column: SQLiteColumn, base: string) => or(eq(column, base), like(column, `${base}-%`));

/** The base itself when free, else the first free base-2, base-3… (`taken`: slugs in use). */
function freeSlug(base: string, taken: ReadonlySet<string>): string {
  const free = (s: string) => !taken.has(s) && !RESERVED_FILM_SLUGS.has(s);
  if (free(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (free(candidate)) return candidate;
  }
}

// ---------------------------------------------------------------------------------------------
// A crawled page: one source's films, written in one batch (docs/decisions/0902), each matched to the film the
// catalogue already has from any source (docs/decisions/0104-one-film-every-source.md).

/** The source a batch of films comes from. */
export interface SourceRef {
  /** sources.id; null when the writer is handed keys without a registered source (its servers keep their names). */
  id: number | null;
  /** The label its servers carry on every film ('Vietsub #1 · KKPhim'); '' keeps server names as they come. */
  name: string;
}

/** What happened to one film of a batch: written (new, updated, or joined to a film another source gave), left as it was, or refused. */
export type BatchFilmOutcome =
  | {
      input: FilmInput;
      outcome: 'new' | 'updated' | 'merged';
      slug: string;
      addedEpisodes: number[];
      /** 'merged': how the film was recognised. */
      by?: MatchBy;
      /** Films that look the same but were not taken (logged, and offered to an admin in "Gộp phim"). */
      doubts: Doubt[];
    }
  | { input: FilmInput; outcome: 'skipped'; deleted?: true; doubts?: Doubt[] }
  | { input: FilmInput; outcome: 'failed'; error: string };

/** What the writer read about a film before deciding: the stored film with the source checksum it came from. */
export interface StoredFilm {
  id: number;
  slug: string;
  nameEnglish: string;
  checksum: string | null;
}

export interface UpsertFilmsOptions {
  now?: () => number;
  /** The source of every film of the batch; default: none registered (keys only, server names as they come). */
  source?: SourceRef;
  /** Leaves a stored film as it is (the crawler: its source checksum is unchanged). */
  skip?: (input: FilmInput, stored: StoredFilm | undefined) => boolean;
  /**
   * Statements that commit in the same batch as the films (the crawl run's progress), given the outcomes.
   * Not sent when the page batch fails and the films are written one by one (`alongsideCommitted` false).
   */
  alongside?: (outcomes: readonly BatchFilmOutcome[]) => BatchItem<'sqlite'>[];
}

/** The columns of a stored film the batch writer decides with. */
const storedColumns = {
  id: films.id,
  slug: films.slug,
  title: films.title,
  nameEnglish: films.nameEnglish,
  posterUrl: films.posterUrl,
  thumbUrl: films.thumbUrl,
  language: films.language,
  episodeCountText: films.episodeCountText,
  duration: films.duration,
  year: films.year,
  quality: films.quality,
  director: films.director,
  actors: films.actors,
  description: films.description,
  locked: films.locked,
  filmKey: films.sourceKey,
  tmdbType: films.tmdbType,
  tmdbId: films.tmdbId,
  tmdbSeason: films.tmdbSeason,
  imdbId: films.imdbId,
  originKey: films.originKey,
  kind: films.kind,
};
type StoredRow = {
  [K in keyof typeof storedColumns]: (typeof storedColumns)[K]['_']['notNull'] extends true
    ? (typeof storedColumns)[K]['_']['data']
    : (typeof storedColumns)[K]['_']['data'] | null;
};

/** Fields a source that does not lead a film may still fill when the film has nothing there. */
const FILLABLE = [
  'nameEnglish',
  'posterUrl',
  'thumbUrl',
  'language',
  'episodeCountText',
  'duration',
  'quality',
  'director',
  'actors',
  'description',
] as const satisfies readonly (keyof FilmInput & keyof StoredRow)[];

/** What an admin changed by hand (films.locked). */
export interface FilmLocks {
  fields: string[];
  removed: string[];
}

export function parseLocks(json: string | null | undefined): FilmLocks {
  try {
    const v = JSON.parse(json ?? '{}') as Partial<FilmLocks>;
    return {
      fields: Array.isArray(v.fields) ? v.fields.filter((f): f is string => typeof f === 'string') : [],
      removed: Array.isArray(v.removed) ? v.removed.filter((f): f is string => typeof f === 'string') : [],
    };
  } catch {
    return { fields: [], removed: [] };
  }
}

/** The key films.locked.removed keeps an episode an admin deleted by. */
export const removedEpisodeKey = (serverName: string, episode: number) => `${serverName}\u0000${episode}`;

/** 'Vietsub #1' of the source labelled 'KKPhim' → 'Vietsub #1 · KKPhim': two sources' servers never collide. */
export const labelledServer = (serverName: string, label: string) => (label ? `${serverName} · ${label}` : serverName);

/** A source's rank on a film: up before down, then by priority (lower first), then by age. */
type Rank = [number, number, number];
const rankBefore = (a: Rank, b: Rank) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** One film the batch touches: a stored one, or one this batch creates (id < 0, found by its slug). */
interface FilmPlan {
  id: number;
  slug: string;
  stored?: StoredRow;
  /** The film's source items: the stored ones and those this batch adds. */
  items: { sourceId: number | null; label: string; key?: string }[];
  identity: FilmIdentity;
  episodes: Set<number>;
}

/**
 * Writes one source's films (a crawled page): everything the statements depend on is read in one batch (the
 * source's items already known by key, the films its films may be by their external ids and original names, the
 * tombstones, taxonomy, slugs in use), then every film's statements and `alongside` go to the database as one
 * batch, a transaction: two round trips for the page, whatever mix of new, updated and merged films it holds.
 *
 * Each film is its source's item ('{origin}:{id}' → film_sources): a known item updates its film; an unknown one
 * joins the film it is by the identity rule (services/films/film-identity.ts), or becomes a new film. The film's
 * own fields follow its sources' priority (the leading source writes them, the others only fill what is empty),
 * never over what an admin changed by hand (films.locked); each source's servers are its own, labelled with the
 * source's name. A film the writer refuses (an unknown genre, duplicated episodes) is reported, not written; when
 * the page batch fails in the database, the films are written one batch each.
 */
export async function upsertFilms(
  db: Db,
  inputs: readonly FilmInput[],
  options: UpsertFilmsOptions = {},
): Promise<{ outcomes: BatchFilmOutcome[]; alongsideCommitted: boolean }> {
  const now = (options.now ?? Date.now)();
  const source: SourceRef = options.source ?? { id: null, name: '' };
  const keys = [...new Set(inputs.map((i) => i.sourceKey).filter((k): k is string => !!k))];
  const identities = inputs.map((i) => i.identity ?? NO_IDENTITY);
  const { tmdbIds, imdbIds, originKeys } = lookupKeys(identities);
  const bases = [...new Set(inputs.map((i) => slugBase(i.slug || i.title.trim())))];
  const genreSlugs = [...new Set(inputs.flatMap((i) => i.genreSlugs ?? []))];
  const countrySlugs = [...new Set(inputs.flatMap((i) => i.countrySlugs ?? []))];
  const none = sql`0`;
  const byIdentity = <T extends typeof films | typeof deletedFilms>(t: T) =>
    tmdbIds.length || imdbIds.length || originKeys.length
      ? or(
          tmdbIds.length ? inArray(t.tmdbId, tmdbIds) : undefined,
          imdbIds.length ? inArray(t.imdbId, imdbIds) : undefined,
          originKeys.length ? inArray(t.originKey, originKeys) : undefined,
        )
      : none;
  // Films made by hand (an admin, a VIP2 uploader) are never joined by a crawl: only an admin merges them.
  const candidateWhere = and(isNull(films.createdBy), byIdentity(films));
  const linkedFilmIds = db
    .select({ id: filmSources.filmId })
    .from(filmSources)
    .where(keys.length ? inArray(filmSources.sourceKey, keys) : none);
  const candidateIds = db.select({ id: films.id }).from(films).where(candidateWhere);
  const touched = or(inArray(sql`film_id`, linkedFilmIds), inArray(sql`film_id`, candidateIds));
  const [linked, candidates, items, sourceRows, taken, genreRows, countryRows, tombstones, storedEpisodes] = await db.batch([
    db
      .select({
        ...storedColumns,
        itemId: filmSources.id,
        sourceKey: filmSources.sourceKey,
        checksum: filmSources.checksum,
        label: filmSources.label,
      })
      .from(filmSources)
      .innerJoin(films, eq(films.id, filmSources.filmId))
      .where(keys.length ? inArray(filmSources.sourceKey, keys) : none),
    db.select(storedColumns).from(films).where(candidateWhere),
    db
      .select({ filmId: filmSources.filmId, sourceId: filmSources.sourceId, label: filmSources.label, key: filmSources.sourceKey })
      .from(filmSources)
      .where(touched),
    db.select({ id: sources.id, priority: sources.priority, down: sources.down, enabled: sources.enabled }).from(sources),
    db.select({ slug: sql<string>`slug` }).from(
      sql`(select ${films.slug} as slug from ${films} where ${bases.length ? or(...bases.map((b) => slugsLike(films.slug, b))) : none}
        union all select ${filmAliases.slug} from ${filmAliases} where ${bases.length ? or(...bases.map((b) => slugsLike(filmAliases.slug, b))) : none})`,
    ),
    db
      .select({ id: genres.id, slug: genres.slug, name: genres.name })
      .from(genres)
      .where(genreSlugs.length ? inArray(genres.slug, genreSlugs) : none),
    db
      .select({ id: countries.id, slug: countries.slug, name: countries.name })
      .from(countries)
      .where(countrySlugs.length ? inArray(countries.slug, countrySlugs) : none),
    db
      .select({
        id: deletedFilms.id,
        sourceKey: deletedFilms.sourceKey,
        sourceKeys: deletedFilms.sourceKeys,
        tmdbType: deletedFilms.tmdbType,
        tmdbId: deletedFilms.tmdbId,
        tmdbSeason: deletedFilms.tmdbSeason,
        imdbId: deletedFilms.imdbId,
        originKey: deletedFilms.originKey,
        year: deletedFilms.year,
        kind: deletedFilms.kind,
      })
      .from(deletedFilms)
      .where(
        or(
          keys.length ? inArray(deletedFilms.sourceKey, keys) : undefined,
          keys.length
            ? sql`exists (select 1 from json_each(${deletedFilms.sourceKeys}) where json_each.value in ${sql`(${sql.join(
                keys.map((k) => sql`${k}`),
                sql`, `,
              )})`})`
            : undefined,
          byIdentity(deletedFilms),
        ) ?? none,
      ),
    // The touched films' episode numbers: what a write adds is a new episode (services/library/episode-releases.ts).
    db.selectDistinct({ filmId: episodes.filmId, episode: episodes.episode }).from(episodes).where(touched),
  ]);

  // What was read, indexed.
  const rankOf = new Map(sourceRows.map((r): [number, Rank] => [r.id, [r.down || !r.enabled ? 1 : 0, r.priority, r.id]]));
  const rank = (sourceId: number | null): Rank =>
    sourceId === null ? [0, 1_000_000, 0] : (rankOf.get(sourceId) ?? [1, 1_000_000, sourceId]);
  const slugsInUse = new Set(taken.map((r) => r.slug));
  const taxonomy = { genre: new Map(genreRows.map((g) => [g.slug, g])), country: new Map(countryRows.map((c) => [c.slug, c])) };
  const linkedByKey = new Map(linked.map((r) => [r.sourceKey, r]));
  const plans = new Map<number, FilmPlan>();
  const planFor = (row: StoredRow): FilmPlan => {
    let plan = plans.get(row.id);
    if (!plan) {
      plan = { id: row.id, slug: row.slug, stored: row, items: [], identity: identityFromRow(row), episodes: new Set() };
      plans.set(row.id, plan);
    }
    return plan;
  };
  for (const row of [...linked, ...candidates]) planFor(row);
  for (const item of items) plans.get(item.filmId)?.items.push({ sourceId: item.sourceId, label: item.label, key: item.key });
  for (const e of storedEpisodes) plans.get(e.filmId)?.episodes.add(e.episode);
  const filmCandidates = (): Candidate[] =>
    [...plans.values()]
      .filter((p) => p.id < 0 || !p.stored || candidates.some((c) => c.id === p.id) || linked.some((l) => l.id === p.id))
      .map((p) => ({ ...p.identity, id: p.id, sourceIds: p.items.map((i) => i.sourceId) }));
  const tombstoneCandidates: Candidate[] = tombstones.map((t) => ({
    id: t.id,
    deleted: true,
    sourceIds: [],
    tmdbType: t.tmdbType,
    tmdbId: t.tmdbId,
    tmdbSeason: t.tmdbSeason,
    imdbId: t.imdbId,
    originKey: t.originKey,
    year: t.year,
    kind: t.kind,
  }));
  const deletedKeys = new Set(tombstones.flatMap((t) => [t.sourceKey, ...parseKeys(t.sourceKeys)].filter((k): k is string => !!k)));
  let nextPlanned = -1;

  const outcomes: BatchFilmOutcome[] = [];
  const statements: BatchItem<'sqlite'>[][] = [];
  const keysThisBatch = new Set<string>();
  for (let index = 0; index < inputs.length; index++) {
    const input = inputs[index]!;
    const identity = identities[index]!;
    const key = input.sourceKey ?? null;
    const push = (outcome: BatchFilmOutcome, own: BatchItem<'sqlite'>[] = []) => {
      outcomes.push(outcome);
      statements.push(own);
    };
    if (key && keysThisBatch.has(key)) {
      push({ input, outcome: 'failed', error: `source key ${key}: twice in one batch, the second is ignored` });
      continue;
    }
    if (key) keysThisBatch.add(key);
    const stored = key ? linkedByKey.get(key) : undefined;
    if (
      options.skip?.(
        input,
        stored ? { id: stored.id, slug: stored.slug, nameEnglish: stored.nameEnglish, checksum: stored.checksum } : undefined,
      )
    ) {
      push({ input, outcome: 'skipped' });
      continue;
    }
    try {
      if (stored) {
        const plan = planFor(stored);
        const planned = plannedSourceWrite(db, input, identity, plan, { itemId: stored.itemId, label: stored.label }, source, {
          slugsInUse,
          taxonomy,
          now,
          rank,
        });
        push({ input, outcome: 'updated', slug: plan.slug, addedEpisodes: planned.addedEpisodes, doubts: [] }, planned.statements);
        continue;
      }
      // An admin deleted it (any source's copy of it): it stays deleted until restored (docs/decisions/0700).
      if (key && deletedKeys.has(key)) {
        push({ input, outcome: 'skipped', deleted: true });
        continue;
      }
      const result = matchFilm(identity, [...filmCandidates(), ...tombstoneCandidates], source.id);
      if (result.match?.deleted) {
        push({ input, outcome: 'skipped', deleted: true, doubts: result.doubts });
        continue;
      }
      let plan: FilmPlan;
      let outcome: 'new' | 'merged';
      const own: BatchItem<'sqlite'>[] = [];
      if (result.match) {
        plan = plans.get(result.match.id)!;
        outcome = 'merged';
      } else {
        const title = input.title.trim();
        if (!title) throw new FilmWriteError('title: required');
        const slug = freeSlug(slugBase(input.slug || title), slugsInUse);
        slugsInUse.add(slug);
        plan = { id: nextPlanned--, slug, items: [], identity, episodes: new Set() };
        plans.set(plan.id, plan);
        outcome = 'new';
      }
      const planned = plannedSourceWrite(db, input, identity, plan, undefined, source, { slugsInUse, taxonomy, now, rank });
      own.push(...planned.statements);
      // Films that look the same but were not taken: offered to an admin (never for a tombstone: it is gone).
      const filmId = filmIdSql(plan);
      for (const d of result.doubts) if (!d.deleted && d.filmId !== plan.id) own.push(suggestionInsert(db, filmId, d, now, plans));
      push(
        {
          input,
          outcome,
          slug: plan.slug,
          addedEpisodes: outcome === 'merged' ? planned.addedEpisodes : [],
          by: result.match ? result.by : undefined,
          doubts: result.doubts,
        },
        own,
      );
    } catch (error) {
      if (!(error instanceof FilmWriteError)) throw error;
      push({ input, outcome: 'failed', error: error.message });
    }
  }
  const everything = [...statements.flat(), ...(options.alongside?.(outcomes) ?? [])];
  let alongsideCommitted = true;
  try {
    if (everything.length) await db.batch(everything as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  } catch (error) {
    alongsideCommitted = false;
    if (outcomes.filter((o) => o.outcome === 'new' || o.outcome === 'updated' || o.outcome === 'merged').length <= 1) throw error;
    // One film's statements failed the page: each written alone, the failing one reported.
    for (let i = 0; i < outcomes.length; i++) {
      const outcome = outcomes[i]!;
      const own = statements[i]!;
      if (!own.length) continue;
      try {
        await db.batch(own as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
      } catch (single) {
        outcomes[i] = { input: outcome.input, outcome: 'failed', error: single instanceof Error ? single.message : String(single) };
      }
    }
  }
  forgetCatalogueVersion(db);
  return { outcomes, alongsideCommitted };
}

const parseKeys = (json: string): string[] => {
  try {
    const v = JSON.parse(json) as unknown;
    return Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
  } catch {
    return [];
  }
};

function identityFromRow(
  row: Pick<StoredRow, 'tmdbType' | 'tmdbId' | 'tmdbSeason' | 'imdbId' | 'originKey' | 'year' | 'kind'>,
): FilmIdentity {
  return {
    tmdbType: row.tmdbType,
    tmdbId: row.tmdbId,
    tmdbSeason: row.tmdbSeason,
    imdbId: row.imdbId,
    originKey: row.originKey,
    year: row.year,
    kind: row.kind,
  };
}

/** The film's id in a statement: its own, or, for a film this batch creates, found by its slug. */
const filmIdSql = (plan: Pick<FilmPlan, 'id' | 'slug'>): SQL =>
  plan.id > 0 ? sql`${plan.id}` : sql`(select ${films.id} from ${films} where ${films.slug} = ${plan.slug})`;

/** Offers the pair to an admin ("Gộp phim"): once per pair, and never again after an admin dismissed it. */
function suggestionInsert(db: Db, filmId: SQL, doubt: Doubt, now: number, plans: ReadonlyMap<number, FilmPlan>): BatchItem<'sqlite'> {
  const other = doubt.filmId > 0 ? sql`${doubt.filmId}` : filmIdSql(plans.get(doubt.filmId)!);
  return db.run(sql`
    insert into ${mergeSuggestions} (film_a, film_b, reason, created_at)
    select min(p.a, p.b), max(p.a, p.b), ${doubt.reason}, ${now} from (select ${filmId} as a, ${other} as b) p
    where p.a is not null and p.b is not null and p.a <> p.b
    on conflict (film_a, film_b) do nothing`);
}

/**
 * One source film's statements: the film's own fields (all of them when this source leads the film, else only what
 * the film lacks; never what an admin changed), its identity completed, the source's item, and the source's
 * servers replaced by what the source sends now (episodes an admin changed or deleted stay as the admin left them).
 */
function plannedSourceWrite(
  db: Db,
  input: FilmInput,
  identity: FilmIdentity,
  plan: FilmPlan,
  item: { itemId: number; label: string } | undefined,
  source: SourceRef,
  read: {
    slugsInUse: Set<string>;
    taxonomy: Record<'genre' | 'country', Map<string, TaxonomyRow>>;
    now: number;
    rank: (sourceId: number | null) => Rank;
  },
): { statements: BatchItem<'sqlite'>[]; addedEpisodes: number[] } {
  const title = input.title.trim();
  if (!title) throw new FilmWriteError('title: required');
  const resolve = (kind: 'genre' | 'country', slugs: readonly string[] | undefined) =>
    slugs &&
    [...new Set(slugs)].map((slug) => {
      const row = read.taxonomy[kind].get(slug);
      if (!row) throw new FilmWriteError(`${kind} '${slug}': unknown`);
      return row;
    });
  const genreRows = resolve('genre', input.genreSlugs);
  const countryRows = resolve('country', input.countrySlugs);
  if (input.episodes) assertUniqueEpisodes(input.episodes);
  const stored = plan.stored;
  const locks = parseLocks(stored?.locked);
  const locked = new Set(locks.fields);
  // The leading source writes the film's fields; another only fills what the film lacks.
  const mine = read.rank(source.id);
  const others = plan.items.filter((i) => i.key !== input.sourceKey);
  const leads = !stored || others.every((i) => rankBefore(mine, read.rank(i.sourceId)) <= 0);
  const updatedAt = input.updatedAt ?? read.now;
  const filmId = filmIdSql(plan);
  const statements: BatchItem<'sqlite'>[] = [];
  const full = completeIdentity(plan.identity, identity);
  const identityValues = {
    tmdbType: full.tmdbType,
    tmdbId: full.tmdbId,
    tmdbSeason: full.tmdbSeason,
    imdbId: full.imdbId,
    originKey: full.originKey,
    kind: full.kind,
  };
  plan.identity = { ...full };

  if (plan.id < 0 && !plan.items.length) {
    // A new film; its first source's key is also its own (films.source_key), as before the registry.
    const values = filmValues(input, title, undefined, genreRows, countryRows);
    statements.push(
      db.insert(films).values({
        ...values,
        ...identityValues,
        slug: plan.slug,
        createdBy: input.actorId ?? null,
        createdAt: input.createdAt ?? updatedAt,
        updatedAt,
      }),
    );
    for (const statement of peopleStatements(filmId, values.director ?? '', values.actors ?? '')) statements.push(db.run(statement));
  } else {
    const values: Record<string, unknown> = {};
    if (leads) {
      const effectiveTitle = locked.has('title') && stored ? stored.title : title;
      const effectiveEnglish =
        locked.has('nameEnglish') && stored ? stored.nameEnglish : (input.nameEnglish?.trim() ?? stored?.nameEnglish ?? '');
      const all = filmValues({ ...input, nameEnglish: effectiveEnglish }, effectiveTitle, stored, genreRows, countryRows);
      for (const [k, v] of Object.entries(all)) if (v !== undefined && !locked.has(LOCK_OF[k] ?? k)) values[k] = v;
      // The stored film's own key and checksum stay its first source's.
      delete values.sourceKey;
      delete values.sourceChecksum;
      if (stored?.filmKey === input.sourceKey) values.sourceChecksum = input.sourceChecksum ?? null;
    } else if (stored) {
      for (const field of FILLABLE) {
        const value = input[field];
        if (locked.has(field) || value === undefined || value === null || value === '') continue;
        if (stored[field] === '' || stored[field] === null) values[field] = typeof value === 'string' ? value.trim() : value;
      }
      if (stored.year === null && input.year && !locked.has('year')) values.year = input.year;
      if (values.nameEnglish !== undefined) values.searchText = fold(`${stored.title} ${values.nameEnglish as string}`);
    }
    statements.push(
      db
        .update(films)
        .set({ ...values, ...identityValues, updatedAt: sql`max(${films.updatedAt}, ${updatedAt})` })
        .where(sql`${films.id} = ${filmId}`),
    );
    if (values.director !== undefined || values.actors !== undefined) {
      const director = (values.director as string | undefined) ?? stored?.director ?? '';
      const actors = (values.actors as string | undefined) ?? stored?.actors ?? '';
      for (const statement of peopleStatements(filmId, director, actors)) statements.push(db.run(statement));
    }
  }
  if (leads && genreRows && !locked.has('genreSlugs')) {
    statements.push(db.delete(filmGenres).where(sql`${filmGenres.filmId} = ${filmId}`));
    if (genreRows.length) statements.push(db.insert(filmGenres).values(genreRows.map((g) => ({ filmId, genreId: g.id }))));
  }
  if (leads && countryRows && !locked.has('countrySlugs')) {
    statements.push(db.delete(filmCountries).where(sql`${filmCountries.filmId} = ${filmId}`));
    if (countryRows.length) statements.push(db.insert(filmCountries).values(countryRows.map((c) => ({ filmId, countryId: c.id }))));
  }

  // The source's item on this film, and the label its servers carry (unique on the film).
  let label = item?.label ?? '';
  if (!label && source.name) label = freeLabel(source.name, new Set(others.map((i) => i.label)));
  const itemValues = {
    sourceId: source.id,
    sourceSlug: input.sourceSlug ?? input.slug ?? '',
    label,
    checksum: input.sourceChecksum ?? null,
    tmdbType: identity.tmdbType,
    tmdbId: identity.tmdbId,
    tmdbSeason: identity.tmdbSeason,
    imdbId: identity.imdbId,
    updatedAt: read.now,
  };
  let itemId: SQL | undefined;
  if (input.sourceKey) {
    if (item) {
      statements.push(db.update(filmSources).set(itemValues).where(eq(filmSources.id, item.itemId)));
      itemId = sql`${item.itemId}`;
    } else {
      statements.push(db.insert(filmSources).values({ ...itemValues, filmId, sourceKey: input.sourceKey, createdAt: read.now }));
      itemId = sql`(select ${filmSources.id} from ${filmSources} where ${filmSources.sourceKey} = ${input.sourceKey})`;
      plan.items.push({ sourceId: source.id, label, key: input.sourceKey });
    }
  }

  let addedEpisodes: number[] = [];
  if (input.episodes) {
    const removed = new Set(locks.removed);
    const rows = input.episodes
      .map((e) => ({ ...e, serverName: labelledServer(e.serverName, label) }))
      .filter((e) => !removed.has(removedEpisodeKey(e.serverName, e.episode)));
    // This source's servers on the film are replaced; what an admin changed stays, and wins a clash.
    if (itemId) statements.push(db.delete(episodes).where(and(sql`${episodes.filmSourceId} = ${itemId}`, isNull(episodes.updatedBy))));
    else statements.push(db.delete(episodes).where(sql`${episodes.filmId} = ${filmId}`));
    for (let i = 0; i < rows.length; i += EPISODE_CHUNK) {
      const chunk = rows.slice(i, i + EPISODE_CHUNK);
      statements.push(
        db
          .insert(episodes)
          .values(chunk.map((e) => ({ ...episodeRow(e, filmId, input.actorId, read.now), filmSourceId: itemId ?? null })))
          .onConflictDoNothing({ target: [episodes.filmId, episodes.serverName, episodes.episode] }),
      );
    }
    if (plan.id > 0) {
      addedEpisodes = newEpisodeNumbers(
        plan.episodes,
        rows.map((e) => e.episode),
      );
      if (addedEpisodes.length) statements.push(releaseInserts(db, filmId, addedEpisodes, read.now));
    }
    for (const e of rows) plan.episodes.add(e.episode);
  }
  return { statements, addedEpisodes };
}

/** filmValues' columns that an admin's lock on a writer field covers ('title' also keeps its folded forms). */
const LOCK_OF: Record<string, string> = { titleFolded: 'title', genreNames: 'genreSlugs', countryNames: 'countrySlugs' };

/** The source's name, or 'Name (2)', 'Name (3)'… when another item of the film already carries it. */
function freeLabel(name: string, used: ReadonlySet<string>): string {
  if (!used.has(name)) return name;
  for (let n = 2; ; n++) if (!used.has(`${name} (${n})`)) return `${name} (${n})`;
}
