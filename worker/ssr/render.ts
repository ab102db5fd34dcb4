// The first page rendered on the host, shared by both hosts (worker/node.ts, worker/index.ts; docs/decisions/0606-*).
// The renderer is web/src/entry-server.tsx built by `vite build --ssr` into worker/ssr/dist/ (npm run build);
// each host says how to load it. Its API reads are the app's own, called in-process (no HTTP to itself),
// anonymous, so they go through the public read cache like any visitor's. When the build is missing or
// rendering throws, the page is the static shell, as before: never an error page.
import { escapeHtml } from '../lib/html';
import { INLINE_STYLESHEET, inlineStylesheet, type StylesheetTable } from '../schemas/stylesheet';
import { classesIn, criticalCss } from './critical-css';

/** Answers an API request the way the app does over HTTP. */
export type ApiFetch = (request: Request) => Promise<Response> | Response;

/** What the page said about itself (web/src/lib/page-meta.ts usePageMeta). */
export interface PageMeta {
  title?: string;
  description?: string;
  canonicalPath?: string;
  robots?: string;
  /** og:type; 'website' when unset. */
  type?: string;
  /** og:image: a path of this site or an absolute URL. */
  image?: string;
}

/** What worker/ssr/dist/entry-server.js exports (web/src/entry-server.tsx). */
export interface SsrEntry {
  renderPage(
    url: string,
    fetchApi: ApiFetch,
    origin: string,
  ): Promise<{ html: string; state: unknown; meta?: PageMeta; structuredData?: unknown[]; status?: number; location?: string } | null>;
  /** Renders each kind of page a few times with a stand-in catalogue; run by loadRenderer before any page. */
  warmUp?(): Promise<number>;
  /** The app's stylesheet in pieces (worker/ssr/critical-css.ts): a page carries only the rules its markup uses. */
  stylesheet?: StylesheetTable | null;
}

