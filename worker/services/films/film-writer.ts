// The one way a film is written: every derived field — slug, folded search text, denormalised genre/country
// names, links and episodes — is computed here (filmValues), inside one transaction, so no caller can leave a
// film half-written or its search text stale. upsertFilm writes one film (admin add/edit, with hooks inside
// its transaction); upsertFilms a crawled page of them, as statements sent in one batch.
import { eq, inArray, like, or, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { Db } from '../../db/client';
import { fold, slugify } from '../../db/fold';
import { countries, episodes, filmCountries, filmGenres, films, genres } from '../../db/schema';
import { RESERVED_FILM_SLUGS, type CategoryId } from '../../schemas/taxonomy';
import { forgetCatalogueVersion } from '../catalogue/version';
import { episodeNumbers, newEpisodeNumbers, recordEpisodeReleases, releaseInserts } from '../library/episode-releases';
import { assertNotDeleted, deletedSourceKeys } from './deleted-films';

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
    genreNames: genreRows?.map((g) => g.name).join(', '),
    countryNames: countryRows?.map((c) => c.name).join(', '),
    titleFolded: fold(title),
    searchText: fold(`${title} ${nameEnglish}`),
    sourceKey: input.sourceKey,
    sourceChecksum: input.sourceChecksum,
    updatedBy: input.actorId ?? null,
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
    .select({ id: films.id, slug: films.slug, nameEnglish: films.nameEnglish, checksum: films.sourceChecksum })
    .from(films)
    .where(eq(films.sourceKey, sourceKey));
  return row;
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
  const rows = await tx.select({ slug: films.slug }).from(films).where(slugsLike(base));
  return freeSlug(base, new Set(rows.map((r) => r.slug)));
}

const slugBase = (preferred: string) => slugify(preferred) || 'phim';
// Slugs are [a-z0-9-] only, so the LIKE pattern holds no wildcard but the one added here.
const slugsLike = (base: string) => or(eq(films.slug, base), like(films.slug, `${base}-%`));

/** The base itself when free, else the first free base-2, base-3… (`taken`: slugs in use). */
function freeSlug(base: string, taken: ReadonlySet<string>): string {
  const free = (s: string) => !taken.has(s) && !RESERVED_FILM_SLUGS.has(s);
  if (free(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (free(candidate)) return candidate;
  }
}

/** What happened to one film of a batch: written (new or updated), left as it was, or refused with a reason. */
export type BatchFilmOutcome =
  | { input: FilmInput; outcome: 'new' | 'updated'; slug: string; addedEpisodes: number[] }
  | { input: FilmInput; outcome: 'skipped'; deleted?: true }
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
  /** Leaves a stored film as it is (the crawler: its source checksum is unchanged). */
  skip?: (input: FilmInput, stored: StoredFilm | undefined) => boolean;
  /**
   * Statements that commit in the same batch as the films (the crawl run's progress), given the outcomes.
   * Not sent when the page batch fails and the films are written one by one (`alongsideCommitted` false).
   */
  alongside?: (outcomes: readonly BatchFilmOutcome[]) => BatchItem<'sqlite'>[];
}

/**
 * Writes films matched by their source key (a crawled page of them): everything the statements depend on
 * is read in one batch (stored films, taxonomy, slugs in use), then every film's statements and
 * `alongside` go to the database as one batch, a transaction: two round trips for the page, not a dozen
 * per film. Derived fields are computed as upsertFilm computes them (filmValues). A film the writer refuses
 * (an unknown genre, duplicated episodes) is reported, not written; when the page batch fails in the
 * database, the films are written one batch each, so one bad film does not hold back the others.
 */
