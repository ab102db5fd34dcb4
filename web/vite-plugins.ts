import type { Plugin } from 'vite';
import { CATEGORIES, COUNTRIES, GENRES } from '../worker/schemas/taxonomy';

/**
 * Inlines the (single, ~7 kB gzip) stylesheet into index.html: the first paint then needs only the
 * document, not a second render-blocking round trip. The CSP allows inline styles, not scripts.
 */
export function inlineCss(): Plugin {
  return {
    name: 'phimviet:inline-css',
    apply: 'build',
    enforce: 'post',
    generateBundle(_options, bundle) {
      const html = bundle['index.html'];
      if (html?.type !== 'asset') return;
      let source = String(html.source);
      for (const [fileName, file] of Object.entries(bundle)) {
        if (file.type !== 'asset' || !fileName.endsWith('.css')) continue;
        const tag = new RegExp(`<link rel="stylesheet"[^>]*href="/${fileName.replace(/[.]/g, '\\.')}"[^>]*>`);
        if (tag.test(source)) source = source.replace(tag, () => `<style>${String(file.source)}</style>`);
      }
      html.source = source;
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
  const reserved = ['tim-kiem', 'not-found', 'dang-nhap', 'dang-ky', 'dang-ky-goi-vip', 'account', 'admin', 'offline'];
  // A page the host rendered (worker/ssr/render.ts) carries its data in #ssr-state: nothing to prefetch.
  const code = `(function(){try{
if(document.getElementById('ssr-state'))return;
var L=${JSON.stringify(listings)},R=${JSON.stringify(reserved)},p=location.pathname.replace(/\\/+$/,'')||'/',u=[];
var home='/api/product/product-home',film;
if(p==='/')u.push(home);
else if(L[p]){if(!location.search)u.push('/api/product/product-'+L[p]+'?page=1');u.push(home);}
else{var s=p.split('/').filter(Boolean);
if(s.length===1&&R.indexOf(s[0])<0)u.push(film='/api/product/'+s[0]);
else if(s.length===3&&s[0]==='xem-phim')u.push(film='/api/product/'+s[1]);}
var t=null;try{t=sessionStorage.getItem('token');}catch(e){}
var b=window.__phimvietBoot={};
function img(src){if(!src)return;var l=document.createElement('link');l.rel='preload';l.as='image';l.href=src;l.setAttribute('fetchpriority','high');document.head.appendChild(l);}
u.forEach(function(x){b[x]=fetch(x,{credentials:'same-origin',headers:x===film&&t?{Authorization:'Bearer '+t}:{}}).then(function(r){
if(r.ok&&(x===home?p==='/':true))r.clone().json().then(function(d){var f=d.datafilm?[d.datafilm]:(d.phimhot||d.data||[]).slice(0,2);f.forEach(function(f){img(f.hinhanh||f.thumb);});}).catch(function(){});
return r;});b[x].catch(function(){});});
}catch(e){}})();`;
  let fileName = '';
  return {
    name: 'phimviet:boot-prefetch',
    apply: 'build',
    generateBundle() {
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
