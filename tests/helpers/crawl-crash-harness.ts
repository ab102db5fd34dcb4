// The crash harness's crawl-page path (issue 39 §5, docs/decisions/1062 and 1121): the Node host (worker/node.ts,
// its scheduler ticking) on a temporary file database crawls a genre of a local OPhim stand-in that publishes one
// more episode of each of its films every round; the host is killed with SIGKILL at a random moment of the crawl,
// started again, and the crawl retried as the admin and the scheduler do (the admin presses "Thu thập" again when
// no answer came; the scheduler takes the dead run over from its cursor). After each round, on the file:
// - before the retry, every film of a page the run's cursor lists as completed has that round's episodes (the page's
//   films and the cursor commit in one batch: what the cursor acknowledges is there);
// - no film is half written: each film's servers all hold episodes 1..k, k the previous round's or this round's;
// - after the retry the run is done and every film has this round's episodes, once; integrity_check ok,
//   foreign_key_check empty.
import type { Client } from '@libsql/client';
import { rmSync } from 'node:fs';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { createUser } from './auth';
import { type Host, hostSetup, killHost, startHost } from './crash-harness';
import { ophimFilm, type StandinFilm, startOphimStandin } from './ophim-standin';

export interface CrawlCrashReport {
  rounds: number;
  /** Rounds whose crawl request was answered (202) before the kill; the others were sent again. */
  acknowledgedRequests: number;
  /** Pages the killed run's cursor listed as completed, checked before the retry. */
  acknowledgedPages: number;
  /** Rounds killed while the run was still crawling (the telling case), not before its request or after its end. */
  killedMidCrawl: number;
  /** Films of an acknowledged page missing their episodes after the restart: must stay 0. */
  lost: number;
  violations: string[];
  /** Milliseconds from spawn to a healthy /api/health, per start. */
  startMs: number[];
  /** The crawl's time from the request to the run's end, measured before the rounds (the kill window is twice it). */
  crawlMs: number;
}

const FILMS = 6;
const PAGE_SIZE = 3;
const LIST = 'the-loai/hanh-dong';
const SERVERS = ['Vietsub #1', 'Thuyết Minh #2'];

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));
const pad = (n: number) => String(n).padStart(2, '0');

async function rows(client: Client, sql: string, args: (string | number)[] = []) {
  return (await client.execute({ sql, args })).rows;
}

/** The source publishes episode `n` of every film (each server), and moves its modified time. */
function publish(films: StandinFilm[], n: number) {
  for (const film of films) {
    for (const server of film.episodes as { server_data: Record<string, string>[] }[]) {
      const slug = film.movie.slug;
      server.server_data.push({
        name: `Tập ${pad(n)}`,
        slug: `tap-${pad(n)}`,
        filename: `${slug}-${n}`,
        link_embed: `https://player.example.com/share/${slug}-${n}`,
        link_m3u8: `https://cdn.example.com/${slug}/${n}/index.m3u8`,
      });
    }
    film.movie.episode_current = `Tập ${n}`;
    film.movie.modified = { time: new Date().toISOString() };
  }
}

