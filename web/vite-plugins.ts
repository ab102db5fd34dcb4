import { existsSync, readFileSync } from 'node:fs';
import type { Plugin, Rollup } from 'vite';
import { INLINE_STYLESHEET, inlineStylesheet, type StylesheetTable } from '../worker/schemas/stylesheet';
import { stylesheetPieces } from './stylesheet-table';
import { CATEGORIES, COUNTRIES, GENRES, RESERVED_FILM_SLUGS } from '../worker/schemas/taxonomy';
import { CHUNK_META } from './src/features/player/stream/chunk-names.ts';

/**
 * Inlines the (single, ~7 kB gzip) stylesheet into index.html: the first paint then needs only the
 * document, not a second render-blocking round trip. The CSP allows inline styles, not scripts.
 */
export function inlineCss(): Plugin {
  return rewriteIndexHtml('phimviet:inline-css', (source, bundle) => {
    for (const [fileName, file] of Object.entries(bundle)) {
      if (file.type !== 'asset' || !fileName.endsWith('.css')) continue;
      const tag = new RegExp(`<link rel="stylesheet"[^>]*href="/${fileName.replace(/[.]/g, '\\.')}"[^>]*>`);
      // data-href: the address it would have had; the app marks it as in the page for Vite's preload helper (main.tsx).
      if (tag.test(source)) source = source.replace(tag, () => inlineStylesheet(`/${fileName}`, String(file.source)));
    }
    return source;
  });
}

/** The module web/src/entry-server.tsx exports the app's stylesheet from, cut for worker/ssr/critical-css.ts. */
const STYLESHEET_MODULE = 'virtual:app-stylesheet';

/**
 * The server renderer's build (`vite build --ssr`, after the browser's): `virtual:app-stylesheet` is the stylesheet
 * the built index.html carries inline (inlineCss), cut into rules with the class names each needs, so a host puts in
 * a rendered page only what its markup can use. Without a browser build it is null, and pages carry the whole sheet.
 */
export function appStylesheetTable(indexHtml: string): Plugin {
  return {
    name: 'phimviet:app-stylesheet',
    resolveId: (id) => (id === STYLESHEET_MODULE ? `\0${STYLESHEET_MODULE}` : null),
    load(id) {
      if (id !== `\0${STYLESHEET_MODULE}`) return null;
      const html = existsSync(indexHtml) ? readFileSync(indexHtml, 'utf8') : '';
      const style = INLINE_STYLESHEET.exec(html);
      const table: StylesheetTable | null = style ? { href: style[1]!, pieces: stylesheetPieces(style[2]!) } : null;
      return `export default ${JSON.stringify(table)};`;
    },
  };
}

type EmitFile = (file: { type: 'asset'; name: string; source: string }) => string;

/**
 * A build plugin that rewrites the built index.html once every other file is written (enforce post);
 * `emit` adds an asset and answers its final file name.
 */
function rewriteIndexHtml(name: string, rewrite: (source: string, bundle: Rollup.OutputBundle, emit: EmitFile) => string): Plugin {
  return {
    name,
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return;
      html.source = rewrite(String(html.source), bundle, (file) => this.getFileName(this.emitFile(file)));
    },
  };
}

/**
 * A tiny classic script, loaded async from index.html, that starts the first page's catalogue
 * requests while the app's code is still downloading (home; listings without filters; film and watch
 * pages; a film's detail with the signed-in viewer's token, as lib/auth-request.ts would send it),
 * and preloads the page's first posters (its LCP image) as soon as the data arrives. The app takes each response once (lib/api-client.ts takeBootResponse) instead of asking
 * again. It knows the route table only through the taxonomy, like the routes themselves.
 */
