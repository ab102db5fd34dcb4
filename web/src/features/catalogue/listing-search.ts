/**
 * Query string of a listing page (the filter bar "in effect" plus the page). Every field falls back
 * to "absent" when the URL holds something invalid, so a bad link shows the unfiltered list.
 *
 * Written out rather than with zod: this runs in the entry chunk, and any zod there shares
 * zod/v4/core with the zod that lazy features (forms, live comments) load, and the bundler then puts
 * that shared core (~50 kB gzip) into every page's first load, past the home budget of 170 kB.
 */
export interface ListingSearch {
  page?: number;
  sort?: 'createdAt' | 'views';
  /** Genre slug. */
  category?: string;
  /** Country slug. */
  country?: string;
  type?: number;
  year?: number;
  keyword?: string;
  /** "Phim chiếu rạp" only (issue 40 §2): chieurap=1. */
  chieurap?: 1;
}

/** A whole number in [min, max] from a number or numeric string, else undefined. */
export function intParam(value: unknown, min: number, max: number): number | undefined {
  const n = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(n) && n >= min && n <= max ? n : undefined;
}

/** A non-empty string of at most `max` characters (numbers from the URL parser count as text). */
export function textParam(value: unknown, max: number): string | undefined {
  const s = typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
  return s.length > 0 && s.length <= max ? s : undefined;
}

export function validateListingSearch(raw: Record<string, unknown>): ListingSearch {
  const parsed: ListingSearch = {
    page: intParam(raw.page, 1, 10_000),
    sort: raw.sort === 'createdAt' || raw.sort === 'views' ? raw.sort : undefined,
    category: textParam(raw.category, 40),
    country: textParam(raw.country, 40),
    type: intParam(raw.type, 24, 27),
    year: intParam(raw.year, 1900, 2100),
    keyword: textParam(raw.keyword, 100),
    chieurap: intParam(raw.chieurap, 1, 1) as 1 | undefined,
  };
  // Drop absent keys so URLs stay clean (?page=2 rather than ?page=2&sort=undefined).
  return Object.fromEntries(Object.entries(parsed).filter(([, v]) => v !== undefined)) as ListingSearch;
}
