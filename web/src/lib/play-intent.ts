// "Play this": the viewer's tap that should start an episode, carried to the watch page (issue 31).
// - A tap inside the app ("Xem phim", "Xem tiếp tập N", an episode link, up next) keeps the tap's user activation
//   through the in-app navigation: the watch page plays that episode by itself. A direct load (a shared link, a
//   new tab) has no intent and waits for a tap.
// - A tap before the page's script runs is remembered by the boot script (web/vite-plugins.ts bootPrefetch: any
//   element with `data-early-tap="…"`, until <html data-app-ready>) and acted on once the page can: never dropped.
// lib/, not a feature: the film page (catalogue), the episode list (components) and the player all use it.

/** An intent older than this is forgotten: the viewer has long done something else. */
const INTENT_MS = 60_000;

let intent: { key: string; at: number } | undefined;

/** The viewer tapped something that means "play this episode", just before navigating to it. */
export function intendToPlay(slug: string, episode: number): void {
  intent = { key: `${slug}/${episode}`, at: Date.now() };
}

/** Whether the watch page of this episode was reached by a tap meaning "play it" (taken once). */
export function consumePlayIntent(slug: string, episode: number): boolean {
  const current = intent;
  if (!current || current.key !== `${slug}/${episode}`) return false;
  intent = undefined;
  return Date.now() - current.at < INTENT_MS;
}

/** What kind of early tap: the player's picture or "Phát" ('play'), the film page's "Xem phim" ('watch'). */
export type EarlyTapKind = 'play' | 'watch';

interface BootState {
  /** Taps made before the app was ready, with the page (path) each was made on. */
  taps?: { kind: string; at: number; path?: string }[];
  onTap?: (kind: string) => void;
}

function boot(): BootState | undefined {
  return typeof window === 'undefined' ? undefined : (window as Window & { __phimvietBoot?: BootState }).__phimvietBoot;
}

/** An early tap older than this is no longer what the viewer is waiting for. */
const EARLY_TAP_MS = 20_000;

/** A tap of this kind made on this page before the page's script ran, taken once. */
export function takeEarlyTap(kind: EarlyTapKind): boolean {
  const taps = boot()?.taps;
  const now = performance.now();
  const page = (path: string) => path.replace(/\/+$/, '') || '/';
  const here = page(location.pathname);
  const index = taps?.findIndex((t) => t.kind === kind && page(t.path ?? here) === here && now - t.at < EARLY_TAP_MS) ?? -1;
  if (!taps || index < 0) return false;
  taps.splice(index, 1);
  return true;
}

/** Early taps of this kind from now on (until the app is ready): `run` is called for each, and it is taken. */
export function onEarlyTap(kind: EarlyTapKind, run: () => void): () => void {
  const state = boot();
  if (!state) return () => undefined;
  const previous = state.onTap;
  const listener = (k: string) => {
    if (k === kind && takeEarlyTap(kind)) run();
    else previous?.(k);
  };
  state.onTap = listener;
  return () => {
    if (state.onTap === listener) state.onTap = previous;
  };
}
