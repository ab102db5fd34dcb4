// "Bình luận (N)" reads a row that triggers keep (issue 38 §1: a premiere's 20,000 comments are not counted on
// every film page). The count must follow every way a comment comes, goes or moves: a post, a held comment
// approved, a removal, a member's erasure deleting rows, a film merge moving a thread; and the migration that adds
// it counts what a database already holds.
import { eq, inArray } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR, openDatabase } from '../../worker/db/node-client';
import { migrationsBefore } from '../helpers/migrations';
import { comments, filmCommentCounts } from '../../worker/db/schema';
import type { FilmDetailResponse } from '../../worker/schemas/catalogue';
import { createTestApp, type TestApp } from '../helpers/app';
import { createUser, insertFilm } from '../helpers/auth';

const total = async (t: TestApp, slug: string) => {
  const res = await t.request(`/api/product/${slug}`);
  expect(res.status).toBe(200);
  return ((await res.json()) as FilmDetailResponse).comments_total;
};

describe('the film count of visible comments', () => {
  it('follows posts, approvals, removals, deletions and a thread moved to another film', async () => {
    const t = await createTestApp();
    const { db } = t.deps;
    const a = await insertFilm(db, 'mat-biec', 'Mắt Biếc');
    const b = await insertFilm(db, 'mat-biec-2019', 'Mắt Biếc (2019)');
    const member = await createUser(db, { name: 'Hà Lan' });
    const base = { userId: member.id, createdAt: Date.now() };
    expect(await total(t, 'mat-biec')).toBe(0);

    const ids = (
      await db
        .insert(comments)
        .values([
          { ...base, filmId: a, body: 'Một' },
          { ...base, filmId: a, body: 'Hai' },
          { ...base, filmId: a, body: 'Ba', status: 'held' },
          { ...base, filmId: b, body: 'Bốn' },
        ])
        .returning({ id: comments.id })
    ).map((r) => r.id);
    expect([await total(t, 'mat-biec'), await total(t, 'mat-biec-2019')]).toEqual([2, 1]);

    // A moderator approves the held one, then removes the first.
    await db.update(comments).set({ status: 'visible' }).where(eq(comments.id, ids[2]!));
    await db.update(comments).set({ status: 'removed' }).where(eq(comments.id, ids[0]!));
    // A change that is not a status or a film moves nothing.
    await db.update(comments).set({ body: 'Hai (sửa)' }).where(eq(comments.id, ids[1]!));
    expect(await total(t, 'mat-biec')).toBe(2);

    // The two films merged: the thread moves to the kept film.
    await db.update(comments).set({ filmId: b }).where(eq(comments.filmId, a));
    expect([await total(t, 'mat-biec'), await total(t, 'mat-biec-2019')]).toEqual([0, 3]);

    // An erasure that deletes the member's comments (a removed one counts for nothing).
    await db.delete(comments).where(inArray(comments.id, [ids[0]!, ids[1]!]));
    expect(await total(t, 'mat-biec-2019')).toBe(2);
  });

  it('is counted by its migration from the comments a database already holds', async () => {
    const TAG = '20261128063155_film_comment_counts';
    const before = migrationsBefore(TAG);
    try {
      const database = openDatabase(':memory:');
      await migrate(database.db, { migrationsFolder: before.folder });
      const { db } = database;
      await database.client.execute("insert or ignore into categories (id, slug, name) values (24, 'phim-le', 'Phim lẻ')");
      const film = await insertFilm(db, 'bo-gia', 'Bố Già');
      const member = await createUser(db, { name: 'Ba Sang' });
      await db.insert(comments).values(
        ['visible', 'visible', 'visible', 'held', 'removed'].map((status, i) => ({
          filmId: film,
          userId: member.id,
          createdAt: i,
          body: `Bình luận ${i}`,
          status: status as 'visible',
        })),
      );
      await migrate(db, { migrationsFolder: MIGRATIONS_DIR });
      expect(await db.select({ visible: filmCommentCounts.visible }).from(filmCommentCounts)).toEqual([{ visible: 3 }]);
      database.client.close();
    } finally {
      before.remove();
    }
  });
});
