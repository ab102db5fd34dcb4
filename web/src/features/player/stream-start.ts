// The watch page's start path before the app has hydrated (issue 31 §2, decision 0952). The boot script imports
// this small chunk on a watch page once the page has painted (web/vite-plugins.ts: `<meta name="phimviet-stream-start">`),
// long before React has loaded (~135 KB of it on a phone), so that:
// - the episode's link, the stream's playlists, the first segment and the engine's script are fetched while the
//   viewer looks at the poster (network only: nothing here costs the main thread more than a few milliseconds);
// - a tap on the host's "Phát" (or the picture) plays at once: the boot script remembers it, this acts on it with
//   the stream controller on the host's own <video>; the component adopts the same controller when it hydrates.
// The app's own code waits for those first bytes (web/vite-plugins.ts startAfterPaint, at most a few seconds): on a
// phone's connection they would otherwise share it with ~135 KB of the app. Signed-in viewers' pages are rendered
// afresh by the app rather than hydrated (main.tsx): nothing happens here for them.
import { episodePath } from './api/episode-path';
import { onEarlyTap, takeEarlyTap } from '../../lib/play-intent';
import { resumePoint, storedResumeEntry } from '../../lib/resume-point';
import { CHUNK_META } from './stream/chunk-names';
import { type HlsHost, type StreamController, type StreamView, streamControllerFor } from './stream/controller';
import { startServer } from '../../lib/start-server';
import { afterLargestPaint, prefetchScript, saveData } from './stream/schedule';

interface ServerLinks {
  server_name: string;
  linkfilms: { episode: number }[];
}

interface HostQuery {
  queryKey?: unknown[];
  state?: { data?: { datafilm?: { slug?: string; servers?: ServerLinks[] } } };
}

/** The query cache the host rendered the page with (#ssr-state): the film's servers, as the watch page reads them. */
function hostQueries(): HostQuery[] {
  try {
    return (JSON.parse(document.getElementById('ssr-state')?.textContent ?? 'null') as { queries?: HostQuery[] } | null)?.queries ?? [];
  } catch {
    return [];
  }
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
  const queries = hostQueries();
  const film = queries.find((q) => q.queryKey?.[0] === 'film' && q.state?.data?.datafilm?.slug === slug);
  const current = startServer(film?.state?.data?.datafilm?.servers ?? [], requested);
  if (!current) return;
  // The app hydrates the host's markup only for visitors; a signed-in viewer's page is rendered afresh, and the
  // tap left for the component: nothing here should hold the app back.
  const bearer = token();
  if (bearer || saveData()) return;
  // The engine's script (~147 KB) once the poster is painted, whatever the link turns out to be: on a phone it is
  // the longest download before a first frame.
  const painted = new Promise<void>((resolve) => afterLargestPaint(resolve));
  const engine = painted.then(() => prefetchScript(CHUNK_META.engine.meta));

  // The episode's link, asked once for the app too (episodeQuery takes this very answer). Not in the host's HTML:
  // what a page's link is stays the browser's request to the API (tests and tools see it there).
  const path = episodePath(slug, episode, current.server_name);
  const answer = fetch(path, { credentials: 'same-origin' });
  const boot = (window as Window & { __phimvietBoot?: BootState }).__phimvietBoot;
  if (boot) boot[path] = answer;
  const asked = answer
    .then((res) => (res.ok ? (res.clone().json() as Promise<{ data?: { link_m3u8?: string } }>) : undefined))
    .then((body) => body?.data?.link_m3u8 || undefined)
    .catch(() => undefined);

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

const boot = (window as Window & { __phimvietBoot?: BootState }).__phimvietBoot;
const first = startStream().catch(() => undefined);
if (boot) boot.streamFirst = first;
