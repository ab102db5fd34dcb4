// The fixed catalogue taxonomy (genres, countries, categories, years): pure data, shared by the API, crawler and web.

export type CategoryId = 24 | 25 | 26 | 27;

export interface Category {
  id: CategoryId;
  /** Web route /{slug}. */
  slug: string;
  name: string;
  /** API endpoint GET /api/product/product-{endpoint}. */
  endpoint: string;
  /** OPhim list path for this category. */
  sourceList: string;
}

export const CATEGORIES: readonly Category[] = [
  { id: 24, slug: 'phim-bo', name: 'Phim Bộ', endpoint: 'phimbo', sourceList: 'danh-sach/phim-bo' },
  { id: 25, slug: 'phim-le', name: 'Phim Lẻ', endpoint: 'phimle', sourceList: 'danh-sach/phim-le' },
  { id: 26, slug: 'phim-shows', name: 'TV Shows', endpoint: 'phimshows', sourceList: 'danh-sach/tv-shows' },
  { id: 27, slug: 'phim-sap-chieu', name: 'Phim Sắp Chiếu', endpoint: 'phimsapchieu', sourceList: 'danh-sach/phim-sap-chieu' },
];

export interface Genre {
  /** Web route /the-loai/{slug}. */
  slug: string;
  name: string;
  endpoint: string;
  /** The genre's slug on OPhim-compatible sources. */
  sourceSlug: string;
}

export const GENRES: readonly Genre[] = [
  { slug: 'hanh-dong', name: 'Hành Động', endpoint: 'phimhanhdong', sourceSlug: 'hanh-dong' },
  { slug: 'co-trang', name: 'Cổ Trang', endpoint: 'phimcotrang', sourceSlug: 'co-trang' },
  { slug: 'chien-tranh', name: 'Chiến Tranh', endpoint: 'phimchientranh', sourceSlug: 'chien-tranh' },
  { slug: 'vien-tuong', name: 'Viễn Tưởng', endpoint: 'phimvientuong', sourceSlug: 'vien-tuong' },
  { slug: 'kinh-di', name: 'Kinh Dị', endpoint: 'phimkinhdi', sourceSlug: 'kinh-di' },
  { slug: 'tai-lieu', name: 'Tài Liệu', endpoint: 'phimtailieu', sourceSlug: 'tai-lieu' },
  { slug: 'bi-an', name: 'Bí Ẩn', endpoint: 'phimbian', sourceSlug: 'bi-an' },
  { slug: '18+', name: 'Phim 18+', endpoint: 'phim18plus', sourceSlug: 'phim-18' },
  { slug: 'tinh-cam', name: 'Tình Cảm', endpoint: 'phimtinhcam', sourceSlug: 'tinh-cam' },
  { slug: 'tam-ly', name: 'Tâm Lý', endpoint: 'phimtamly', sourceSlug: 'tam-ly' },
  { slug: 'the-thao', name: 'Thể Thao', endpoint: 'phimthethao', sourceSlug: 'the-thao' },
  { slug: 'phieu-luu', name: 'Phiêu Lưu', endpoint: 'phimphieuluu', sourceSlug: 'phieu-luu' },
  { slug: 'am-nhac', name: 'Âm Nhạc', endpoint: 'phimamnhac', sourceSlug: 'am-nhac' },
  { slug: 'gia-dinh', name: 'Gia Đình', endpoint: 'phimgiadinh', sourceSlug: 'gia-dinh' },
  { slug: 'hoc-duong', name: 'Học Đường', endpoint: 'phimhocduong', sourceSlug: 'hoc-duong' },
  { slug: 'hai-huoc', name: 'Hài Hước', endpoint: 'phimhaihuoc', sourceSlug: 'hai-huoc' },
  { slug: 'hinh-su', name: 'Hình Sự', endpoint: 'phimhinhsu', sourceSlug: 'hinh-su' },
  { slug: 'vo-thuat', name: 'Võ Thuật', endpoint: 'phimvothuat', sourceSlug: 'vo-thuat' },
  { slug: 'khoa-hoc', name: 'Khoa Học', endpoint: 'phimkhoahoc', sourceSlug: 'khoa-hoc' },
  { slug: 'than-thoai', name: 'Thần Thoại', endpoint: 'phimthanthoai', sourceSlug: 'than-thoai' },
  { slug: 'chinh-kich', name: 'Chính Kịch', endpoint: 'phimchinhkich', sourceSlug: 'chinh-kich' },
  { slug: 'kinh-dien', name: 'Kinh Điển', endpoint: 'phimkinhdien', sourceSlug: 'kinh-dien' },
  { slug: 'hoat-hinh', name: 'Hoạt Hình', endpoint: 'phimhoathinh', sourceSlug: 'hoat-hinh' },
];

export interface Country {
  /** Web route /{slug} (and the OPhim country slug). */
  slug: string;
  name: string;
  endpoint: string;
  /** The header lists 34 of the 35; the add-film form offers all 35. */
  inHeader: boolean;
}

