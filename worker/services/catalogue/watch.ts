import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { preparedOnce } from '../../db/prepared';
import { episodes, films, filmSources, sources, viewEvents } from '../../db/schema';
import type { Session, Viewer } from '../../lib/context';
import { ApiError, notFound } from '../../lib/errors';
import { type EpisodeResponse, VIP_ERROR_CODES, VIP_MESSAGES } from '../../schemas/catalogue';
import { vipAccess } from './access';
import { batchWithViewer } from '../auth/viewer';
import { filmBySlugStatement, findFilmBySlug } from './film-lookup';
import { serverOrder } from './detail';

export function assertCanWatch(vipOnly: boolean, viewer: Viewer | null): void {
  const access = vipAccess(vipOnly, viewer);
  if (access !== 'allowed') throw new ApiError(access === 'error1' ? 401 : 403, VIP_ERROR_CODES[access], VIP_MESSAGES[access]);
}

/** A film's episode rows of one number (every server) in the film's server order (detail.ts serverOrder), built once per database. */
const episodesStatement = preparedOnce((db: Db) =>
  db
    .select(getTableColumns(episodes))
    .from(episodes)
    .leftJoin(filmSources, eq(filmSources.id, episodes.filmSourceId))
    .leftJoin(sources, eq(sources.id, filmSources.sourceId))
    .where(and(eq(episodes.filmId, sql.placeholder('filmId')), eq(episodes.episode, sql.placeholder('episode'))))
    .orderBy(...serverOrder)
    .prepare(),
);

/**
 * GET /api/product/{slug}/{episode}: one episode's link, on the requested server or the first one. The
 * viewer behind a verified token is read in the film's batch (services/auth/viewer.ts), so signed in it
 * costs the same round trips as signed out.
 */
export async function episodeLink(
  db: Db,
  input: { slug: string; episode: number; server?: string },
  who: { session: Session | null; now: number },
): Promise<EpisodeResponse> {
  // Two statements rather than one batch: on the Node host a batch adds BEGIN and COMMIT, more than the
  // second statement costs; on Workers two round trips are within the budget (tests/api/hardening-round-trips.test.ts).
  const {
    viewer,
    results: [[film]],
  } = await batchWithViewer(db, who.session, who.now, [filmBySlugStatement(db)], { slug: input.slug });
  if (!film) throw notFound('Không tìm thấy phim');
  assertCanWatch(film.vipOnly, viewer);
  const rows = await episodesStatement(db).all({ filmId: film.id, episode: input.episode });
  const row = rows.find((r) => r.serverName === input.server) ?? rows[0];
  if (!row) throw notFound(`Không tìm thấy tập ${input.episode}`);
  return {
    data: {
      title: film.title,
      slug: film.slug,
      episode: row.episode,
      server_name: row.serverName,
      linkfilm: row.m3u8Url || row.embedUrl,
      link_m3u8: row.m3u8Url,
      link_embed: row.embedUrl,
    },
  };
}

/**
 * POST /api/product/update_view: one view event (trending) and the film's running total. A visit the
 * VIP rule refuses is not a view: it answers like the episode link (401/403) and counts nothing, so a
 * film most visitors could not open never tops the trending lists.
 */
export async function recordView(db: Db, slug: string, now: number, viewer: Viewer | null): Promise<{ views: number }> {
  const film = await findFilmBySlug(db, slug);
  if (!film) throw notFound('title: không tìm thấy phim');
  assertCanWatch(film.vipOnly, viewer);
  const filmId = film.id;
  const [, updated] = await db.batch([
    db.insert(viewEvents).values({ filmId, viewedAt: now }),
    db
      .update(films)
      .set({ views: sql`${films.views} + 1` })
      .where(eq(films.id, filmId))
      .returning({ views: films.views }),
  ]);
  return { views: updated[0]?.views ?? 0 };
}
