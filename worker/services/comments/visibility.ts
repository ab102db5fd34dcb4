// A comment that appears or disappears for everyone changes what public pages show: the film page and its detail
// read are cached for visitors (public read cache, edge cache), keyed by the catalogue version
// (docs/decisions/0900-edge-cache.md). Raising the version with the change takes the old copies out of use at once.
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { catalogueVersion } from '../../db/schema';
import type { FilmTx } from '../films/film-writer';

/** The update that raises the catalogue version, when `condition` holds as the statement runs (always without one). */
export function bumpCatalogueVersion(db: Db | FilmTx, condition?: SQL) {
  return db
    .update(catalogueVersion)
    .set({ version: sql`${catalogueVersion.version} + 1` })
    .where(and(eq(catalogueVersion.id, 1), condition));
}
