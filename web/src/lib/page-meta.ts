import { createContext, useContext, useEffect } from 'react';

export const SITE_NAME = 'PhimViet';
export const SITE_SUFFIX = `${SITE_NAME} - Xem phim online`;

/** A schema.org JSON-LD document (built with schema-dts types where it is made). */
export type JsonLd = object;

export interface PageMeta {
  title: string;
  description?: string;
  /** Path of the canonical URL, e.g. '/phim-bo'; defaults to the current path without its query. */
  canonicalPath?: string;
  robots?: string;
  /** og:type: 'website' unless the page says 'video.movie' or 'video.tv_show'. */
  type?: string;
  /** The sharing image (og:image, twitter:image): a path of this site or an absolute URL. */
  image?: string;
  /**
   * The page's JSON-LD documents, given the site's origin: PUBLIC_URL's on the host that renders the page
   * (never the request's Host), the page's own in the browser.
   */
  structuredData?: (origin: string) => JsonLd[];
}

function setMeta(attr: 'name' | 'property', key: string, content: string) {
  let el = document.head.querySelector<HTMLMetaElement>(`meta[${attr}="${key}"]`);
  if (!el) {
    el = document.createElement('meta');
    el.setAttribute(attr, key);
    document.head.appendChild(el);
  }
  el.content = content;
}

/**
 * Where the page's meta goes while the host renders it (web/src/app/render-page.tsx): the host writes it
 * into the shell's <head>, so the first paint already has the page's title. Null in the browser.
 */
export const ServerPageMeta = createContext<PageMeta | null>(null);

/** Document title, description, canonical link, sharing tags and structured data for the current page. */
export function usePageMeta({ title, description, canonicalPath, robots = 'index, follow', type, image, structuredData }: PageMeta): void {
  const server = useContext(ServerPageMeta);
  if (server) Object.assign(server, { title, description, canonicalPath, robots, type, image, structuredData });
  useEffect(() => {
    document.title = title;
    setMeta('property', 'og:title', title);
    if (description) {
      setMeta('name', 'description', description);
      setMeta('property', 'og:description', description);
    }
    setMeta('name', 'robots', robots);
    // The canonical origin is the one the host wrote (PUBLIC_URL); the page's own when it wrote none.
    let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    const origin = link?.href ? new URL(link.href).origin : location.origin;
    const href = new URL(canonicalPath ?? location.pathname, origin).href;
    if (!link) {
      link = document.createElement('link');
      link.rel = 'canonical';
      document.head.appendChild(link);
    }
    link.href = href;
    setMeta('property', 'og:url', href);
    setMeta('property', 'og:type', type ?? 'website');
    if (image) {
      const src = new URL(image, origin).href;
      setMeta('property', 'og:image', src);
      setMeta('name', 'twitter:image', src);
    }
    // Structured data of a page left behind must not describe the next one. The page the host rendered already
    // holds its own: left as it is, the first render does no work in the head.
    // Written as the host writes them (worker/ssr/render.ts scriptSafeJson), so the two compare equal.
    const docs = (structuredData?.(origin) ?? []).map((doc) => JSON.stringify(doc).replace(/</g, '\\u003c'));
    const scripts = [...document.head.querySelectorAll('script[type="application/ld+json"]')];
    if (docs.length === scripts.length && docs.every((doc, i) => scripts[i]!.textContent === doc)) return;
    for (const old of scripts) old.remove();
    for (const doc of docs) {
      const script = document.createElement('script');
      script.type = 'application/ld+json';
      script.textContent = doc;
      document.head.appendChild(script);
    }
  }, [title, description, canonicalPath, robots, type, image, structuredData]);
}
