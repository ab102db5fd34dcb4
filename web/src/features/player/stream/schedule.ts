// When the stream's preparation runs (decision 0952): the network part once the page's first paint and its
// largest image are done, the main-thread part (evaluating the player) once the page has settled after its load
// event. Never with Data Saver on. Each function returns a cancel.

/** The viewer asked the browser to save data: nothing is fetched ahead of a tap. */
export function saveData(): boolean {
  return !!(navigator as Navigator & { connection?: { saveData?: boolean } }).connection?.saveData;
}

const never = () => undefined;

/**
 * How long after its load event the page is left alone before the player is evaluated (its network part starts
 * once the poster is painted): the watch page's own first work never shares the main thread with hls.js's
 * evaluation (decision 0952).
 */
export const SETTLED_MS = 4000;

/**
 * Runs `run` at the first idle moment once `delayMs` have passed since the page's load event (at once on a page
 * whose load is long past, e.g. reached inside the app).
 */
export function afterLoadWhenIdle(delayMs: number, run: () => void): () => void {
  if (saveData()) return never;
  let idle: number | undefined;
  let timer: number | undefined;
  const wait = () => {
    const loadedAt =
      (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.loadEventEnd || performance.now();
    timer = window.setTimeout(
      () => {
        if (typeof window.requestIdleCallback === 'function') idle = window.requestIdleCallback(run, { timeout: 2000 });
        else run();
      },
      Math.max(0, loadedAt + delayMs - performance.now()),
    );
  };
  if (document.readyState === 'complete') wait();
  else window.addEventListener('load', wait, { once: true });
  return () => {
    window.removeEventListener('load', wait);
    if (idle !== undefined) window.cancelIdleCallback(idle);
    window.clearTimeout(timer);
  };
}

/**
 * Runs `run` once the page's poster (the watch page's largest image, `img[fetchpriority=high]`) has been painted as
 * its largest contentful paint (a PerformanceObserver entry for it; where the browser has none, once it has loaded
 * and a frame is out): requests made from then on never compete with what the viewer is waiting to see, nor count
 * in its LCP. At most `capMs` after it is called, whatever happens to the image.
 */
export function afterLargestPaint(run: () => void, capMs = 3000): () => void {
  if (saveData()) return never;
  let done = false;
  let frame: number | undefined;
  let timer: number | undefined;
  let observer: PerformanceObserver | undefined;
  const go = () => {
    if (done) return;
    done = true;
    observer?.disconnect();
    window.clearTimeout(cap);
    timer = window.setTimeout(run, 0);
  };
  const cap = window.setTimeout(go, capMs);
  const image = () => document.querySelector<HTMLImageElement>('img[fetchpriority="high"]');
  const watch = () => {
    const poster = image();
    if (!poster) return go();
    if (typeof PerformanceObserver !== 'undefined' && PerformanceObserver.supportedEntryTypes?.includes('largest-contentful-paint')) {
      observer = new PerformanceObserver((list) => {
        if (list.getEntries().some((e) => (e as PerformanceEntry & { element?: Element | null }).element === poster)) go();
      });
      observer.observe({ type: 'largest-contentful-paint', buffered: true });
      return;
    }
    // No LCP entries (Safari): once it has loaded, the next frame paints it.
    const painted = () => {
      frame = requestAnimationFrame(go);
    };
    if (poster.complete) painted();
    else {
      poster.addEventListener('load', painted, { once: true });
      poster.addEventListener('error', painted, { once: true });
    }
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', watch, { once: true });
  else watch();
  return () => {
    done = true;
    observer?.disconnect();
    window.clearTimeout(cap);
    window.clearTimeout(timer);
    if (frame !== undefined) cancelAnimationFrame(frame);
    document.removeEventListener('DOMContentLoaded', watch);
  };
}

/** Runs `run` when the browser is idle (or after `timeoutMs`), once. */
export function whenIdle(run: () => void, timeoutMs = 1000): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const id = window.requestIdleCallback(run, { timeout: timeoutMs });
    return () => window.cancelIdleCallback(id);
  }
  const id = window.setTimeout(run, 50);
  return () => window.clearTimeout(id);
}

