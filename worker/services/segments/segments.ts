// Intros and credits learned from how viewers skip (issue 40 §7, docs/decisions/1100-intros-learned-from-skips.md):
// devices report their skip runs and where they left for the next episode; each report re-learns its episode's
// segment on that server (learn.ts), unless an admin locked it. The player reads an episode's segments in one
// statement, publicly cacheable. Admins see, fix, hide and lock them, audited.
import { and, desc, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { episodes, films, segmentReports, segments } from '../../db/schema';
import { notFound } from '../../lib/errors';
import type { AdminSegment, AdminSegmentInput, AdminSegmentsResponse, EpisodeSegments, SegmentReportInput } from '../../schemas/segments';
import { type Actor, auditInsert } from '../admin/audit';
import { deviceKey } from '../plays/plays';
import { enforceRateLimits, RATE_LIMITS } from '../rate-limit';
import { type LearnReport, learnCredits, learnIntro, seriesLength, votedDown } from './learn';

/** The reports one re-learning reads at most (the newest): plenty for a cluster, bounded for a popular episode. */
const REPORTS_READ = 400;

type Key = { filmId: number; episode: number; server: string; kind: 'intro' | 'credits' };

const keyOf = (t: typeof segments | typeof segmentReports, k: Key) =>
  and(eq(t.filmId, k.filmId), eq(t.episode, k.episode), eq(t.server, k.server), eq(t.kind, k.kind));

/**
 * POST /api/segments/report: stores the device's report (once per device, episode, server and kind; an episode the
 * film does not have on that server is a 404) and re-learns the segment. Rate-limited per device and network.
 */
export async function recordSegmentReport(
  db: Db,
  input: SegmentReportInput,
  ip: string,
  now: number,
): Promise<{ counted: boolean; published: boolean }> {
  const device = await deviceKey(input.device);
  await enforceRateLimits(
    db,
    [
      { key: `segment:ip:${ip}`, ...RATE_LIMITS.segmentReportPerIp },
      { key: `segment:device:${device}`, ...RATE_LIMITS.segmentReportPerDevice },
    ],
    now,
  );
  const intro = input.kind === 'intro';
  const [found, inserted] = await db.batch([
    db
      .select({ filmId: films.id, episode: episodes.id })
      .from(films)
      .leftJoin(episodes, and(eq(episodes.filmId, films.id), eq(episodes.episode, input.episode), eq(episodes.serverName, input.server)))
      .where(eq(films.slug, input.slug))
      .limit(1),
    db
      .insert(segmentReports)
      .select(
        db
          .select({
            filmId: films.id,
            episode: sql<number>`${input.episode}`.as('episode'),
            server: sql<string>`${input.server}`.as('server'),
            kind: sql<'intro' | 'credits'>`${input.kind}`.as('kind'),
            device: sql<string>`${device}`.as('device'),
            start: sql<number>`${input.start}`.as('start'),
            before: sql<number>`${intro ? (input.before ?? input.start) : input.end}`.as('before'),
            end: sql<number>`${input.end}`.as('end'),
            duration: sql<number>`${input.duration}`.as('duration'),
            stepped: sql<boolean>`${intro && input.stepped ? 1 : 0}`.as('stepped'),
            via: sql<string>`${input.via}`.as('via'),
            back: sql<boolean>`${input.back ? 1 : 0}`.as('back'),
            createdAt: sql<number>`${now}`.as('created_at'),
          })
          .from(films)
          .innerJoin(
            episodes,
            and(eq(episodes.filmId, films.id), eq(episodes.episode, input.episode), eq(episodes.serverName, input.server)),
          )
          .where(eq(films.slug, input.slug)),
      )
      .onConflictDoNothing()
      .returning({ filmId: segmentReports.filmId }),
  ]);
  const film = found[0];
  if (!film) throw notFound('slug: không tìm thấy phim');
  if (film.episode === null) throw notFound(`episode: phim không có tập ${input.episode} trên server ${input.server}`);
  if (!inserted.length) return { counted: false, published: false };
  const published = await relearn(db, { filmId: film.filmId, episode: input.episode, server: input.server, kind: input.kind }, now);
  return { counted: true, published };
}

/** Re-learns one segment from its reports (one read, at most one write). Answers whether it is shown now. */
async function relearn(db: Db, key: Key, now: number): Promise<boolean> {
  const [reports, current, others] = await db.batch([
    db
      .select({
        start: segmentReports.start,
        before: segmentReports.before,
        end: segmentReports.end,
        via: segmentReports.via,
        back: segmentReports.back,
        stepped: segmentReports.stepped,
      })
      .from(segmentReports)
      .where(keyOf(segmentReports, key))
      .orderBy(desc(segmentReports.createdAt))
      .limit(REPORTS_READ),
    db.select().from(segments).where(keyOf(segments, key)).limit(1),
    // The series' other episodes on this server whose intro is shown: their agreed length lets two devices suffice.
    db
      .select({ start: segments.start, end: segments.end })
      .from(segments)
      .where(
        and(
          eq(segments.filmId, key.filmId),
          eq(segments.server, key.server),
          eq(segments.kind, 'intro'),
          ne(segments.episode, key.episode),
          eq(segments.hidden, false),
        ),
      )
      .orderBy(desc(segments.updatedAt))
      .limit(20),
  ]);
  const existing = current[0];
  if (existing?.locked) return !existing.hidden;
  const rows: LearnReport[] = reports;
  let learned: { start: number; end: number; devices: number } | null;
  if (key.kind === 'intro') learned = learnIntro(rows, seriesLength(others));
  else {
    const credits = learnCredits(rows);
    learned = credits && { start: credits.start, end: credits.start, devices: credits.devices };
  }
  const hidden = votedDown(rows);
  if (!learned && !existing) return false;
  const next = learned ?? { start: existing!.start, end: existing!.end, devices: existing!.devices };
  await db
    .insert(segments)
    .values({ ...key, ...next, hidden, locked: false, updatedAt: now })
    .onConflictDoUpdate({
      target: [segments.filmId, segments.episode, segments.server, segments.kind],
      set: { start: next.start, end: next.end, devices: next.devices, hidden, updatedAt: now },
      setWhere: eq(segments.locked, false),
    });
  return !hidden;
}

/**
 * GET /api/segments/{slug}/tap-{n}?server=: the episode's shown intro and credits start on that server, in one
 * statement (the film's row with its segments). An unknown film is a 404.
 */
export async function episodeSegments(db: Db, input: { slug: string; episode: number; server: string }): Promise<EpisodeSegments> {
  const rows = await db
    .select({ kind: segments.kind, start: segments.start, end: segments.end })
    .from(films)
    .leftJoin(
      segments,
      and(
        eq(segments.filmId, films.id),
        eq(segments.episode, input.episode),
        eq(segments.server, input.server),
        eq(segments.hidden, false),
      ),
    )
    .where(eq(films.slug, input.slug));
  if (!rows.length) throw notFound('slug: không tìm thấy phim');
  const intro = rows.find((r) => r.kind === 'intro');
  const credits = rows.find((r) => r.kind === 'credits');
  return {
    data: {
      intro: intro ? { start: intro.start as number, end: intro.end as number } : null,
      credits: credits ? { start: credits.start as number } : null,
    },
  };
}

const reportCount = (back: boolean | null) =>
  sql<number>`(select count(*) from ${segmentReports} r where r.film_id = ${segments.filmId} and r.episode = ${segments.episode}
    and r.server = ${segments.server} and r.kind = ${segments.kind}${back === null ? sql`` : sql` and r.back = 1`})`;

/** GET /api/admin/segments?slug=: every segment of the film (shown or hidden), with its reports and votes against. */
export async function adminSegments(db: Db, slug: string): Promise<AdminSegmentsResponse> {
  const rows = await db
    .select({
      filmId: films.id,
      episode: segments.episode,
      server: segments.server,
      kind: segments.kind,
      start: segments.start,
      end: segments.end,
      devices: segments.devices,
      hidden: segments.hidden,
      locked: segments.locked,
      reports: reportCount(null),
      against: reportCount(true),
    })
    .from(films)
    .leftJoin(segments, eq(segments.filmId, films.id))
    .where(eq(films.slug, slug))
    .orderBy(segments.episode, segments.server, segments.kind);
  if (!rows.length) throw notFound('slug: không tìm thấy phim');
  const data: AdminSegment[] = [];
  for (const r of rows) {
    if (r.kind === null) continue;
    data.push({
      episode: r.episode as number,
      server: r.server as string,
      kind: r.kind,
      start: r.start as number,
      end: r.end as number,
      devices: r.devices as number,
      hidden: !!r.hidden,
      locked: !!r.locked,
      reports: Number(r.reports ?? 0),
      against: Number(r.against ?? 0),
    });
  }
  return { data };
}

/**
 * PUT /api/admin/segments: the admin's segment (fixed times, hidden or not, locked or not), written with its audit
 * entry in one batch. An episode the film does not have on that server is a 404.
 */
export async function setSegment(db: Db, actor: Actor, input: AdminSegmentInput, now: number): Promise<AdminSegment> {
  const [found] = await db.batch([
    db
      .select({ filmId: films.id, episode: episodes.id })
      .from(films)
      .leftJoin(episodes, and(eq(episodes.filmId, films.id), eq(episodes.episode, input.episode), eq(episodes.serverName, input.server)))
      .where(eq(films.slug, input.slug))
      .limit(1),
  ]);
  const film = found[0];
  if (!film) throw notFound('slug: không tìm thấy phim');
  if (film.episode === null) throw notFound(`episode: phim không có tập ${input.episode} trên server ${input.server}`);
  const key: Key = { filmId: film.filmId, episode: input.episode, server: input.server, kind: input.kind };
  const [before] = await db.select().from(segments).where(keyOf(segments, key)).limit(1);
  const values = {
    start: input.start,
    end: input.kind === 'credits' ? input.start : input.end,
    hidden: input.hidden,
    locked: input.locked,
  };
  const snapshot = (s: { start: number; end: number; hidden: boolean; locked: boolean } | undefined) =>
    s && { start: s.start, end: s.end, hidden: s.hidden, locked: s.locked };
  await db.batch([
    db
      .insert(segments)
      .values({ ...key, ...values, devices: before?.devices ?? 0, updatedAt: now })
      .onConflictDoUpdate({
        target: [segments.filmId, segments.episode, segments.server, segments.kind],
        set: { ...values, updatedAt: now },
      }),
    auditInsert(
      db,
      actor,
      {
        action: 'segment.update',
        target: `${input.slug}/tap-${input.episode}/${input.server}/${input.kind}`,
        before: snapshot(before) ?? null,
        after: snapshot(values),
      },
      now,
    ),
  ]);
  const { data } = await adminSegments(db, input.slug);
  const saved = data.find((s) => s.episode === input.episode && s.server === input.server && s.kind === input.kind);
  if (!saved) throw notFound();
  return saved;
}