export function bootPrefetch(): Plugin {
  const listings: Record<string, string> = {};
  for (const c of CATEGORIES) listings[`/${c.slug}`] = c.endpoint;
  for (const c of COUNTRIES) listings[`/${c.slug}`] = c.endpoint;
  for (const g of GENRES) {
    listings[`/the-loai/${g.slug}`] = g.endpoint;
    listings[`/the-loai/${encodeURIComponent(g.slug)}`] = g.endpoint;
  }
  // Every first segment that is not a film (fixed pages, the footer's pages, the back office): no request.
  const reserved = [...RESERVED_FILM_SLUGS];
  // Taps on an element marked data-early-tap ("Phát" and the picture, "Xem phim") before the app is ready are
  // remembered with the page they were made on, and acted on once something on that page can (lib/play-intent.ts):
  // never dropped. The app's first page may hydrate its content after <html data-app-ready> (a Suspense boundary
  // hydrates in a pass of its own), so they are kept past it; one left untaken stays with its page and expires there
  // (lib/play-intent.ts EARLY_TAP_MS), never acting on another. Then the first page's reads;
  // a page the host rendered (worker/ssr/render.ts) carries its data (#ssr-state): nothing to prefetch.
  const code = `(function(){var b=window.__phimvietBoot=window.__phimvietBoot||{};b.taps=[];
document.addEventListener('click',function(e){if('appReady' in document.documentElement.dataset)return;
var t=e.target,el=t&&t.closest&&t.closest('[data-early-tap]');if(!el)return;var k=el.getAttribute('data-early-tap');
b.taps.push({kind:k,at:e.timeStamp,path:location.pathname});if(b.onTap)b.onTap(k);},true);
try{
if(document.querySelector('meta[name="ssr"]'))return;
var L=${JSON.stringify(listings)},R=${JSON.stringify(reserved)},p=location.pathname.replace(/\\/+$/,'')||'/',u=[];
var top='/api/product/home-top',home='/api/product/product-home',side='/api/product/sidebar',film;
if(p==='/')u.push(top,home);
else if(L[p]){if(!location.search)u.push('/api/product/product-'+L[p]+'?page=1');u.push(side);}
else{var s=p.split('/').filter(Boolean);
if(s.length===1&&R.indexOf(s[0])<0)u.push(film='/api/product/'+s[0]);
else if(s.length===3&&s[0]==='xem-phim')u.push(film='/api/product/'+s[1]);}
var t=null;try{t=sessionStorage.getItem('token');}catch(e){}
function img(src){if(!src)return;var l=document.createElement('link');l.rel='preload';l.as='image';l.href=src;l.setAttribute('fetchpriority','high');document.head.appendChild(l);}
u.forEach(function(x){b[x]=fetch(x,{credentials:'same-origin',headers:x===film&&t?{Authorization:'Bearer '+t}:{}}).then(function(r){
if(r.ok&&x!==side&&x!==home)r.clone().json().then(function(d){var f=d.datafilm?[d.datafilm]:(d.phimhot||d.data||[]).slice(0,2);f.forEach(function(f){img(f.hinhanh||f.thumb);});}).catch(function(){});
return r;});b[x].catch(function(){});});
}catch(e){}})();`;
  let fileName = '';
  return {
    name: 'phimviet:boot-prefetch',
    apply: 'build',
    generateBundle() {
      // startAfterPaint() re-emits this file with the app's start appended, under its final hash.
      const ref = this.emitFile({ type: 'asset', name: 'boot.js', source: code });
      fileName = this.getFileName(ref);
    },
    transformIndexHtml: {
      order: 'post',
      handler() {
        return fileName ? [{ tag: 'script', attrs: { src: `/${fileName}`, async: true }, injectTo: 'head-prepend' }] : [];
      },
    },
  };
}

/** How long the app's code waits for a watch page's first stream bytes at most (startAfterPaint). */
const STREAM_FIRST_MS = 3000;

/**
 * The app's JavaScript starts after the first paint: index.html loses its module script and modulepreload
 * tags, and the boot script (bootPrefetch, async) adds them back once the document is parsed and painted.
 * A page the host rendered (worker/ssr/render.ts) is then on screen before ~85 KB of JavaScript is fetched,
 * parsed and run to hydrate it, instead of after (a module script that arrives before parsing ends runs
 * before the browser paints). Runs after Vite wrote index.html; the boot file is re-emitted under the hash
 * of its final content.
 */
