// Ratings in erasure and export (docs/decisions/1041, docs/export-format.md).
import { asc, eq } from 'drizzle-orm';
import { films, ratings } from '../../db/schema';
import type { EraseStep, ExportSection } from '../../lib/duties';

export const eraseRatings: EraseStep = {
  name: 'ratings',
  async erase(tx, member) {
    await tx.delete(ratings).where(eq(ratings.userId, member.id));
  },
};

export const exportRatings: ExportSection = {
  key: 'ratings',
  read: (db, userId) =>
    db
      .select({ film: films.slug, title: films.title, stars: ratings.stars, createdAt: ratings.createdAt, updatedAt: ratings.updatedAt })
      .from(ratings)
      .innerJoin(films, eq(films.id, ratings.filmId))
      .where(eq(ratings.userId, userId))
      .orderBy(asc(ratings.createdAt), asc(films.slug)),
};
