import { createContext, useContext, useEffect } from 'react';

export const SITE_NAME = 'PhimViet';
export const SITE_SUFFIX = `${SITE_NAME} - Xem phim online`;

export interface PageMeta {
  title: string;
  description?: string;
  /** Path of the canonical URL, e.g. '/phim-bo'; defaults to the current path without its query. */
  canonicalPath?: string;
  robots?: string;
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

/** Document title, description, canonical link and sharing tags for the current page. */
export function usePageMeta({ title, description, canonicalPath, robots = 'index, follow' }: PageMeta): void {
  const server = useContext(ServerPageMeta);
  if (server) Object.assign(server, { title, description, canonicalPath, robots });
  useEffect(() => {
    document.title = title;
    setMeta('property', 'og:title', title);
    if (description) {
      setMeta('name', 'description', description);
      setMeta('property', 'og:description', description);
    }
    setMeta('name', 'robots', robots);
    const href = new URL(canonicalPath ?? location.pathname, location.origin).href;
    let link = document.head.querySelector<HTMLLinkElement>('link[rel="canonical"]');
    if (!link) {
      link = document.createElement('link');
      link.rel = 'canonical';
      document.head.appendChild(link);
    }
    link.href = href;
    setMeta('property', 'og:url', href);
  }, [title, description, canonicalPath, robots]);
}