export function startAfterPaint(): Plugin {
  return rewriteIndexHtml('phimviet:start-after-paint', (html, bundle, emit) => {
    let source = html;
    const entry = /<script type="module" crossorigin src="([^"]+)"><\/script>\s*/.exec(source);
    const bootTag = /<script src="\/(assets\/boot-[^"]+\.js)" async><\/script>/.exec(source);
    const boot = bootTag ? bundle[bootTag[1]!] : undefined;
    if (!entry || !bootTag || boot?.type !== 'asset') return source;
    const preloads: string[] = [];
    source = source.replace(entry[0], '').replace(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g, (_tag, href: string) => {
      preloads.push(href);
      return '';
    });
    // The entry's chunks are evaluated one task each (an import of each preloaded chunk in order, then the entry):
    // evaluated as one module graph they were the first page's longest task after its paint (docs/decisions/0611).
    // Once parsed (main.tsx reads #root and #ssr-state) and painted (a frame, then a task); a hidden tab
    // runs no animation frame, so a timer starts the app there.
    // On a watch page, the stream's start path (features/player/stream-start.ts) goes first: a small chunk that fetches
    // the stream's first bytes and plays a tap on "Phát" before the app has hydrated. It and the engine's script (the
    // longest download before a first frame; never with Data Saver) are asked as soon as the poster is painted as the
    // page's largest contentful paint (as features/player/stream/schedule.ts afterLargestPaint), so they never count
    // in it.
    // The app's own code waits for those bytes (at most STREAM_FIRST_MS): on a phone's connection they would
    // otherwise share it with the app's.
    // On a film page ("Xem phim" in the host's HTML, not disabled for a VIP-only film) the app goes first; the
    // engine's script follows as soon as the app's chunks are in (the entry's evaluation, ~0.5 s on a phone, needs no
    // network), and the same chunk once the entry has run: it gets the likely episode ready while the app hydrates
    // (issue 40 §6).
    // The first route's chunks (a watch page's, a film page's) are linked ahead one a task from the app's start: the
    // route's import() then finds them asked, where Vite's preload helper added a dozen links in one task, each a
    // request set up on the main thread (about 1 ms at start-up), in the router's first load.
    const start = `(function(){var E=${JSON.stringify(entry[1])},P=${JSON.stringify(preloads)},d=false,a=false,w=null;
function meta(n){return document.querySelector('meta[name="'+n+'"]');}
function link(rel,h){var l=document.createElement('link');l.rel=rel;l.href=h;l.crossOrigin='';document.head.appendChild(l);return l;}
function app(){if(a)return;a=true;P.forEach(function(h){link('modulepreload',h);});route();var q=P.slice();
(function next(){var h=q.shift();if(h){var n=function(){setTimeout(next,0);};import(h).then(n,n);return;}
engine();var s=document.createElement('script');s.type='module';s.src=E;s.crossOrigin='';s.onload=s.onerror=film;document.head.appendChild(s);})();}
function route(){var m=/^\\/xem-phim\\//.test(location.pathname)?meta('${CHUNK_META.watch.meta}'):document.querySelector('[data-early-tap="watch"]')?meta('${CHUNK_META.film.meta}'):null;if(!m)return;
var q=[m.content].concat((m.getAttribute('data-imports')||'').split(' '));
(function one(){var h=q.shift();if(h&&!document.querySelector('link[href="'+h+'"]'))link('modulepreload',h);if(q.length)setTimeout(one,0);})();}
function begin(m){(m.getAttribute('data-imports')||'').split(' ').forEach(function(h){if(h&&!document.querySelector('link[href="'+h+'"]'))link('modulepreload',h);});
return import(m.content);}
function watchable(){return !!document.querySelector('[data-early-tap="watch"]:not([disabled])');}
function engine(){var g=meta('${CHUNK_META.engine.meta}'),c=navigator.connection;if(!g||(c&&c.saveData)||!(w||watchable())||document.querySelector('link[href="'+g.content+'"]'))return;
var l=link('prefetch',g.content);l.as='script';l.onload=l.onerror=function(){l.setAttribute('data-loaded','');};}
function film(){var m=meta('${CHUNK_META.start.meta}'),c=navigator.connection;if(!m||w||(c&&c.saveData)||!watchable())return;
begin(m).catch(function(){});}
function lcp(run){var i=document.querySelector('img[fetchpriority="high"]'),x=false,o,O=window.PerformanceObserver;
function f(){if(x)return;x=true;if(o)o.disconnect();run();}
setTimeout(f,3000);if(!i)return f();
if(O&&O.supportedEntryTypes&&O.supportedEntryTypes.indexOf('largest-contentful-paint')>=0){o=new O(function(L){if(L.getEntries().some(function(e){return e.element===i;}))f();});o.observe({type:'largest-contentful-paint',buffered:true});}
else if(i.complete)requestAnimationFrame(f);else i.addEventListener('load',function(){requestAnimationFrame(f);});}
function stream(){if(!/^\\/xem-phim\\/[^/]+\\/tap-\\d+\\/?$/.test(location.pathname))return null;
var m=meta('${CHUNK_META.start.meta}');if(!m)return null;
return new Promise(function(done){lcp(function(){engine();
begin(m).then(function(){var b=window.__phimvietBoot;return b&&b.streamFirst;}).then(done,done);});});}
function go(){if(d)return;d=true;if(!w)return app();setTimeout(app,${STREAM_FIRST_MS});w.then(app,app);}
function painted(){requestAnimationFrame(function(){setTimeout(go,0);});setTimeout(go,500);}
function parsed(){w=stream();painted();}
if(document.readyState==='loading')document.addEventListener('DOMContentLoaded',parsed);else parsed();})();`;
    delete bundle[bootTag[1]!];
    const bootFile = emit({ type: 'asset', name: 'boot.js', source: `${String(boot.source)}\n${start}` });
    return source.replace(bootTag[0], () => `<script src="/${bootFile}" async></script>`);
  });
}