/**
 * Fetches a script chunk over the network only (a prefetch: no parsing, no main-thread work), and the chunks and
 * styles it imports that the page has not loaded, so that importing it later costs only its evaluation: no request
 * after another. index.html names the chunk in `<meta name={metaName}>` with its imports (web/vite-plugins.ts
 * chunkMetas): no other page fetches it. Resolves once the chunk is in the browser's cache (or failed).
 */
export function prefetchScript(metaName: string): Promise<void> {
  return fetchChunk(metaName, 'prefetch');
}

/**
 * As prefetchScript, but as module preloads: the chunk and its imports are fetched and compiled (not run), so that
 * importing it later asks nothing of the network and finds its whole module graph ready, not one chunk after
 * another; a chunk the page is itself loading is not fetched twice (the same module map entry).
 */
export function preloadModules(metaName: string): Promise<void> {
  return fetchChunk(metaName, 'modulepreload');
}

function fetchChunk(metaName: string, rel: 'prefetch' | 'modulepreload'): Promise<void> {
  const meta = document.querySelector<HTMLMetaElement>(`meta[name="${metaName}"]`);
  const href = meta?.content;
  if (!href || saveData()) return Promise.resolve();
  const chunk = fetchHref(href, rel);
  const list = (names?: string) => (names ?? '').split(' ').filter(Boolean);
  fetchOnePerTask([
    ...list(meta.dataset.imports).map((dep) => () => {
      if (!document.querySelector(`link[href="${dep}"], script[src="${dep}"]`)) void fetchHref(dep, rel);
    }),
    ...list(meta.dataset.styles).map((style) => () => void fetchHref(style, 'prefetch', 'style')),
    // A worker's script is fetched by `new Worker()`, never as a module: a plain prefetch, whatever `rel` is.
    ...list(meta.dataset.workers).map((worker) => () => void fetchHref(worker, 'prefetch')),
  ]);
  return chunk;
}

/**
 * Runs each request's start in a task of its own: a `<link>` the page adds costs the main thread about a millisecond
 * at start-up (the request's set-up in the renderer), and the film page asks for a dozen chunks at once while its app
 * hydrates; in one task they were one of its longest (docs/decisions/0611).
 */
function fetchOnePerTask(starts: (() => void)[]): void {
  const next = () => {
    starts.shift()?.();
    if (starts.length > 0) setTimeout(next, 0);
  };
  if (starts.length > 0) setTimeout(next, 0);
}

function fetchHref(href: string, rel: 'prefetch' | 'modulepreload', as: 'script' | 'style' = 'script'): Promise<void> {
  const existing = document.querySelector<HTMLLinkElement>(`link[href="${href}"]`);
  if (existing) {
    // Ours, or the boot script's (which marks it data-loaded once in).
    const known = loaded.get(existing);
    if (known || existing.hasAttribute('data-loaded')) return known ?? Promise.resolve();
    return new Promise<void>((resolve) => {
      existing.addEventListener('load', () => resolve(), { once: true });
      existing.addEventListener('error', () => resolve(), { once: true });
    });
  }
  const link = document.createElement('link');
  link.rel = rel;
  if (rel === 'prefetch') link.as = as;
  // A module script is fetched in CORS mode: the same mode, so the import() finds it in the cache. A stylesheet
  // link is not.
  if (as === 'script') link.crossOrigin = '';
  link.href = href;
  const done = new Promise<void>((resolve) => {
    link.addEventListener('load', () => resolve(), { once: true });
    link.addEventListener('error', () => resolve(), { once: true });
  });
  loaded.set(link, done);
  document.head.appendChild(link);
  return done;
}

const loaded = new WeakMap<HTMLLinkElement, Promise<void>>();
