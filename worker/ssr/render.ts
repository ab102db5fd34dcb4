// The first page rendered on the host, shared by both hosts (worker/node.ts, worker/index.ts; docs/decisions/0606-*).
// The renderer is web/src/entry-server.tsx built by `vite build --ssr` into worker/ssr/dist/ (npm run build);
// each host says how to load it. Its API reads are the app's own, called in-process (no HTTP to itself),
// anonymous, so they go through the public read cache like any visitor's. When the build is missing or
// rendering throws, the page is the static shell, as before: never an error page.

/** Answers an API request the way the app does over HTTP. */
export type ApiFetch = (request: Request) => Promise<Response> | Response;

/** What the page said about itself (web/src/lib/page-meta.ts usePageMeta). */
export interface PageMeta {
  title?: string;
  description?: string;
  canonicalPath?: string;
  robots?: string;
}

/** What worker/ssr/dist/entry-server.js exports (web/src/entry-server.tsx). */
export interface SsrEntry {
  renderPage(url: string, fetchApi: ApiFetch): Promise<{ html: string; state: unknown; meta?: PageMeta } | null>;
}

/** Loads the built renderer (a dynamic import the host names, so a missing build is a rejected promise). */
export type LoadEntry = () => Promise<SsrEntry>;

/** The id main.tsx reads the query cache from (web/src/app/router.tsx SSR_STATE_ID). */
const STATE_ID = 'ssr-state';

/** JSON inside <script type="application/json">: no '<' at all, so no '</script>' or '<!--' can end it. */
export const scriptSafeJson = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');

/** In <head>, before the boot script: what web/vite-plugins.ts bootPrefetch looks for. */
const SSR_MARKER = '<meta name="ssr" content="1">';
const BOOT_SCRIPT = /<script src="\/assets\/boot-[^"]*\.js" async><\/script>/;
const ROOT = /(<div id="root"[^>]*>)[\s\S]*?<!--\/app-->/;

/**
 * Paths worth trying: page routes only (no file extension), so a missing /foo.png or /sw.js never runs the
 * renderer. Which of them are rendered is the app's call (entry-server.tsx: public pages only).
 */
export function isPagePath(pathname: string): boolean {
  return !/\.[a-z0-9]+$/i.test(pathname) && !pathname.startsWith('/api/') && pathname !== '/api';
}

/** Each loader runs once (a host has one); a failed load is retried on the next page (a build may land). */
const loaded = new WeakMap<LoadEntry, Promise<SsrEntry>>();
let missingLogged = false;

/**
 * The shell (index.html) with #root holding the server-rendered page and the query cache it came from,
 * or the shell unchanged when the page is not one the host renders, the build is missing, or rendering
 * fails (logged). `url` is the request's URL; `shell` must carry the <div id="root">…</div><!--/app--> markers
 * of web/index.html.
 */
export async function renderShell(shell: string, url: URL, loadEntry: LoadEntry, fetchApi: ApiFetch): Promise<string> {
  if (!isPagePath(url.pathname) || !ROOT.test(shell)) return shell;
  let entry: SsrEntry;
  try {
    let load = loaded.get(loadEntry);
    if (!load) {
      load = loadEntry();
      loaded.set(loadEntry, load);
    }
    entry = await load;
  } catch (error) {
    loaded.delete(loadEntry);
    if (!missingLogged) console.error('[ssr] renderer not built (npm run build); sending the static shell:', String(error));
    missingLogged = true;
    return shell;
  }
  try {
    const page = await entry.renderPage(url.pathname + url.search, fetchApi);
    if (!page) return shell;
    const state = `<script type="application/json" id="${STATE_ID}">${scriptSafeJson(page.state)}</script>`;
    // The async boot script (web/vite-plugins.ts bootPrefetch) may run before the body is parsed: a marker
    // ahead of it says the page's data is already here (no prefetch). The state itself ends the body, so
    // the content comes first in the bytes; the app reads it once the document is parsed.
    const boot = BOOT_SCRIPT.exec(shell);
    const marked = boot ? shell.slice(0, boot.index) + SSR_MARKER + shell.slice(boot.index) : shell;
    const withState = marked.replace('</body>', () => `${state}</body>`);
    // React puts the resources it hoists (image preloads of the first posters) before the markup: they
    // belong in <head>, where the browser finds them first and hydration does not look.
    const hoisted = /^(?:<link [^>]*>)+/.exec(page.html)?.[0] ?? '';
    const body = page.html.slice(hoisted.length);
    return withMeta(withState, page.meta ?? {}, url)
      .replace('</head>', () => `${hoisted}</head>`)
      .replace(ROOT, (_all, open: string) => `${open}${body}</div><!--/app-->`);
  } catch (error) {
    console.error(`[ssr] rendering ${url.pathname} failed; sending the static shell:`, error);
    return shell;
  }
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The page's own title, description, robots and canonical link in the shell's <head> (the browser's
 * usePageMeta then finds and keeps them): the first paint and crawlers see the page's title, not the site's.
 */
function withMeta(shell: string, meta: PageMeta, url: URL): string {
  let html = shell;
  const setContent = (attr: 'name' | 'property', key: string, value: string | undefined) => {
    if (!value) return;
    const tag = new RegExp(`<meta ${attr}="${key}" content="[^"]*"\\s*/?>`);
    const next = `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
    html = tag.test(html) ? html.replace(tag, () => next) : html.replace('</head>', () => `${next}</head>`);
  };
  if (meta.title) {
    const title = `<title>${escapeHtml(meta.title)}</title>`;
    html = /<title>[^<]*<\/title>/.test(html)
      ? html.replace(/<title>[^<]*<\/title>/, () => title)
      : html.replace('</head>', () => `${title}</head>`);
    setContent('property', 'og:title', meta.title);
  }
  setContent('name', 'description', meta.description);
  setContent('property', 'og:description', meta.description);
  setContent('name', 'robots', meta.robots);
  const canonical = new URL(meta.canonicalPath ?? url.pathname, url.origin).href;
  return html.replace('</head>', () => `<link rel="canonical" href="${escapeHtml(canonical)}"></head>`);
}
