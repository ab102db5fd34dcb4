// What a cached public response depends on, read from its path (docs/decisions/1020-per-film-cache-versions.md):
// a film's page, watch pages and detail read change with that film only; home, listings, search, categories and
// the sitemaps with any change that can move a list; anything not named here with every catalogue change (the
// safe default: a path this file does not know is never kept past a change).
import { listingScope, RESERVED_FILM_SLUGS } from '../schemas/taxonomy';
import type { CacheScope } from '../services/catalogue/version';

/** The app's own one-segment pages that are not films (web/src/routes); a film never takes a reserved name. */
const SITE_PAGES = new Set(['', 'index.html', 'lich-su', 'tai-ve', 'tu-phim', 'quen-mat-khau', 'dat-lai-mat-khau', 'xac-minh-email']);
/** List pages with a parameter: /the-loai/{genre}, /tim-kiem/{query}. */
const LIST_PAGES = new Set(['the-loai', 'tim-kiem']);
/** Public list reads of the API under /api/product/. */
const LIST_READS = new Set(['product-home', 'home-top', 'sidebar', 'search']);

const FILM_SLUG = /^[a-z0-9][a-z0-9-]*$/;

function segmentsOf(pathname: string): string[] | null {
  try {
    return pathname.split('/').slice(1).map(decodeURIComponent);
  } catch {
    return null;
  }
}

/** A film's slug if `name` can be one: the film's own pages and reads then depend on it alone. */
const film = (name: string): CacheScope | null => (FILM_SLUG.test(name) && !RESERVED_FILM_SLUGS.has(name) ? { film: name } : null);

export function cacheScopeOf(pathname: string): CacheScope {
  const parts = segmentsOf(pathname);
  if (!parts) return 'all';
  const [first = '', second, third] = parts;
  if (first === 'api') {
    if (second === 'category' && parts.length === 2) return 'lists';
    // A film's related list (docs/decisions/1090) is a read of that film's.
    if (second === 'related' && parts.length === 3 && third) return film(third) ?? 'all';
    if (second !== 'product' || parts.length !== 3 || !third) return 'all';
    if (LIST_READS.has(third)) return 'lists';
    if (third.startsWith('product-') && listingScope(third.slice('product-'.length))) return 'lists';
    return film(third) ?? 'all';
  }
  if (first === 'robots.txt' || first === 'sitemap.xml' || first === 'sitemaps') return 'lists';
  if (first === 'xem-phim' && parts.length === 3 && second) return film(second) ?? 'all';
  if (parts.length === 1) return SITE_PAGES.has(first) || RESERVED_FILM_SLUGS.has(first) ? 'lists' : (film(first) ?? 'all');
  if (parts.length === 2 && LIST_PAGES.has(first)) return 'lists';
  return 'all';
}
