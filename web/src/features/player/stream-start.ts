// The stream's start path before the app has hydrated (issue 31 §2, issue 40 §6, decision 0952): a small chunk the
// boot script imports on a page the host rendered (web/vite-plugins.ts: `<meta name="phimviet-stream-start">`), long
// before React has hydrated the page (~135 KB of it, and 2–3 s of a phone's main thread on a film page).
// On a watch page, once the page has painted:
// - the episode's link, the stream's playlists, the first segment and the engine's script are fetched while the
//   viewer looks at the poster (network only: nothing here costs the main thread more than a few milliseconds);
// - a tap on the host's "Phát" (or the picture) plays at once: the boot script remembers it, this acts on it with
//   the stream controller on the host's own <video>; the component adopts the same controller when it hydrates.
//   The app's own code waits for those first bytes (web/vite-plugins.ts startAfterPaint, at most a few seconds): on a
//   phone's connection they would otherwise share it with ~135 KB of the app. Signed-in viewers' pages are rendered
//   afresh by the app rather than hydrated (main.tsx): nothing happens here for them.
// On a film page, once the app's code is in (it goes first): the episode "Xem phim" opens is got ready as the app's
// own preparation would (prepare-watch.ts) once hydrated, seconds later: its link, playlists and first segment, the
// engine's and the watch page's scripts. Then the tap plays within a second (issue 40 §6).
import { episodePath } from './api/episode-path';
import { whenFirstRouteLoaded } from '../../lib/first-route';
import { onEarlyTap, takeEarlyTap } from '../../lib/play-intent';
import { resumePoint, storedResumeEntry, watchTarget } from '../../lib/resume-point';
import { CHUNK_META } from './stream/chunk-names';
import { type HlsHost, type StreamController, type StreamView, streamControllerFor } from './stream/controller';
import { startServer } from '../../lib/start-server';
import { loadPlayerPrefs } from './player-prefs';
import { estimateBandwidth } from './stream/playlist';
import { prepareStream } from './stream/prefetch';
import { afterLargestPaint, prefetchScript, preloadModules, saveData } from './stream/schedule';

interface ServerLinks {
  server_name: string;
  linkfilms: { episode: number }[];
}

interface HostFilm {
  slug?: string;
  servers?: ServerLinks[];
  ongoing?: boolean;
  VIP1?: number;
}

interface HostQuery {
  queryKey?: unknown[];
  state?: { data?: { datafilm?: HostFilm } };
}

/** The film as the host rendered the page with it (#ssr-state's query cache), as the film and watch pages read it. */
function hostFilm(slug: string): HostFilm | undefined {
  try {
    const state = JSON.parse(document.getElementById('ssr-state')?.textContent ?? 'null') as { queries?: HostQuery[] } | null;
    return state?.queries?.find((q) => q.queryKey?.[0] === 'film' && q.state?.data?.datafilm?.slug === slug)?.state?.data?.datafilm;
  } catch {
    return undefined;
  }
}

/**
 * The episode's link, asked once for the app too (episodeQuery takes this very answer, lib/api-client.ts
 * takeBootResponse). Not in the host's HTML: what a page's link is stays the browser's request to the API (tests and
 * tools see it there). Resolves to its m3u8, or undefined.
 */
function askLink(path: string, bearer: string | null): Promise<string | undefined> {
  const answer = fetch(path, { credentials: 'same-origin', headers: bearer ? { Authorization: `Bearer ${bearer}` } : {} });
  const boot = (window as Window & { __phimvietBoot?: BootState }).__phimvietBoot;
  if (boot) boot[path] = answer;
  return answer
    .then((res) => (res.ok ? (res.clone().json() as Promise<{ data?: { link_m3u8?: string } }>) : undefined))
    .then((body) => body?.data?.link_m3u8 || undefined)
    .catch(() => undefined);
}

function token(): string | null {
  try {
    return sessionStorage.getItem('token');
  } catch {
    return null;
  }
}

/** Before hydration: "Phát" turns into a spinner once tapped, and the poster steps aside at the first frame. */
function hostView(box: HTMLElement): StreamView {
  const button = () => box.querySelector<HTMLElement>('[data-testid="big-play"]');
  return {
    started: () => box.setAttribute('data-started', ''),
    pending: (on) => {
      if (on) button()?.setAttribute('data-pending', '');
      else button()?.removeAttribute('data-pending');
    },
    message: () => undefined,
    adsRemoved: () => undefined,
    attached: () => undefined,
    // The server dying before the app is there: the controller keeps the failure for the watch page.
    detach: () => {
      box.removeAttribute('data-started');
      button()?.removeAttribute('data-pending');
    },
  };
}

interface BootState {
  [path: string]: unknown;
  /** Resolves once the stream's first bytes are in (or there is nothing to fetch): the boot script starts the app then. */
  streamFirst?: Promise<void>;
}

