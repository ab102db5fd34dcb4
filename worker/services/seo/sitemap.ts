// Sitemaps (sitemaps.org 0.9) and robots.txt. Every URL is absolute from PUBLIC_URL, never from the request.
// /sitemap.xml is an index: the listings' sitemap, then the films' in chunks of at most SITEMAP_CHUNK_SIZE
// URLs (the protocol's limit is 50,000 a file), each film with its last change as lastmod.
import { asc, count, max, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { films } from '../../db/schema';
import { CATEGORIES, COUNTRIES, GENRES } from '../../schemas/taxonomy';

export const SITEMAP_CHUNK_SIZE = 50_000;

const XML_HEAD = '<?xml version="1.0" encoding="UTF-8"?>\n';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
const absolute = (publicUrl: string, path: string) => escapeXml(new URL(path, publicUrl).href);
/** W3C datetime, as the protocol asks. */
const lastmod = (ms: number) => new Date(ms).toISOString();

/** The index: the listings' sitemap and one per chunk of films, each chunk's lastmod its newest change. */
export async function sitemapIndex(db: Db, publicUrl: string, chunkSize = SITEMAP_CHUNK_SIZE): Promise<string> {
  // Chunk n holds the films ranked (n-1)*size+1 .. n*size by id, the order filmsSitemap pages them in.
  const ranked = db
    .select({ updatedAt: films.updatedAt, rank: sql<number>`row_number() over (order by ${films.id}) - 1`.as('rank') })
    .from(films)
    .as('ranked');
  const chunks = await db
    .select({ chunk: sql<number>`cast(${ranked.rank} / ${chunkSize} as integer)`.as('chunk'), updatedAt: max(ranked.updatedAt) })
    .from(ranked)
    .groupBy(sql`chunk`)
    .orderBy(sql`chunk`);
  const newest = chunks.reduce((m, c) => Math.max(m, c.updatedAt ?? 0), 0);
  const entries = [
    `<sitemap><loc>${absolute(publicUrl, '/sitemaps/listings.xml')}</loc>${newest ? `<lastmod>${lastmod(newest)}</lastmod>` : ''}</sitemap>`,
    ...chunks.map(
      (c) =>
        `<sitemap><loc>${absolute(publicUrl, `/sitemaps/films-${Number(c.chunk) + 1}.xml`)}</loc>${c.updatedAt ? `<lastmod>${lastmod(c.updatedAt)}</lastmod>` : ''}</sitemap>`,
    ),
  ];
  return `${XML_HEAD}<sitemapindex xmlns="${NS}">\n${entries.join('\n')}\n</sitemapindex>\n`;
}

/** Chunk `n` (from 1) of the films' sitemap, or null when the catalogue has no such chunk. */
export async function filmsSitemap(db: Db, publicUrl: string, n: number, chunkSize = SITEMAP_CHUNK_SIZE): Promise<string | null> {
  const rows = await db
    .select({ slug: films.slug, updatedAt: films.updatedAt })
    .from(films)
    .orderBy(asc(films.id))
    .limit(chunkSize)
    .offset((n - 1) * chunkSize);
  if (rows.length === 0 && n > 1) return null;
  const urls = rows.map((r) => `<url><loc>${absolute(publicUrl, `/${r.slug}`)}</loc><lastmod>${lastmod(r.updatedAt)}</lastmod></url>`);
  return `${XML_HEAD}<urlset xmlns="${NS}">\n${urls.join('\n')}\n</urlset>\n`;
}

/** Home, the four categories, every genre and country listing. */
export async function listingsSitemap(db: Db, publicUrl: string): Promise<string> {
  const [newest] = await db.select({ updatedAt: max(films.updatedAt), films: count() }).from(films);
  const mod = newest?.updatedAt ? `<lastmod>${lastmod(newest.updatedAt)}</lastmod>` : '';
  const paths = [
    '/',
    ...CATEGORIES.map((c) => `/${c.slug}`),
    ...GENRES.map((g) => `/the-loai/${g.slug}`),
    ...COUNTRIES.map((c) => `/${c.slug}`),
  ];
  const urls = paths.map((path) => `<url><loc>${absolute(publicUrl, path)}</loc>${mod}</url>`);
  return `${XML_HEAD}<urlset xmlns="${NS}">\n${urls.join('\n')}\n</urlset>\n`;
}

/** robots.txt: everything but the API, and where the sitemap is. */
export function robotsTxt(publicUrl: string): string {
  return `User-agent: *\nAllow: /\nDisallow: /api/\n\nSitemap: ${new URL('/sitemap.xml', publicUrl).href}\n`;
}

/** Paths the app answers at the site's root (routes/seo.ts): the hosts send them to it, not to the static files. */
export function isSeoPath(pathname: string): boolean {
  return pathname === '/robots.txt' || pathname === '/sitemap.xml' || /^\/sitemaps\/[^/]+\.xml$/.test(pathname);
}
