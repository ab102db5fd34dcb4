// A reconnecting page's catch-up (GET …/comments?since=) reads what it missed with two seeks, however long the film's
// thread (issue 38 §3: 2,000 sockets reconnect to a premiere of 20,000 comments). Walking the film's comments made each
// catch-up cost grow with the thread: 2.5 + 4.5 ms at 20,000 comments on a desktop CPU, against 0.5 + 0.6 ms now.
import { describe, expect, it } from 'vitest';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { MIGRATIONS_DIR, openDatabase } from '../../worker/db/node-client';
import { filmCommentsQuery, withdrawnCommentsQuery } from '../../worker/services/comments/comments';

async function plan(query: { toSQL(): { sql: string; params: unknown[] } }) {
  const { client } = openDatabase(':memory:');
  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
  const { sql, params } = query.toSQL();
  const rows = (await client.execute({ sql: `explain query plan ${sql}`, args: params as never })).rows;
  client.close();
  return rows.map((r) => String(r.detail));
}

describe('the catch-up reads', () => {
  const db = drizzle(openDatabase(':memory:').client);

  it('what is newer than the page holds: a range of the film index from that id', async () => {
    const steps = await plan(filmCommentsQuery(db as never, 7, 0, 19_980));
    expect(steps).toContain('SEARCH comments USING INDEX comments_film_id (film_id=? AND id>?)');
  });

  it('what it holds that was taken down: a seek per status, not the film walked in id order', async () => {
    const steps = await plan(withdrawnCommentsQuery(db as never, 7, 19_980));
    expect(steps).toContain('SEARCH comments USING COVERING INDEX comments_film_status_id (film_id=? AND status=? AND id<?)');
  });
});