/**
 * Run when the boot script imports this chunk, once, on a watch page the host rendered. Returns once the stream's
 * first bytes (the engine's script, the playlists, the first segment) are in, or at once when there is nothing to
 * fetch ahead (no stream, Data Saver, a signed-in viewer whose page the app renders).
 */
async function startStream(): Promise<void> {
  const match = /^\/xem-phim\/([^/]+)\/tap-(\d+)\/?$/.exec(location.pathname);
  const box = document.querySelector<HTMLElement>('.player-box[data-early-tap="play"]');
  const video = box?.querySelector<HTMLVideoElement>('video[data-testid="video"]');
  const host = video?.parentElement as HlsHost | null | undefined;
  if (!match || !box || !video || !host || host.localName !== 'hls-video') return;
  const slug = decodeURIComponent(match[1]!);
  const episode = Number(match[2]);
  const requested = new URLSearchParams(location.search).get('server') ?? undefined;
  const current = startServer(hostFilm(slug)?.servers ?? [], requested);
  if (!current) return;
  // The app hydrates the host's markup only for visitors; a signed-in viewer's page is rendered afresh, and the
  // tap left for the component: nothing here should hold the app back.
  const bearer = token();
  if (bearer || saveData()) return;
  // The engine's script (~147 KB) once the poster is painted, whatever the link turns out to be: on a phone it is
  // the longest download before a first frame.
  const painted = new Promise<void>((resolve) => afterLargestPaint(resolve));
  const engine = painted.then(() => prefetchScript(CHUNK_META.engine.meta));

  const asked = askLink(episodePath(slug, episode, current.server_name), null);

  // A tap before the link is known is asked of the browser at once (inside its activation); the controller takes it over.
  let controller: StreamController | undefined;
  let tapped = false;
  const view = hostView(box);
  const play = () => {
    if (controller) {
      controller.play();
      return;
    }
    tapped = true;
    view.pending(true);
    video.play().catch(() => undefined);
  };
  if (takeEarlyTap('play')) play();
  const stopTaps = onEarlyTap('play', play);

  const m3u8 = await asked;
  if (!m3u8 || !video.isConnected) {
    stopTaps();
    view.pending(false);
    await engine;
    return;
  }
  const startAt = resumePoint(storedResumeEntry(slug), episode);
  controller = streamControllerFor(video, host, { m3u8, startAt, failover: true });
  controller.setView(view, false);
  if (tapped) controller.play();
  const started = controller;
  // The playlists and the first segment once the poster is painted: they never compete with it.
  await painted;
  await Promise.all([started.prepare(), engine]);
}

/**
 * Run when the boot script imports this chunk on a film page the host rendered, once the app's code is in: the
 * episode the page's button opens (watchTarget, as the page computes it from this device's history) is made ready
 * over the network. Its link is left for the app (episodeQuery takes this very answer); the playlists and the
 * segment wait in the stream's store (stream/prefetch.ts), where the app's own preparation and then hls.js find them.
 */
async function prepareFilm(): Promise<void> {
  const slug = decodeURIComponent(/^\/([^/]+)\/?$/.exec(location.pathname)?.[1] ?? '');
  const film = hostFilm(slug);
  if (!film?.servers || saveData()) return;
  const bearer = token();
  // A visitor on a VIP-only film is sent to sign in, not to the player.
  if (film.VIP1 === 1 && !bearer) return;
  const { target } = watchTarget({ slug, ongoing: !!film.ongoing, servers: film.servers }, storedResumeEntry(slug));
  if (!target) return;
  // At once, while the app hydrates (its main-thread work, which a download does not slow): the engine's script, the
  // longest download (~147 KB), and beside it the episode's link, the stream's playlists and the segment of the
  // first frame, which wait on round trips more than on bytes.
  const engine = prefetchScript(CHUNK_META.engine.meta);
  const stream = askLink(episodePath(slug, target.episode, target.server), bearer)
    .then((m3u8) =>
      m3u8
        ? prepareStream(m3u8, { position: target.position, bandwidthBps: estimateBandwidth(), preferHeight: loadPlayerPrefs().quality })
        : undefined,
    )
    .catch(() => undefined);
  // The watch page's code once the film page's own is in (the app loads it first): a chunk both use is then taken
  // from the module map, not fetched twice, and the tap finds the watch page's whole module graph compiled.
  await whenFirstRouteLoaded();
  await Promise.all([preloadModules(CHUNK_META.watch.meta), engine, stream]);
}

const boot = (window as Window & { __phimvietBoot?: BootState }).__phimvietBoot;
if (/^\/xem-phim\//.test(location.pathname)) {
  const first = startStream().catch(() => undefined);
  if (boot) boot.streamFirst = first;
} else void prepareFilm().catch(() => undefined);
