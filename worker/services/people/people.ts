// People pages and suggestions (issue 40 §1, docs/decisions/1070-people.md): /dien-vien/{slug} and /dao-dien/{slug}
// read the person, how many films they have in the role and a page of those films newest first, in one batch; search
// suggestions add the people whose folded name starts with the query.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { batchPrepared, preparedOnce } from '../../db/prepared';
import { filmPeople, films, people } from '../../db/schema';
import { notFound } from '../../lib/errors';
import { PAGE_SIZE } from '../../schemas/taxonomy';
import type { PersonPageData, PersonRole, PersonSuggestion } from '../../schemas/discovery';
import { cardList, cardsFromJson, selectCards } from '../catalogue/film-card';
import { pagination } from '../catalogue/listing';

const p = {
  slug: sql.placeholder('slug'),
  role: sql.placeholder('role'),
  limit: sql.placeholder('limit'),
  offset: sql.placeholder('offset'),
  folded: sql.placeholder('folded'),
  upper: sql.placeholder('upper'),
  peopleLimit: sql.placeholder('peopleLimit'),
};

const personId = sql`(select ${people.id} from ${people} where ${people.slug} = ${p.slug})`;

const statementsFor = preparedOnce((db: Db) => ({
  page: [
    db.select({ slug: people.slug, name: people.name }).from(people).where(eq(people.slug, p.slug)).prepare(),
    db
      .select({ n: sql<number>`count(*)` })
      .from(filmPeople)
      .where(and(sql`${filmPeople.personId} = ${personId}`, sql`${filmPeople.role} = ${p.role}`))
      .prepare(),
    cardList(
      db,
      selectCards(db)
        .innerJoin(filmPeople, eq(filmPeople.filmId, films.id))
        .where(and(sql`${filmPeople.personId} = ${personId}`, sql`${filmPeople.role} = ${p.role}`))
        .orderBy(desc(films.year), desc(films.createdAt), desc(films.id))
        .limit(p.limit as unknown as number)
        .offset(p.offset as unknown as number),
    ).prepare(),
  ] as const,
  // Names starting with the query (people_folded's range), each role its own suggestion with its film count.
  suggestions: db
    .select({ slug: people.slug, name: people.name, role: filmPeople.role, films: sql<number>`count(*)` })
    .from(people)
    .innerJoin(filmPeople, eq(filmPeople.personId, people.id))
    .where(sql`${people.folded} >= ${p.folded} and ${people.folded} < ${p.upper}`)
    .groupBy(people.id, filmPeople.role)
    .orderBy(sql`${people.folded} = ${p.folded} desc`, sql`count(*) desc`, people.id)
    .limit(p.peopleLimit as unknown as number)
    .prepare(),
}));

/** GET /api/people/{role}/{slug}?page=: the person's films in that role, newest first, PAGE_SIZE a page; 404 for no one. */
export async function personPage(db: Db, input: { role: PersonRole; slug: string; page: number }): Promise<PersonPageData> {
  const [[person], [count], list] = await batchPrepared(db, statementsFor(db).page, {
    slug: input.slug,
    role: input.role,
    limit: PAGE_SIZE,
    offset: (input.page - 1) * PAGE_SIZE,
  });
  const total = count?.n ?? 0;
  if (!person || total === 0) throw notFound('Không tìm thấy người này');
  return { person: { ...person, role: input.role }, data: cardsFromJson(list), pagination: pagination(input.page, PAGE_SIZE, total) };
}

/** The statement and its values for search suggestions' people, to go in the search's batch. */
export function peopleSuggestionStatement(db: Db) {
  return statementsFor(db).suggestions;
}

export const PEOPLE_SUGGESTIONS = 3;

export function toPersonSuggestions(rows: readonly { slug: string; name: string; role: string; films: number }[]): PersonSuggestion[] {
  return rows.map((r) => ({ slug: r.slug, name: r.name, role: r.role === 'director' ? 'director' : 'actor', films: r.films }));
}
