import { CATEGORIES, COUNTRIES, GENRES } from '../../../../worker/schemas/taxonomy';

/** What a listing page needs to know about its genre, country or category. */
export interface ListingInfo {
  kind: 'category' | 'genre' | 'country';
  /** API endpoint: GET /api/product/product-{endpoint}. */
  endpoint: string;
  /** The web path of the page. */
  path: string;
  /** 'Hành Động', 'Hàn Quốc', 'Phim Bộ'. */
  name: string;
  /** 'Phim Hành Động': shown upper-case as the page heading. */
  heading: string;
}

const heading = (name: string) => (/^phim\b/i.test(name) ? name : `Phim ${name}`);

export function categoryListing(slug: string): ListingInfo | undefined {
  const c = CATEGORIES.find((x) => x.slug === slug);
  return c && { kind: 'category', endpoint: c.endpoint, path: `/${c.slug}`, name: c.name, heading: heading(c.name) };
}

/** Every genre keeps its own label, khoa-hoc included (the spec's 18+ label there is a known defect). */
export function genreListing(slug: string): ListingInfo | undefined {
  const g = GENRES.find((x) => x.slug === slug);
  return g && { kind: 'genre', endpoint: g.endpoint, path: `/the-loai/${g.slug}`, name: g.name, heading: heading(g.name) };
}

export function countryListing(slug: string): ListingInfo | undefined {
  const c = COUNTRIES.find((x) => x.slug === slug);
  return c && { kind: 'country', endpoint: c.endpoint, path: `/${c.slug}`, name: c.name, heading: heading(c.name) };
}