/**
 * Names the player's chunks in index.html (`<meta name="phimviet-stream-engine" content="/assets/stream-engine-….js">`
 * and the others of features/player/stream/chunk-names.ts, with the chunks, styles and worker scripts each brings): the watch page and the film page fetch the engine over
 * the network (a prefetch: no parsing, no main-thread work) before they run it, and the boot script starts the
 * watch page's start path by its name (docs/decisions/0952). No other page fetches them.
 */
export function chunkMetas(): Plugin {
  return rewriteIndexHtml('phimviet:chunk-metas', (source, bundle) => {
    const tags: string[] = [];
    for (const { meta, file } of Object.values(CHUNK_META)) {
      const chunk = Object.values(bundle).find((f): f is Rollup.OutputChunk => f.type === 'chunk' && file.test(f.fileName));
      if (!chunk) continue;
      // What it imports statically, all the way down: the boot script preloads them beside it, not one round trip
      // after another.
      const imports = new Set<string>();
      const walk = (name: string) => {
        const dep = bundle[name];
        if (dep?.type !== 'chunk' || imports.has(name)) return;
        imports.add(name);
        for (const next of dep.imports) walk(next);
      };
      for (const name of chunk.imports) walk(name);
      const list = [...imports].map((name) => `/${name}`).join(' ');
      // And the styles they come with: an import() waits for them (Vite's preload helper) before it resolves.
      // Not the stylesheets every page carries inline (inlineCss: index.html's own).
      const css = new Set<string>();
      for (const name of [chunk.fileName, ...imports]) {
        const dep = bundle[name];
        if (dep?.type !== 'chunk' || dep.facadeModuleId?.endsWith('/index.html')) continue;
        for (const file of dep.viteMetadata?.importedCss ?? []) css.add(`/${file}`);
      }
      const styles = [...css].join(' ');
      // And the worker scripts it starts (hls.js's transmuxer, imported as a URL): fetched ahead with it
      // (stream/schedule.ts fetchChunk, which the start path and the app call on the watch and film pages).
      const workers = [...(chunk.viteMetadata?.importedAssets ?? [])]
        .filter((file) => file.endsWith('.js'))
        .map((file) => `/${file}`)
        .join(' ');
      tags.push(
        `<meta name="${meta}" content="/${chunk.fileName}"${list ? ` data-imports="${list}"` : ''}${styles ? ` data-styles="${styles}"` : ''}${workers ? ` data-workers="${workers}"` : ''}>`,
      );
    }
    return source.replace('</head>', () => `${tags.join('\n')}\n</head>`);
  });
}