const country = (slug: string, name: string, endpoint = slug, inHeader = true): Country => ({ slug, name, endpoint, inHeader });

export const COUNTRIES: readonly Country[] = [
  country('trung-quoc', 'Trung Quốc'),
  country('han-quoc', 'Hàn Quốc'),
  country('nhat-ban', 'Nhật Bản'),
  country('thai-lan', 'Thái Lan'),
  country('au-my', 'Âu Mỹ'),
  country('dai-loan', 'Đài Loan'),
  country('hong-kong', 'Hồng Kông'),
  country('an-do', 'Ấn Độ', 'ando'),
  country('anh', 'Anh'),
  country('phap', 'Pháp'),
  country('canada', 'Canada'),
  country('quoc-gia-khac', 'Quốc Gia Khác'),
  country('duc', 'Đức'),
  country('tay-ban-nha', 'Tây Ban Nha'),
  country('tho-nhi-ky', 'Thổ Nhĩ Kỳ'),
  country('ha-lan', 'Hà Lan'),
  country('indonesia', 'Indonesia'),
  country('nga', 'Nga'),
  country('mexico', 'Mexico'),
  country('ba-lan', 'Ba Lan'),
  country('uc', 'Úc'),
  country('thuy-dien', 'Thụy Điển'),
  country('malaysia', 'Malaysia'),
  country('brazil', 'Brazil'),
  country('philippines', 'Philippines'),
  country('bo-dao-nha', 'Bồ Đào Nha'),
  country('y', 'Ý'),
  country('dan-mach', 'Đan Mạch'),
  country('uae', 'UAE'),
  country('na-uy', 'Na Uy'),
  country('thuy-si', 'Thụy Sĩ'),
  country('chau-phi', 'Châu Phi'),
  country('nam-phi', 'Nam Phi'),
  country('ukraina', 'Ukraina'),
  country('a-rap-xe-ut', 'Ả Rập Xê Út', 'a-rap-xe-ut', false),
];

/** A listing endpoint resolves to exactly one of these filters. */
export type ListingScope =
  | { kind: 'category'; category: Category }
  | { kind: 'genre'; genre: Genre }
  | { kind: 'country'; country: Country };

const scopes = new Map<string, ListingScope>([
  ...CATEGORIES.map((category) => [category.endpoint, { kind: 'category', category }] as const),
  ...GENRES.map((genre) => [genre.endpoint, { kind: 'genre', genre }] as const),
  ...COUNTRIES.map((country) => [country.endpoint, { kind: 'country', country }] as const),
]);

/** 'phimhanhdong' | 'han-quoc' | 'phimbo' … → its scope; undefined for anything else. */
export function listingScope(endpoint: string): ListingScope | undefined {
  return scopes.get(endpoint);
}

export const LISTING_ENDPOINTS: readonly string[] = [...scopes.keys()];

/**
 * Film slugs live at /{slug} beside country pages and fixed routes, so the crawler never gives a film
 * one of these (it appends a suffix instead).
 */
export const RESERVED_FILM_SLUGS: ReadonlySet<string> = new Set([
  ...COUNTRIES.map((c) => c.slug),
  ...CATEGORIES.map((c) => c.slug),
  'tim-kiem',
  'dang-nhap',
  'dang-ky',
  'dang-ky-goi-vip',
  'account',
  'admin',
  'not-found',
  'the-loai',
  'xem-phim',
  'lich-chieu',
  'api',
  'offline',
  'search',
  'product-home',
  'home-top',
  'sidebar',
  'getdetail_xemphim',
  'update_view',
  // GET /api/product/product-{endpoint} is a listing: a film never takes a listing's name.
  ...[...scopes.keys()].map((endpoint) => `product-${endpoint}`),
  // The footer's pages (docs/decisions/0701-site-pages-and-quiet-refusals.md).
  'quy-dinh',
  'dieu-khoan',
  'bao-mat',
  'gioi-thieu',
  // People pages live at /dien-vien/{slug} and /dao-dien/{slug} (issue 40, docs/decisions/1070): the bare words stay
  // free for an index page, though an older film with one of these slugs stays reachable at /{slug}.
  'dien-vien',
  'dao-dien',
]);

/** Crawl categories: the 23 genre names and the four category names, as the admin picks them. */
export const CRAWL_CATEGORY_NAMES: readonly string[] = [...GENRES.map((g) => g.name), 'Phim Bộ', 'Phim Lẻ', 'Phim Shows', 'Phim Sắp Chiếu'];

export const PAGE_SIZE = 25;
export const FIRST_YEAR = 2010;

/** Release years offered by the filter bar: the current year down to FIRST_YEAR (spec defect: not 2024). */
export function releaseYears(now = new Date()): number[] {
  const years: number[] = [];
  for (let y = now.getFullYear(); y >= FIRST_YEAR; y--) years.push(y);
  return years;
}