export async function upsertFilms(
  db: Db,
  inputs: readonly FilmInput[],
  options: UpsertFilmsOptions = {},
): Promise<{ outcomes: BatchFilmOutcome[]; alongsideCommitted: boolean }> {
  const now = (options.now ?? Date.now)();
  const keys = inputs.map((i) => i.sourceKey).filter((k): k is string => !!k);
  const bases = [...new Set(inputs.map((i) => slugBase(i.slug || i.title.trim())))];
  const genreSlugs = [...new Set(inputs.flatMap((i) => i.genreSlugs ?? []))];
  const countrySlugs = [...new Set(inputs.flatMap((i) => i.countrySlugs ?? []))];
  const none = sql`0`;
  const [stored, taken, genreRows, countryRows, deleted, storedEpisodes] = await db.batch([
    db
      .select({
        id: films.id,
        slug: films.slug,
        nameEnglish: films.nameEnglish,
        checksum: films.sourceChecksum,
        sourceKey: films.sourceKey,
      })
      .from(films)
      .where(keys.length ? inArray(films.sourceKey, keys) : none),
    db
      .select({ slug: films.slug })
      .from(films)
      .where(bases.length ? or(...bases.map(slugsLike)) : none),
    db
      .select({ id: genres.id, slug: genres.slug, name: genres.name })
      .from(genres)
      .where(genreSlugs.length ? inArray(genres.slug, genreSlugs) : none),
    db
      .select({ id: countries.id, slug: countries.slug, name: countries.name })
      .from(countries)
      .where(countrySlugs.length ? inArray(countries.slug, countrySlugs) : none),
    deletedSourceKeys(db, keys),
    // The stored films' episode numbers: what a write adds is a new episode (services/library/episode-releases.ts).
    db
      .selectDistinct({ sourceKey: films.sourceKey, episode: episodes.episode })
      .from(episodes)
      .innerJoin(films, eq(films.id, episodes.filmId))
      .where(keys.length ? inArray(films.sourceKey, keys) : none),
  ]);
  const deletedKeys = new Set(deleted.map((d) => d.sourceKey));
  const episodesByKey = new Map<string | null, Set<number>>();
  for (const e of storedEpisodes) {
    const numbers = episodesByKey.get(e.sourceKey) ?? new Set<number>();
    numbers.add(e.episode);
    episodesByKey.set(e.sourceKey, numbers);
  }
  const storedByKey = new Map(stored.map((f) => [f.sourceKey, f]));
  const slugsInUse = new Set(taken.map((r) => r.slug));
  const taxonomy = { genre: new Map(genreRows.map((g) => [g.slug, g])), country: new Map(countryRows.map((c) => [c.slug, c])) };

  const outcomes: BatchFilmOutcome[] = [];
  const statements: BatchItem<'sqlite'>[][] = [];
  for (const input of inputs) {
    const existing = input.sourceKey ? storedByKey.get(input.sourceKey) : undefined;
    if (options.skip?.(input, existing)) {
      outcomes.push({ input, outcome: 'skipped' });
      statements.push([]);
      continue;
    }
    // An admin deleted it: it stays deleted until restored (docs/decisions/0700-deleted-films-stay-deleted.md).
    if (!existing && input.sourceKey && deletedKeys.has(input.sourceKey)) {
      outcomes.push({ input, outcome: 'skipped', deleted: true });
      statements.push([]);
      continue;
    }
    try {
      const before = existing ? (episodesByKey.get(existing.sourceKey) ?? new Set<number>()) : undefined;
      const planned = plannedWrite(db, input, existing, before, { slugsInUse, taxonomy, now });
      outcomes.push({ input, outcome: existing ? 'updated' : 'new', slug: planned.slug, addedEpisodes: planned.addedEpisodes });
      statements.push(planned.statements);
    } catch (error) {
      if (!(error instanceof FilmWriteError)) throw error;
      outcomes.push({ input, outcome: 'failed', error: error.message });
      statements.push([]);
    }
  }
  const everything = [...statements.flat(), ...(options.alongside?.(outcomes) ?? [])];
  let alongsideCommitted = true;
  try {
    if (everything.length) await db.batch(everything as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  } catch (error) {
    alongsideCommitted = false;
    if (outcomes.filter((o) => o.outcome === 'new' || o.outcome === 'updated').length <= 1) throw error;
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

/** One film's statements for upsertFilms, from what was read; throws FilmWriteError for input it refuses. */
function plannedWrite(
  db: Db,
  input: FilmInput,
  existing: (StoredFilm & { sourceKey: string | null }) | undefined,
  episodesBefore: ReadonlySet<number> | undefined,
  read: { slugsInUse: Set<string>; taxonomy: Record<'genre' | 'country', Map<string, TaxonomyRow>>; now: number },
): { statements: BatchItem<'sqlite'>[]; slug: string; addedEpisodes: number[] } {
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
  const values = filmValues(input, title, existing, genreRows, countryRows);
  const updatedAt = input.updatedAt ?? read.now;

  const statements: BatchItem<'sqlite'>[] = [];
  let slug: string;
  if (existing) {
    slug = existing.slug;
    statements.push(
      db
        .update(films)
        .set({ ...values, updatedAt })
        .where(eq(films.id, existing.id)),
    );
  } else {
    slug = freeSlug(slugBase(input.slug || title), read.slugsInUse);
    read.slugsInUse.add(slug);
    statements.push(
      db.insert(films).values({ ...values, slug, createdBy: input.actorId ?? null, createdAt: input.createdAt ?? updatedAt, updatedAt }),
    );
  }
  // A new film's id is known only once inserted: later statements find it by its slug.
  const filmId = existing ? sql`${existing.id}` : sql`(select ${films.id} from ${films} where ${films.slug} = ${slug})`;
  if (genreRows) {
    statements.push(db.delete(filmGenres).where(sql`${filmGenres.filmId} = ${filmId}`));
    if (genreRows.length) statements.push(db.insert(filmGenres).values(genreRows.map((g) => ({ filmId, genreId: g.id }))));
  }
  if (countryRows) {
    statements.push(db.delete(filmCountries).where(sql`${filmCountries.filmId} = ${filmId}`));
    if (countryRows.length) statements.push(db.insert(filmCountries).values(countryRows.map((c) => ({ filmId, countryId: c.id }))));
  }
  let addedEpisodes: number[] = [];
  if (input.episodes) {
    statements.push(db.delete(episodes).where(sql`${episodes.filmId} = ${filmId}`));
    for (let i = 0; i < input.episodes.length; i += EPISODE_CHUNK) {
      const chunk = input.episodes.slice(i, i + EPISODE_CHUNK);
      statements.push(db.insert(episodes).values(chunk.map((e) => episodeRow(e, filmId, input.actorId, read.now))));
    }
    if (episodesBefore) {
      addedEpisodes = newEpisodeNumbers(
        episodesBefore,
        input.episodes.map((e) => e.episode),
      );
      if (addedEpisodes.length) statements.push(releaseInserts(db, filmId, addedEpisodes, read.now));
    }
  }
  return { statements, slug, addedEpisodes };
}
