// `npm run bench -- light-crawl`: how long after a source adds an episode a follower's push is handed to the queue
// (issue 40 §5, docs/decisions/1120). In process, against the local OPhim stand-in (24 films a page, as OPhim's
// newest list): the catalogue as a full crawl left it, a follower, then ROUNDS times the source publishes one more
// episode of one film and one scheduler tick runs (light crawl, then the new-episode planner, whose queue here
// records when the chunk is handed over). Prints the tick's time from publication to enqueue, the requests the
// source saw per tick, and a tick with nothing changed as the floor; the wall-clock bound is the interval plus these.
import { loadavg } from 'node:os';
import { runCrawl } from '../worker/services/crawler/index';
import { LIGHT_CRAWL_EVERY_MS } from '../worker/services/crawler/light-crawl';
import { lightCrawls, newEpisodes, runScheduledJobs } from '../worker/scheduled';
import { createTestApp } from '../tests/helpers/app';
import { bearer, signedInUser } from '../tests/helpers/auth';
import { crawlConfigFor, ophimFilm, startOphimStandin } from '../tests/helpers/ophim-standin';

const ROUNDS = Number(process.env.LIGHT_ROUNDS ?? 20);
const load = loadavg().map((n) => n.toFixed(2));
const source = await startOphimStandin({ pageSize: 24 });
for (let i = 1; i <= 48; i++)
  source.films.push(ophimFilm({ slug: `phim-moi-${i}`, status: 'ongoing', episode_current: 'Tập 8' }, { episodeCount: 8 }));
let enqueuedAt = 0;
const t = await createTestApp({
  config: crawlConfigFor(source),
  pushQueue: {
    send: async () => {
      enqueuedAt = performance.now();
    },
  },
});
await runCrawl(t.deps, { source: source.url, trigger: 'cli' });
const member = await signedInUser(t);
for (const film of source.films) {
  const res = await t.request(`/api/me/watchlist/${film.movie.slug}`, {
    method: 'PUT',
    json: { notify: true },
    headers: bearer(member.session.token),
  });
  if (res.status !== 200) throw new Error(`follow: ${res.status}`);
}
await t.request('/api/me/push-subscriptions', {
  json: { endpoint: 'https://fcm.googleapis.com/fcm/send/bench', keys: { p256dh: 'x', auth: 'y' } },
  headers: bearer(member.session.token),
});

const ticks: number[] = [];
const idle: number[] = [];
const requests: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  // The floor: a tick with nothing changed (one list page read, no detail).
  t.advance(LIGHT_CRAWL_EVERY_MS);
  const i0 = performance.now();
  await runScheduledJobs(t.deps, [lightCrawls, newEpisodes]);
  idle.push(performance.now() - i0);

  const film = source.films[round % 24]!;
  const n = 9 + Math.floor(round / 24);
  for (const server of film.episodes as { server_data: Record<string, string>[] }[]) {
    const last = server.server_data.at(-1)!;
    server.server_data.push({ ...last, name: `Tập ${n}`, slug: `tap-${n}`, link_m3u8: `${last.link_m3u8}?n=${n}` });
  }
  film.movie.modified = { time: new Date(t.deps.now() + 1000).toISOString() };
  // The list is newest first: the film moves to the top.
  source.films.splice(source.films.indexOf(film), 1);
  source.films.unshift(film);
  t.advance(LIGHT_CRAWL_EVERY_MS);
  enqueuedAt = 0;
  const before = source.requests.length;
  const published = performance.now();
  await runScheduledJobs(t.deps, [lightCrawls, newEpisodes]);
  if (!enqueuedAt) throw new Error(`round ${round}: no push chunk enqueued`);
  ticks.push(enqueuedAt - published);
  requests.push(source.requests.length - before);
}
await source.close();

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const pct = (xs: number[], p: number) => sorted(xs)[Math.min(xs.length - 1, Math.floor(p * xs.length))] ?? 0;
const ms = (x: number) => `${x.toFixed(0)} ms`;
console.log(`\nLight crawl, ${ROUNDS} rounds: one episode published, one tick (light crawl + new-episode planner)`);
console.log(`publication → push chunk enqueued within the tick: p50 ${ms(pct(ticks, 0.5))}, p95 ${ms(pct(ticks, 0.95))}`);
console.log(`floor, a tick with nothing changed: p50 ${ms(pct(idle, 0.5))}, p95 ${ms(pct(idle, 0.95))}`);
console.log(`requests to the source per tick with one change: ${[...new Set(requests)].join(', ')} (list page 1 + the one detail)`);
const worst = LIGHT_CRAWL_EVERY_MS + 60_000 + pct(ticks, 0.95);
console.log(
  `worst case from publication to enqueue: interval ${LIGHT_CRAWL_EVERY_MS / 60_000} min + minute-tick alignment ≤ 1 min + tick ${ms(pct(ticks, 0.95))} ` +
    `≈ ${(worst / 60_000).toFixed(1)} min (goal 15 min; the queue then sends within seconds)`,
);
console.log(
  `load average at start ${load.join(' ')}, at end ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')} (2 cores)`,
);
