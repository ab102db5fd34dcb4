// A film's people rows, derived from films.director / films.actors whenever a writer sets them (the crawler's batch
// and the admin's edits alike, services/films/film-writer.ts): the film's film_people replaced, new names added to
// people (first spelling kept). Plain SQL so the batch writer sends it in its one batch.
import { type SQL, sql } from 'drizzle-orm';
import { fold } from '../../db/fold';
import { filmPeople, people } from '../../db/schema';
import { namesOf, type PersonRole, personSlug } from './names';

/** The statements that make `filmId`'s people those named by `director` and `actors` ('A, B'). */
export function peopleStatements(filmId: SQL, director: string, actors: string): SQL[] {
  const rows: { slug: string; name: string; role: PersonRole; position: number }[] = [];
  for (const [role, text] of [
    ['director', director],
    ['actor', actors],
  ] as const)
    for (const [position, name] of namesOf(text).entries()) rows.push({ slug: personSlug(name), name, role, position });
  const statements: SQL[] = [sql`delete from ${filmPeople} where ${filmPeople.filmId} = ${filmId}`];
  if (!rows.length) return statements;
  const unique = [...new Map(rows.map((r) => [r.slug, r])).values()];
  statements.push(
    sql`insert into ${people} (slug, name, folded) values ${sql.join(
      unique.map((r) => sql`(${r.slug}, ${r.name}, ${fold(r.name)})`),
      sql`, `,
    )} on conflict (slug) do nothing`,
  );
  statements.push(
    sql`insert into ${filmPeople} (film_id, person_id, role, position)
      select ${filmId}, p.id, v.column2, v.column3 from (values ${sql.join(
        rows.map((r) => sql`(${r.slug}, ${r.role}, ${r.position})`),
        sql`, `,
      )}) v join ${people} p on p.slug = v.column1
      where ${filmId} is not null
      on conflict do nothing`,
  );
  return statements;
}