/** The page a host sends: the shell, rendered or not, and its status (404: the not-found page; 301: moved). */
export interface ShellPage {
  html: string;
  status: 200 | 404 | 301;
  /** With 301: where the page is now (a merged-away film's page → the kept film's, origin-relative). */
  location?: string;
  /** Whether the page was rendered into the shell (public, cacheable), or is the static shell as it came. */
  rendered: boolean;
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

const loaded = new WeakMap<LoadEntry, Promise<SsrEntry>>();
let missingLogged = false;

/**
 * The host's renderer, loaded once and warmed up before any page uses it (web/src/app/warm-up.ts; decision 0904). A
 * host calls it as it starts (the Worker as its isolate starts, the Node host as it listens), so the first visitor's
 * page runs compiled code; every page waits for the same promise, so none is rendered while the warm-up's stand-in
 * catalogue is the renderer's API client (one per process or isolate). A failed load is tried again on the next page
 * (a build may land); a failed warm-up only leaves the first page colder.
 */
export function loadRenderer(loadEntry: LoadEntry): Promise<SsrEntry> {
  let load = loaded.get(loadEntry);
  if (!load) {
    const loading = loadEntry().then(async (entry) => {
      await entry.warmUp?.().catch(() => 0);
      return entry;
    });
    loading.catch(() => {
      if (loaded.get(loadEntry) === loading) loaded.delete(loadEntry);
    });
    loaded.set(loadEntry, loading);
    load = loading;
  }
  return load;
}

/**
 * The shell cut once where every page differs: the head's first part (title, description, sharing tags, the
 * boot script: what withMeta edits, a couple of KB) apart from the rest of the head (the critical CSS, most of
 * the shell's 36 KB), and the markers of #root and </body>. A host hands every page the same shell, so it is
 * cut once and each page only joins strings.
 */
interface ShellParts {
  head: string;
  restOfHead: string;
  /** The app's stylesheet inline at the start of restOfHead (web/vite-plugins.ts inlineCss): its address, and what follows it. */
  style: { href: string; after: string } | null;
  beforeRoot: string;
  rootOpen: string;
  afterApp: string;
  end: string;
}

let lastCut: { shell: string; parts: ShellParts | null } | undefined;

function cutShell(shell: string): ShellParts | null {
  if (lastCut?.shell === shell) return lastCut.parts;
  const headEnd = shell.indexOf('</head>');
  const root = ROOT.exec(shell);
  const bodyEnd = shell.lastIndexOf('</body>');
  let parts: ShellParts | null = null;
  if (headEnd >= 0 && root && root.index > headEnd && bodyEnd > root.index) {
    const styleAt = shell.indexOf('<style', 0);
    const editEnd = styleAt >= 0 && styleAt < headEnd ? styleAt : headEnd;
    const rootEnd = root.index + root[0].length;
    const restOfHead = shell.slice(editEnd, headEnd);
    const sheet = INLINE_STYLESHEET.exec(restOfHead);
    parts = {
      head: shell.slice(0, editEnd),
      restOfHead,
      style: sheet?.index === 0 ? { href: sheet[1]!, after: restOfHead.slice(sheet[0].length) } : null,
      beforeRoot: shell.slice(headEnd + '</head>'.length, root.index),
      rootOpen: root[1]!,
      afterApp: shell.slice(rootEnd, bodyEnd),
      end: shell.slice(bodyEnd + '</body>'.length),
    };
  }
  lastCut = { shell, parts };
  return parts;
}

/**
 * The shell (index.html) with #root holding the server-rendered page and the query cache it came from,
 * or the shell unchanged when the page is not one the host renders, the build is missing, or rendering
 * fails (logged). An unknown path, film, genre or country is the not-found page with status 404.
 * `url` is the request's URL, whose path and query only are used: absolute links (canonical, og:url,
 * og:image, JSON-LD) come from `publicUrl` (PUBLIC_URL), never from the Host header. `shell` must carry the
 * <div id="root">…</div><!--/app--> markers of web/index.html.
 */
export async function renderShell(
  shell: string,
  url: URL,
  loadEntry: LoadEntry,
  fetchApi: ApiFetch,
  publicUrl: string,
): Promise<ShellPage> {
  const unchanged: ShellPage = { html: shell, status: 200, rendered: false };
  if (!isPagePath(url.pathname)) return unchanged;
  const parts = cutShell(shell);
  if (!parts) return unchanged;
  let entry: SsrEntry;
  try {
    entry = await loadRenderer(loadEntry);
  } catch (error) {
    if (!missingLogged) console.error('[ssr] renderer not built (npm run build); sending the static shell:', String(error));
    missingLogged = true;
    return unchanged;
  }
  try {
    const origin = new URL(publicUrl).origin;
    const page = await entry.renderPage(url.pathname + url.search, fetchApi, origin);
    if (!page) return unchanged;
    // A film merged into another (issue 32): links, bookmarks and search engines follow it there.
    if (page.status === 301 && page.location?.startsWith('/')) return { html: '', status: 301, location: page.location, rendered: false };
    const status = page.status === 404 ? 404 : 200;
    // A not-found page carries no state: the browser renders it afresh (nothing to hydrate from).
    const state = page.state ? `<script type="application/json" id="${STATE_ID}">${scriptSafeJson(page.state)}</script>` : '';
    const structured = (page.structuredData ?? [])
      .map((doc) => `<script type="application/ld+json">${scriptSafeJson(doc)}</script>`)
      .join('');
    // The async boot script (web/vite-plugins.ts bootPrefetch) may run before the body is parsed: a marker
    // ahead of it says the page's data is already here (no prefetch). The state itself ends the body, so
    // the content comes first in the bytes; the app reads it once the document is parsed.
    const boot = state ? BOOT_SCRIPT.exec(parts.head) : null;
    const head = boot ? parts.head.slice(0, boot.index) + SSR_MARKER + parts.head.slice(boot.index) : parts.head;
    // React puts the resources it hoists (image preloads of the first posters) before the markup: they
    // belong in <head>, where the browser finds them first and hydration does not look.
    const hoisted = /^(?:<link [^>]*>)+/.exec(page.html)?.[0] ?? '';
    const body = page.html.slice(hoisted.length);
    const html =
      withMeta(head, page.meta ?? {}, url, origin) +
      restOfHead(parts, entry.stylesheet, body) +
      hoisted +
      structured +
      '</head>' +
      parts.beforeRoot +
      parts.rootOpen +
      body +
      '</div><!--/app-->' +
      parts.afterApp +
      state +
      '</body>' +
      parts.end;
    return { html, status, rendered: true };
  } catch (error) {
    console.error(`[ssr] rendering ${url.pathname} failed; sending the static shell:`, error);
    return unchanged;
  }
}

/**
 * The rest of the head with the stylesheet cut to the rules the page's markup can use, marked data-critical (main.tsx
 * then links the whole sheet as the app starts); as the shell has it when the renderer's table is not of this sheet.
 */
function restOfHead(parts: ShellParts, table: StylesheetTable | null | undefined, markup: string): string {
  if (!parts.style || table?.href !== parts.style.href) return parts.restOfHead;
  const css = criticalCss(table.pieces, classesIn(parts.beforeRoot + markup + parts.afterApp));
  return inlineStylesheet(parts.style.href, css, { critical: true }) + parts.style.after;
}

/**
 * The page's own title, description, robots, canonical link and sharing tags (Open Graph, Twitter card) in
 * the head's first part (cutShell; the browser's usePageMeta then finds and keeps them): the first paint and
 * crawlers see the page's title, not the site's. A tag the shell has is changed where it is; one it lacks is
 * added at the end of that part. Absolute URLs are made from `origin` (PUBLIC_URL's).
 */
function withMeta(head: string, meta: PageMeta, url: URL, origin: string): string {
  let html = head;
  const setContent = (attr: 'name' | 'property', key: string, value: string | undefined) => {
    if (!value) return;
    const tag = new RegExp(`<meta ${attr}="${key}" content="[^"]*"\\s*/?>`);
    const next = `<meta ${attr}="${key}" content="${escapeHtml(value)}" />`;
    html = tag.test(html) ? html.replace(tag, () => next) : `${html}${next}`;
  };
  if (meta.title) {
    const title = `<title>${escapeHtml(meta.title)}</title>`;
    html = /<title>[^<]*<\/title>/.test(html) ? html.replace(/<title>[^<]*<\/title>/, () => title) : `${html}${title}`;
    setContent('property', 'og:title', meta.title);
  }
  setContent('name', 'description', meta.description);
  setContent('property', 'og:description', meta.description);
  setContent('name', 'robots', meta.robots);
  const canonical = new URL(meta.canonicalPath ?? url.pathname, origin).href;
  setContent('property', 'og:url', canonical);
  setContent('property', 'og:type', meta.type ?? 'website');
  const image = meta.image ? new URL(meta.image, origin).href : undefined;
  setContent('property', 'og:image', image);
  setContent('name', 'twitter:card', image ? 'summary_large_image' : 'summary');
  setContent('name', 'twitter:title', meta.title);
  setContent('name', 'twitter:description', meta.description);
  setContent('name', 'twitter:image', image);
  return `${html}<link rel="canonical" href="${escapeHtml(canonical)}">`;
}
