// Films an admin deleted stay deleted (docs/decisions/0700-deleted-films-stay-deleted.md): a delete
// leaves a row in deleted_films keyed by the film's source key; every crawl (admin, scheduled, CLI)
// asks isSourceDeleted before writing, and the film writer refuses to create a deleted source key
// inside its own transaction, so a crawl racing the delete cannot bring the film back either.
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { deletedFilms } from '../../db/schema';

/** The film writer's refusal: this source key was deleted by an admin and has not been restored. */
export class FilmDeletedError extends Error {
  override readonly name = 'FilmDeletedError';
}

type Reader = Pick<Db, 'select'>;

/** True when an admin deleted the film imported from this source key (and nobody restored it). */
export async function isSourceDeleted(db: Reader, sourceKey: string): Promise<boolean> {
  const [row] = await db.select({ id: deletedFilms.id }).from(deletedFilms).where(eq(deletedFilms.sourceKey, sourceKey)).limit(1);
  return !!row;
}

/** Throws FilmDeletedError for a deleted source key; the film writer calls it before creating a film. */
export async function assertNotDeleted(db: Reader, sourceKey: string): Promise<void> {
  if (await isSourceDeleted(db, sourceKey)) throw new FilmDeletedError(`source ${sourceKey}: deleted by an admin`);
}

/** The select of which of these source keys are deleted: the batch writer reads it with the stored films. */
export function deletedSourceKeys(db: Reader, sourceKeys: readonly string[]) {
  return db
    .select({ sourceKey: deletedFilms.sourceKey })
    .from(deletedFilms)
    .where(sourceKeys.length ? inArray(deletedFilms.sourceKey, [...sourceKeys]) : sql`0`);
}
