// The catalogue versions public caches key their entries by (docs/decisions/0900-edge-cache.md, 1020). Triggers
// raise them on every catalogue write, whoever the writer, and say what the write concerns: one film's pages, the
// lists, or (a raise naming no film) every page. This process reads them at most once per `maxAgeMs`, in one
// round trip that also brings the films changed since its last read, so a cache hit usually costs none; it forgets
// them after its own writes.
import { eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { catalogueVersion as versionTable, filmVersions } from '../../db/schema';

/** The versions as of one read. Each is a value of the one sequence `version`, so they compare. */
export interface CatalogueVersions {
  /** Raised by every catalogue change: the app's film-record cache follows it. */
  version: number;
  /** The last change that can move a list (a film added, deleted, renamed, a card's field, an episode added). */
  lists: number;
  /** The last change that concerns every page (a raise that named no film). */
  epoch: number;
}

/** What a cached response depends on: one film's pages, the lists (home, listings, search, sitemaps), or anything. */
export type CacheScope = { film: string } | 'lists' | 'all';

interface Known extends CatalogueVersions {
  readAt: number;
  /** Film slugs this process has asked about → the version of their last change, kept current by each read. */
  films: Map<string, number>;
  /** A read in flight: concurrent requests share it. */
  pending?: Promise<void>;
  /** A first read of one film's version in flight, per slug. */
  filmPending: Map<string, Promise<void>>;
}

/** Changed films one read brings at most; more (a large crawl) and the process forgets every film's version. */
const DELTA_LIMIT = 500;
/** Films whose version a process keeps; past it they are forgotten and read again when asked. */
const FILMS_KEPT = 50_000;

const known = new WeakMap<Db, Known>();

function entryOf(db: Db): Known {
  let entry = known.get(db);
  if (!entry) {
    entry = { version: -1, lists: -1, epoch: -1, readAt: Number.NEGATIVE_INFINITY, films: new Map(), filmPending: new Map() };
    known.set(db, entry);
  }
  return entry;
}

/**
 * One round trip: the versions, the films changed since what this process has seen (so the films it knows stay
 * current without asking about each), and optionally one film's own version (its first use here). Applied with
 * max: reads finishing out of order never take a version back.
 */
async function read(db: Db, entry: Known, now: number, slug?: string): Promise<void> {
  const seen = entry.version;
  // A first read needs no changes: it knows no film yet.
  const since = seen >= 0 ? seen : Number.MAX_SAFE_INTEGER;
  const head = db
    .select({ version: versionTable.version, lists: versionTable.lists, epoch: versionTable.epoch })
    .from(versionTable)
    .where(eq(versionTable.id, 1));
  const delta = db
    .select({ slug: filmVersions.slug, version: filmVersions.version })
    .from(filmVersions)
    .where(gt(filmVersions.version, since))
    .orderBy(filmVersions.version)
    .limit(DELTA_LIMIT + 1);
  const one = db
    .select({ version: filmVersions.version })
    .from(filmVersions)
    .where(eq(filmVersions.slug, slug ?? sql`null`));
  const [[row], changed, own] = slug === undefined ? [...(await db.batch([head, delta])), []] : await db.batch([head, delta, one]);
  const current = row ?? { version: 0, lists: 0, epoch: 0 };
  // Every changed film is noted, known or not: a first read of one film that started earlier and ends later
  // must not leave it at an older version (applied with max).
  if (entry.films.size + changed.length > FILMS_KEPT || changed.length > DELTA_LIMIT) entry.films.clear();
  else for (const film of changed) raise(entry.films, film.slug, film.version);
  // A film's own version is taken only from a read at least as recent as every one applied so far: an older one
  // may predate a change that the newer read's list noted for films this process then did not know.
  if (slug !== undefined && current.version >= entry.version) raise(entry.films, slug, own[0]?.version ?? 0);
  if (current.version >= entry.version) {
    entry.version = current.version;
    entry.lists = Math.max(entry.lists, current.lists);
    entry.epoch = Math.max(entry.epoch, current.epoch);
    entry.readAt = now;
  }
}

function raise(films: Map<string, number>, slug: string, version: number) {
  films.set(slug, Math.max(films.get(slug) ?? 0, version));
}

/**
 * The catalogue's versions as this process last read them, read again when older than `maxAgeMs`: another
 * process's (isolate's) write reaches this one's cache keys within `maxAgeMs`.
 */
export async function catalogueVersions(db: Db, now: number, maxAgeMs: number): Promise<CatalogueVersions> {
  const entry = entryOf(db);
  if (now - entry.readAt >= maxAgeMs) {
    if (!entry.pending) {
      const pending = read(db, entry, now).finally(() => {
        if (entry.pending === pending) entry.pending = undefined;
      });
      entry.pending = pending;
    }
    await entry.pending;
  }
  return { version: entry.version, lists: entry.lists, epoch: entry.epoch };
}

/** The version every catalogue change raises (the app's own caches follow it). */
export async function catalogueVersion(db: Db, now: number, maxAgeMs: number): Promise<number> {
  return (await catalogueVersions(db, now, maxAgeMs)).version;
}

/**
 * The version a response of `scope` is keyed by: a film's pages change with that film (or a change of every page),
 * lists with any change that can move a list, anything else with every change. A film this process has not asked
 * about before costs one read (with the versions' own, in the same round trip); after that each periodic read
 * keeps it current.
 */
export async function scopeVersion(db: Db, scope: CacheScope, now: number, maxAgeMs: number): Promise<number> {
  const versions = await catalogueVersions(db, now, maxAgeMs);
  if (scope === 'all') return versions.version;
  if (scope === 'lists') return Math.max(versions.epoch, versions.lists);
  const entry = entryOf(db);
  let film = entry.films.get(scope.film);
  if (film === undefined) {
    let pending = entry.filmPending.get(scope.film);
    if (!pending) {
      pending = read(db, entry, now, scope.film).finally(() => entry.filmPending.delete(scope.film));
      entry.filmPending.set(scope.film, pending);
    }
    await pending;
    film = entry.films.get(scope.film);
    // Read out of order with a newer one (or forgotten at once): key by every change, never by an old version.
    if (film === undefined) return entry.version;
  }
  return Math.max(entry.epoch, film);
}

/** After a catalogue write in this process: its next public read asks the database, not what it knew. */
export function forgetCatalogueVersion(db: Db): void {
  const entry = known.get(db);
  if (entry) entry.readAt = Number.NEGATIVE_INFINITY;
}
