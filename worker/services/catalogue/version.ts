// The catalogue version public caches key their entries by (docs/decisions/0900-edge-cache.md). Triggers raise it
// on every catalogue write (drizzle/0008_catalogue_version.sql), whoever the writer; this process reads it at most
// once per `maxAgeMs`, so a cache hit usually costs no round trip, and forgets it after its own writes.
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { catalogueVersion as versionTable } from '../../db/schema';

interface Known {
  version: number;
  readAt: number;
  /** A read in flight: concurrent requests share it. */
  pending?: Promise<number>;
}

const known = new WeakMap<Db, Known>();

/**
 * The catalogue's version as this process last read it, read again when older than `maxAgeMs`: another
 * process's (isolate's) write reaches this one's cache keys within `maxAgeMs`.
 */
export async function catalogueVersion(db: Db, now: number, maxAgeMs: number): Promise<number> {
  const entry = known.get(db);
  if (entry && now - entry.readAt < maxAgeMs) return entry.version;
  if (entry?.pending) return entry.pending;
  const pending = readVersion(db).then(
    (version) => {
      known.set(db, { version, readAt: now });
      return version;
    },
    (error: unknown) => {
      known.delete(db);
      throw error;
    },
  );
  known.set(db, { version: entry?.version ?? -1, readAt: entry?.readAt ?? Number.NEGATIVE_INFINITY, pending });
  return pending;
}

async function readVersion(db: Db): Promise<number> {
  const [row] = await db.select({ version: versionTable.version }).from(versionTable).where(eq(versionTable.id, 1));
  return row?.version ?? 0;
}

/** After a catalogue write in this process: its next public read asks the database, not what it knew. */
export function forgetCatalogueVersion(db: Db): void {
  known.delete(db);
}
