// The one way a film is written (crawler now, admin add/edit later): every derived field — slug,
// folded search text, denormalised genre/country names, links and episodes — is computed here, inside
// one transaction, so no caller can leave a film half-written or its search text stale.
import { eq, inArray, like, or } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { fold, slugify } from '../../db/fold';
import { countries, episodes, filmCountries, filmGenres, films, genres } from '../../db/schema';
import { RESERVED_FILM_SLUGS, type CategoryId } from '../../schemas/taxonomy';
import { assertNotDeleted } from './deleted-films';
import { episodeNumbers, recordEpisodeReleases } from '../library/episode-releases';

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

    const nameEnglish = input.nameEnglish?.trim() ?? existing?.nameEnglish ?? '';
    const values = {
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
        const by = input.actorId ?? null;
        await tx.insert(episodes).values(chunk.map((e) => ({ ...e, filmId: id, createdBy: by, updatedBy: by, createdAt: now })));
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
  const base = slugify(preferred) || 'phim';
  // Slugs are [a-z0-9-] only, so the LIKE pattern holds no wildcard but the one added here.
  const rows = await tx
    .select({ slug: films.slug })
    .from(films)
    .where(or(eq(films.slug, base), like(films.slug, `${base}-%`)));
  const taken = new Set(rows.map((r) => r.slug));
  const free = (s: string) => !taken.has(s) && !RESERVED_FILM_SLUGS.has(s);
  if (free(base)) return base;
  for (let n = 2; ; n++) {
    const candidate = `${base}-${n}`;
    if (free(candidate)) return candidate;
  }
}