export async function runCrawlCrashRounds(options: { rounds: number; log?: (line: string) => void }): Promise<CrawlCrashReport> {
  const log = options.log ?? (() => undefined);
  const source = await startOphimStandin({ pageSize: PAGE_SIZE });
  for (let i = 1; i <= FILMS; i++)
    source.films.push(
      ophimFilm({ slug: `phim-hanh-dong-${i}`, status: 'ongoing', episode_current: 'Tập 2' }, { episodeCount: 2, servers: SERVERS }),
    );
  const { dir, file, port, env } = await hostSetup('crawl-crash-', {
    CRAWL_SOURCES: source.origin,
    CRAWL_SOURCE: source.url,
    CRAWL_DELAY_MS: '0',
    CRAWL_CONCURRENCY: '2',
    // The scheduler ticks often, so a dead run is taken over within the round rather than a minute later.
    SCHEDULER_TICK_MS: '250',
  });
  const seed = await openMigratedDatabase(`file:${file}`);
  const admin = await createUser(seed.db, { email: 'quan-tri@example.com', roles: 'user,admin' });
  const check = seed.client;

  const report: CrawlCrashReport = {
    rounds: 0,
    acknowledgedRequests: 0,
    acknowledgedPages: 0,
    killedMidCrawl: 0,
    lost: 0,
    violations: [],
    startMs: [],
    crawlMs: 0,
  };
  const started = async () => {
    const t0 = performance.now();
    const host = await startHost(env, port);
    report.startMs.push(performance.now() - t0);
    return host;
  };
  const token = async (host: Host) => {
    const res = await fetch(`${host.url}/api/dang-nhap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: admin.email, password: admin.password }),
    });
    if (res.status !== 200) throw new Error(`admin sign-in: ${res.status}`);
    return ((await res.json()) as { token: string }).token;
  };
  const crawl = (host: Host, bearer: string) =>
    fetch(`${host.url}/api/crawl`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${bearer}` },
      body: JSON.stringify({ category: 'Hành Động' }),
    });
  /** The newest admin run: its status and the pages its cursor lists as completed. */
  const lastRun = async () => {
    const [run] = await rows(check, "select id, status, progress, error from crawl_runs where trigger = 'admin' order by id desc limit 1");
    if (!run) return undefined;
    const completed = (JSON.parse(String(run.progress)) as { completed?: string[] }).completed ?? [];
    return { id: Number(run.id), status: String(run.status), completed, error: run.error };
  };
  /** Waits for the newest admin run after `afterId` to end; its status, or 'timeout'. */
  const runEnd = async (afterId: number, limitMs: number) => {
    const until = Date.now() + limitMs;
    while (Date.now() < until) {
      const run = await lastRun();
      if (run && run.id > afterId && run.status !== 'running') return run;
      await sleep(20);
    }
    return undefined;
  };
  /** Per film: the episode count on each server and the highest number, so a film is whole at k or not. */
  const filmShapes = async () =>
    rows(
      check,
      `select f.slug, e.server_name as server, count(e.id) as n, max(e.episode) as top, count(distinct e.episode) as distinct_n
       from films f left join episodes e on e.film_id = f.id group by f.id, e.server_name order by f.slug`,
    );

  let host = await started();
  let episodes = 2;
  try {
    // A first crawl, not killed: the catalogue as a finished crawl leaves it, and how long a crawl of the genre takes.
    let bearer = await token(host);
    const t0 = performance.now();
    if ((await crawl(host, bearer)).status !== 202) throw new Error('first crawl refused');
    const first = await runEnd(0, 60_000);
    if (first?.status !== 'done') throw new Error(`first crawl: ${first?.status ?? 'no end'} ${first?.error ?? ''}`);
    report.crawlMs = performance.now() - t0;

    for (let round = 1; round <= options.rounds; round++) {
      episodes++;
      publish(source.films, episodes);
      const previous = (await lastRun())?.id ?? 0;
      // Rate limits would throttle the harness's sign-ins, not an admin: cleared between rounds (as crash-harness.ts).
      await check.execute('delete from rate_limits');
      bearer = await token(host);
      const answer = crawl(host, bearer).then(
        (res) => res.status === 202,
        () => false,
      );
      await sleep(Math.random() * 2 * report.crawlMs);
      await killHost(host);
      const acknowledged = await answer;
      const fail = (message: string) => report.violations.push(`vòng ${round}: ${message}`);
      if (acknowledged) report.acknowledgedRequests++;

      // Before any retry: what the killed run's cursor acknowledged is on file, and no film is half written.
      const killed = await lastRun();
      const thisRound = killed && killed.id > previous ? killed : undefined;
      if (acknowledged && !thisRound) fail('yêu cầu thu thập đã nhận 202 nhưng không có lượt thu thập');
      if (thisRound?.status === 'running' && (thisRound.completed.length > 0 || acknowledged)) report.killedMidCrawl++;
      const shapes = await filmShapes();
      const bySlug = new Map<string, { n: number; top: number; distinct: number }[]>();
      for (const s of shapes) {
        const list = bySlug.get(String(s.slug)) ?? [];
        list.push({ n: Number(s.n), top: Number(s.top), distinct: Number(s.distinct_n) });
        bySlug.set(String(s.slug), list);
      }
      if (bySlug.size !== FILMS) fail(`${bySlug.size} phim (cần ${FILMS})`);
      for (const [slug, servers] of bySlug) {
        const k = servers[0]?.top ?? 0;
        const whole = servers.length === SERVERS.length && servers.every((s) => s.n === s.top && s.distinct === s.n && s.top === k);
        if (!whole || (k !== episodes && k !== episodes - 1))
          fail(`phim ${slug} ghi dở: ${JSON.stringify(servers)} (tập ${episodes - 1} hoặc ${episodes})`);
      }
      if (thisRound) {
        for (const key of thisRound.completed) {
          report.acknowledgedPages++;
          const page = Number(key.slice(LIST.length + 1));
          for (const film of source.films.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE)) {
            const servers = bySlug.get(film.movie.slug) ?? [];
            if (!servers.every((s) => s.top === episodes) || servers.length !== SERVERS.length) {
              report.lost++;
              fail(`trang ${page} đã hoàn tất nhưng phim ${film.movie.slug} chưa có tập ${episodes}`);
            }
          }
        }
      }

      // The retry: the scheduler takes a run whose heartbeat went stale (2 minutes without one; the harness ages the
      // dead process's heartbeats instead of waiting), and the admin whose press got no answer presses again.
      const restartAt = Date.now();
      host = await started();
      await check.execute({
        sql: "update crawl_runs set heartbeat_at = 0 where status = 'running' and heartbeat_at < ?",
        args: [restartAt],
      });
      if (!acknowledged) {
        bearer = await token(host);
        const res = await crawl(host, bearer);
        if (res.status !== 202) fail(`bấm thu thập lại trả ${res.status}`);
      }
      const end = await runEnd(previous, 90_000);
      if (end?.status !== 'done') fail(`lượt thu thập sau khi khởi động lại: ${end?.status ?? 'không kết thúc'} ${end?.error ?? ''}`);

      // After the retry: every film whole at this round's episodes, and a sound file.
      for (const s of await filmShapes())
        if (Number(s.n) !== episodes || Number(s.top) !== episodes || Number(s.distinct_n) !== episodes)
          fail(`phim ${s.slug} (${s.server}) có ${s.n} tập sau khi thu thập lại (cần ${episodes})`);
      const fts = await rows(check, 'select (select count(*) from films_fts) as fts, (select count(*) from films) as films');
      if (Number(fts[0]?.fts) !== Number(fts[0]?.films)) fail(`films_fts ${fts[0]?.fts} dòng cho ${fts[0]?.films} phim`);
      const integrity = (await rows(check, 'PRAGMA integrity_check')).map((r) => String(Object.values(r)[0]));
      if (integrity.join() !== 'ok') fail(`integrity_check: ${integrity.slice(0, 5).join('; ')}`);
      const dangling = await rows(check, 'PRAGMA foreign_key_check');
      if (dangling.length > 0) fail(`foreign_key_check: ${dangling.length} dòng`);
      report.rounds = round;
      if (round % 10 === 0 || round === options.rounds) log(`vòng ${round}/${options.rounds}: ${report.violations.length} vi phạm`);
    }
  } finally {
    await killHost(host);
    check.close();
    await source.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return report;
}
