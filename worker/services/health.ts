import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';

/** Resolves once the database answers a real query; rejects (a 500 from the route) when it cannot. */
export async function checkDatabase(db: Db): Promise<void> {
  await db.run(sql`select 1`);
}
