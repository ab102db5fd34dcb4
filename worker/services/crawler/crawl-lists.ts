// The admin and the scheduler pick crawl categories by the spec's 27 names; the crawler
// walks source list paths. This is the one mapping between them.
import { GENRES } from '../../schemas/taxonomy';

/** Crawled when no list is asked for: everything the source changed, newest first. */
export const DEFAULT_CRAWL_LIST = 'danh-sach/phim-moi-cap-nhat';

const LIST_BY_CATEGORY_NAME: ReadonlyMap<string, string> = new Map([
  ...GENRES.map((g) => [g.name, `the-loai/${g.sourceSlug}`] as const),
  ['Phim Bộ', 'danh-sach/phim-bo'],
  ['Phim Lẻ', 'danh-sach/phim-le'],
  ['Phim Shows', 'danh-sach/tv-shows'],
  ['Phim Sắp Chiếu', 'danh-sach/phim-sap-chieu'],
]);

/** 'Hành Động' → 'the-loai/hanh-dong', 'Phim Bộ' → 'danh-sach/phim-bo'; undefined for other names. */
export function crawlListForCategory(name: string): string | undefined {
  return LIST_BY_CATEGORY_NAME.get(name.trim());
}

/** Category names → their list paths, in order, duplicates dropped; throws on a name not in CRAWL_CATEGORY_NAMES. */
export function crawlListsForCategories(names: readonly string[]): string[] {
  const lists = names.map((name) => {
    const list = crawlListForCategory(name);
    if (!list) throw new RangeError(`unknown crawl category '${name}'`);
    return list;
  });
  return [...new Set(lists)];
}

/** A list path safe to append to a source base: 'danh-sach/phim-bo', 'the-loai/phim-18', 'quoc-gia/han-quoc'. */
export function isValidListPath(path: string): boolean {
  return /^[a-z0-9-]+(\/[a-z0-9+_-]+)*$/i.test(path) && path.length <= 200;
}
