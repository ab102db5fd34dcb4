import { sql } from 'drizzle-orm';
import { CATEGORIES, COUNTRIES, GENRES } from '../schemas/taxonomy';
import type { Db } from './client';
import { categories, countries, genres } from './schema';

/** Upserts the fixed taxonomy rows from schemas/taxonomy.ts (the single source of truth); idempotent. */
export async function seedTaxonomy(db: Db): Promise<void> {
  await db.batch([
    db
      .insert(categories)
      .values(CATEGORIES.map(({ id, slug, name }) => ({ id, slug, name })))
      .onConflictDoUpdate({ target: categories.id, set: { slug: sql`excluded.slug`, name: sql`excluded.name` } }),
    db
      .insert(genres)
      .values(GENRES.map(({ slug, name }) => ({ slug, name })))
      .onConflictDoUpdate({ target: genres.slug, set: { name: sql`excluded.name` } }),
    db
      .insert(countries)
      .values(COUNTRIES.map(({ slug, name }) => ({ slug, name })))
      .onConflictDoUpdate({ target: countries.slug, set: { name: sql`excluded.name` } }),
  ]);
}
