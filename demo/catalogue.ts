// The demo source's catalogue: a deterministic (seeded) set of Vietnamese-titled films shaped like
// OPhim data, so a fresh offline machine gets a full site through the real crawler. Every genre and
// country of the taxonomy appears, all four categories, series with many episodes on two servers,
// a few VIP-only films, and titles chosen to exercise search (đ/Đ, shared words, near-duplicates).
import { slugify } from '../worker/db/fold';
import { COUNTRIES, GENRES, type Genre } from '../worker/schemas/taxonomy';

export type DemoType = 'series' | 'single' | 'tvshows' | 'hoathinh';

export interface DemoEpisode {
  name: string;
  slug: string;
}

export interface DemoServer {
  server_name: string;
  items: DemoEpisode[];
}

export interface DemoRef {
  id: string;
  name: string;
  slug: string;
}

/** One film as an OPhim detail's `movie` (links are added by the server, which knows the media base). */
export interface DemoFilm {
  _id: string;
  name: string;
  slug: string;
  origin_name: string;
  content: string;
  type: DemoType;
  status: 'completed' | 'ongoing' | 'trailer';
  thumb_url: string;
  poster_url: string;
  is_copyright: boolean;
  /** Not OPhim: marks VIP-only films so the demo shows the VIP rules. */
  is_vip?: true;
  time: string;
  episode_current: string;
  episode_total: string;
  quality: string;
  lang: string;
  year: number;
  actor: string[];
  director: string[];
  category: DemoRef[];
  country: DemoRef[];
  created: { time: string };
  modified: { time: string };
  /** As OPhim's API gives them today (issue 32): what tells one film from another across sources. */
  tmdb: { type: 'movie' | 'tv'; id: string; season: number | null; vote_average: number; vote_count: number };
  imdb: { id: string | null };
  /** What OPhim's CMS keeps beside a film (issue 40 §2): a YouTube link, the schedule and notice (HTML allowed), "chiếu rạp". */
  trailer_url: string;
  showtimes: string;
  notify: string;
  chieurap: boolean;
  servers: DemoServer[];
  /** Poster colours. */
  palette: [string, string];
}

/** mulberry32: small, fast, good enough for fixtures, identical on every machine. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Seed {
  name: string;
  english: string;
  type: DemoType;
  country: string;
  genres: string[];
  year: number;
  /** Episodes for series-like types. */
  episodes?: number;
  trailer?: boolean;
  director?: string[];
  actors?: string[];
  synopsis?: string;
}

const S = (
  name: string,
  english: string,
  type: DemoType,
  country: string,
  genres: string[],
  year: number,
  extra: Partial<Seed> = {},
): Seed => ({ name, english, type, country, genres, year, ...extra });

/** Well-known titles first: they make the home page and search recognisable. */
const CURATED: Seed[] = [
  S('Đất Rừng Phương Nam', 'Song of the South', 'single', 'viet-nam', ['phieu-luu', 'gia-dinh', 'chinh-kich'], 2023, {
    director: ['Nguyễn Quang Dũng'],
    actors: ['Hạo Khang', 'Tuấn Trần', 'Trấn Thành', 'Hồng Ánh', 'Mai Tài Phến'],
    synopsis:
      'Sau khi mẹ mất, cậu bé An lên đường tìm cha giữa vùng đất Nam Bộ đầu thế kỷ hai mươi. Trên hành trình ấy, An gặp những con người chất phác, nghĩa hiệp của miền sông nước, cùng họ trải qua bao biến cố và dần trưởng thành.',
  }),
  S('Mắt Biếc', 'Dreamy Eyes', 'single', 'viet-nam', ['tinh-cam', 'tam-ly'], 2019, {
    director: ['Victor Vũ'],
    actors: ['Trần Nghĩa', 'Trúc Anh', 'Trần Phong', 'Khánh Vân'],
    synopsis:
      'Ngạn lớn lên ở làng Đo Đo và thầm yêu Hà Lan, cô bạn có đôi mắt biếc, từ thuở nhỏ. Khi Hà Lan theo ánh đèn thành phố, Ngạn vẫn lặng lẽ dõi theo, giữ một mối tình đơn phương suốt nhiều năm tháng.',
  }),
  S('Đất Phương Nam', 'Southern Land', 'series', 'viet-nam', ['phieu-luu', 'gia-dinh'], 2010, { episodes: 10 }),
  S('Tiệc Trăng Máu', 'Blood Moon Party', 'single', 'viet-nam', ['hai-huoc', 'tam-ly'], 2020),
  S('Bố Già', "Dad, I'm Sorry", 'single', 'viet-nam', ['gia-dinh', 'hai-huoc', 'tam-ly'], 2021),
  S('Hai Phượng', 'Furie', 'single', 'viet-nam', ['hanh-dong', 'vo-thuat', 'hinh-su'], 2019),
  S('Cô Ba Sài Gòn', 'The Tailor', 'single', 'viet-nam', ['hai-huoc', 'tinh-cam'], 2017),
  S('Tôi Thấy Hoa Vàng Trên Cỏ Xanh', 'Yellow Flowers on the Green Grass', 'single', 'viet-nam', ['gia-dinh', 'chinh-kich'], 2015),
  S('Nhà Bà Nữ', 'The House of No Man', 'single', 'viet-nam', ['gia-dinh', 'hai-huoc'], 2023),
  S('Đào, Phở Và Piano', 'Peach, Pho and Piano', 'single', 'viet-nam', ['chien-tranh', 'tinh-cam', 'kinh-dien'], 2024),
  S('Người Phán Xử', 'The Arbitrator', 'series', 'viet-nam', ['hinh-su', 'tam-ly'], 2017, { episodes: 40 }),
  S('Về Nhà Đi Con', 'Come Home, Child', 'series', 'viet-nam', ['gia-dinh', 'tam-ly'], 2019, { episodes: 36 }),
  S('Hương Vị Tình Thân', 'Taste of Family', 'series', 'viet-nam', ['gia-dinh', 'tinh-cam'], 2021, { episodes: 38 }),
  S('Đảo Độc Đắc', 'The Lucky Island', 'series', 'viet-nam', ['kinh-di', 'bi-an'], 2022, { episodes: 8 }),
  S('Anh', 'Brother', 'single', 'viet-nam', ['gia-dinh', 'chinh-kich'], 2012),
  S('Hạ Cánh Nơi Anh', 'Crash Landing on You', 'series', 'han-quoc', ['tinh-cam', 'hai-huoc'], 2019, { episodes: 16 }),
  S('Trò Chơi Con Mực', 'Squid Game', 'series', 'han-quoc', ['hanh-dong', 'bi-an', 'tam-ly'], 2021, { episodes: 9 }),
  S('Hậu Duệ Mặt Trời', 'Descendants of the Sun', 'series', 'han-quoc', ['tinh-cam', 'hanh-dong'], 2016, { episodes: 16 }),
  S('Tầng Lớp Itaewon', 'Itaewon Class', 'series', 'han-quoc', ['tam-ly', 'tinh-cam'], 2020, { episodes: 16 }),
  S('Vincenzo', 'Vincenzo', 'series', 'han-quoc', ['hinh-su', 'hai-huoc'], 2021, { episodes: 20 }),
  S('Chuyến Tàu Sinh Tử', 'Train to Busan', 'single', 'han-quoc', ['kinh-di', 'hanh-dong'], 2016),
  S('Ký Sinh Trùng', 'Parasite', 'single', 'han-quoc', ['tam-ly', 'hinh-su', 'hai-huoc'], 2019),
  S('Running Man Việt Nam', 'Running Man Vietnam', 'tvshows', 'viet-nam', ['hai-huoc', 'phieu-luu'], 2019, { episodes: 12 }),
  S('Diên Hi Công Lược', 'Story of Yanxi Palace', 'series', 'trung-quoc', ['co-trang', 'tam-ly'], 2018, { episodes: 40 }),
  S('Trần Tình Lệnh', 'The Untamed', 'series', 'trung-quoc', ['co-trang', 'than-thoai', 'vo-thuat'], 2019, { episodes: 40 }),
  S('Thiên Long Bát Bộ', 'Demi-Gods and Semi-Devils', 'series', 'trung-quoc', ['vo-thuat', 'co-trang'], 2013, { episodes: 40 }),
  S('Thiên Long Bát Bộ', 'Demi-Gods and Semi-Devils', 'series', 'trung-quoc', ['vo-thuat', 'co-trang'], 2021, { episodes: 30 }),
  S('Lang Nha Bảng', 'Nirvana in Fire', 'series', 'trung-quoc', ['co-trang', 'chinh-kich'], 2015, { episodes: 40 }),
  S('Vô Gian Đạo', 'Infernal Affairs', 'single', 'hong-kong', ['hinh-su', 'hanh-dong', 'kinh-dien'], 2012),
  S('Những Năm Tháng Ấy', 'You Are the Apple of My Eye', 'single', 'dai-loan', ['tinh-cam', 'hoc-duong'], 2011),
  S('Tên Cậu Là Gì?', 'Your Name', 'hoathinh', 'nhat-ban', ['tinh-cam', 'vien-tuong'], 2016),
  S('Vùng Đất Linh Hồn', 'Spirited Away', 'hoathinh', 'nhat-ban', ['phieu-luu', 'than-thoai', 'kinh-dien'], 2010),
  S('Thám Tử Lừng Danh Conan', 'Detective Conan', 'hoathinh', 'nhat-ban', ['bi-an', 'hinh-su'], 2024, { episodes: 26 }),
  S('Đại Chiến Titan', 'Attack on Titan', 'hoathinh', 'nhat-ban', ['hanh-dong', 'vien-tuong'], 2013, { episodes: 25 }),
  S('Chú Thuật Hồi Chiến', 'Jujutsu Kaisen', 'hoathinh', 'nhat-ban', ['hanh-dong', 'than-thoai', 'hoc-duong'], 2020, { episodes: 24 }),
  S(
    'Doraemon: Nobita Và Bản Giao Hưởng Địa Cầu',
    "Doraemon: Nobita's Earth Symphony",
    'hoathinh',
    'nhat-ban',
    ['am-nhac', 'phieu-luu', 'gia-dinh'],
    2024,
  ),
  S('Chiếc Lá Cuốn Bay', 'The Leaf That Flew', 'hoathinh', 'viet-nam', ['gia-dinh'], 2024, { trailer: true }),
  S('Tình Người Duyên Ma', 'Pee Mak', 'single', 'thai-lan', ['kinh-di', 'hai-huoc', 'tinh-cam'], 2013),
  S('Thiên Tài Bất Hảo', 'Bad Genius', 'single', 'thai-lan', ['hoc-duong', 'hinh-su'], 2017),
  S('Người Nhện: Không Còn Nhà', 'Spider-Man: No Way Home', 'single', 'au-my', ['hanh-dong', 'vien-tuong', 'phieu-luu'], 2021),
  S('Hố Đen Tử Thần', 'Interstellar', 'single', 'au-my', ['vien-tuong', 'khoa-hoc', 'phieu-luu'], 2014),
  S('Vùng Đất Câm Lặng', 'A Quiet Place', 'single', 'au-my', ['kinh-di', 'vien-tuong'], 2018),
  S('Oppenheimer', 'Oppenheimer', 'single', 'au-my', ['chien-tranh', 'khoa-hoc', 'chinh-kich'], 2023),
  S('Biệt Đội Siêu Anh Hùng', 'The Avengers', 'single', 'au-my', ['hanh-dong', 'vien-tuong'], 2012),
  S('Trò Chơi Vương Quyền', 'Game of Thrones', 'series', 'au-my', ['than-thoai', 'chien-tranh', 'chinh-kich'], 2011, { episodes: 10 }),
  S('Sherlock', 'Sherlock', 'series', 'anh', ['hinh-su', 'bi-an'], 2010, { episodes: 3 }),
  S('Bá Tước Monte Cristo', 'The Count of Monte Cristo', 'single', 'phap', ['kinh-dien', 'phieu-luu'], 2024, { trailer: true }),
  S('Phi Vụ Triệu Đô', 'Money Heist', 'series', 'tay-ban-nha', ['hinh-su', 'hanh-dong'], 2017, { episodes: 15 }),
  S('3 Chàng Ngốc', '3 Idiots', 'single', 'an-do', ['hai-huoc', 'hoc-duong', 'tam-ly'], 2010),
  S('Dangal: Niềm Kiêu Hãnh', 'Dangal', 'single', 'an-do', ['the-thao', 'gia-dinh'], 2016),
  S('Bóng Đá Nữ Việt Nam: Giấc Mơ World Cup', 'Golden Girls: The World Cup Dream', 'tvshows', 'viet-nam', ['the-thao', 'tai-lieu'], 2023, {
    episodes: 6,
  }),
  S('Sài Gòn Trong Cơn Mưa', 'Saigon in the Rain', 'single', 'viet-nam', ['tinh-cam', 'am-nhac'], 2020),
  S('Người Bất Tử', 'The Immortal', 'single', 'viet-nam', ['than-thoai', 'hanh-dong'], 2018),
  S('Kẻ Săn Đêm Đà Lạt', 'Night Hunter of Da Lat', 'series', 'viet-nam', ['kinh-di', 'bi-an', 'phim-18'], 2022, { episodes: 12 }),
];

interface WordPair {
  vi: string;
  en: string;
}
const P = (vi: string, en: string): WordPair => ({ vi, en });

const HEADS: WordPair[] = [
  P('Ký Ức', 'Memories'),
  P('Lời Hứa', 'The Promise'),
  P('Bí Mật', 'The Secret'),
  P('Giấc Mơ', 'Dreams'),
  P('Bóng Tối', 'Darkness'),
  P('Ánh Sáng', 'The Light'),
  P('Tiếng Gọi', 'The Call'),
  P('Con Đường', 'The Road'),
  P('Hành Trình', 'The Journey'),
  P('Chuyện Tình', 'A Love Story'),
  P('Cuộc Chiến', 'The Battle'),
  P('Truyền Thuyết', 'The Legend'),
  P('Huyền Thoại', 'The Myth'),
  P('Lời Nguyền', 'The Curse'),
  P('Mật Mã', 'The Code'),
  P('Người Thừa Kế', 'The Heir'),
  P('Trái Tim', 'Heart'),
  P('Dấu Vết', 'Traces'),
  P('Bản Tình Ca', 'Love Song'),
  P('Vũ Điệu', 'Dance'),
  P('Cơn Bão', 'The Storm'),
  P('Ngọn Lửa', 'The Flame'),
  P('Đóa Hoa', 'The Blossom'),
  P('Mùa Thu', 'Autumn'),
  P('Giai Điệu', 'Melody'),
  P('Nước Mắt', 'Tears'),
  P('Nụ Cười', 'The Smile'),
  P('Kho Báu', 'The Treasure'),
  P('Đêm Trắng', 'White Night'),
  P('Điệp Vụ', 'The Mission'),
];

const TAILS: WordPair[] = [
  P('Mùa Hạ', 'of Summer'),
  P('Phương Nam', 'of the South'),
  P('Đêm Trăng', 'Under the Moon'),
  P('Sông Hồng', 'by the Red River'),
  P('Hà Nội', 'of Hanoi'),
  P('Sài Gòn', 'of Saigon'),
  P('Biển Xanh', 'by the Blue Sea'),
  P('Núi Rừng', 'of the Mountains'),
  P('Đồng Quê', 'of the Countryside'),
  P('Tuổi Trẻ', 'of Youth'),
  P('Ngày Mai', 'of Tomorrow'),
  P('Đã Mất', 'Lost'),
  P('Cuối Cùng', 'at Last'),
  P('Không Tên', 'Without a Name'),
  P('Vĩnh Cửu', 'Forever'),
  P('Rực Lửa', 'on Fire'),
  P('Băng Giá', 'of Ice'),
  P('Bên Kia Đại Dương', 'Beyond the Ocean'),
  P('Thời Gian', 'of Time'),
  P('Định Mệnh', 'of Destiny'),
  P('Hoàng Cung', 'of the Palace'),
  P('Đế Vương', 'of the Emperor'),
  P('Giang Hồ', 'of the Underworld'),
  P('Học Đường', 'at School'),
  P('Dưới Mưa', 'in the Rain'),
  P('Phố Cổ', 'of the Old Quarter'),
  P('Đà Lạt', 'of Da Lat'),
  P('Tây Nguyên', 'of the Highlands'),
  P('Cửu Long', 'of the Mekong'),
  P('Đèn Lồng', 'of Lanterns'),
  P('Thảo Nguyên', 'of the Steppe'),
  P('Địa Ngục', 'from Hell'),
];

const FAMILY = [
  'Nguyễn',
  'Trần',
  'Lê',
  'Phạm',
  'Hoàng',
  'Huỳnh',
  'Phan',
  'Vũ',
  'Võ',
  'Đặng',
  'Bùi',
  'Đỗ',
  'Hồ',
  'Ngô',
  'Dương',
  'Lý',
  'Đinh',
  'Trương',
];
const MIDDLE = ['Văn', 'Thị', 'Minh', 'Quang', 'Thanh', 'Ngọc', 'Hoài', 'Đức', 'Bảo', 'Gia', 'Khánh', 'Thu'];
const GIVEN = [
  'An',
  'Bình',
  'Châu',
  'Dũng',
  'Đạt',
  'Giang',
  'Hà',
  'Hải',
  'Hằng',
  'Hiếu',
  'Hùng',
  'Khoa',
  'Lan',
  'Linh',
  'Long',
  'Mai',
  'Nam',
  'Nga',
  'Phong',
  'Phương',
  'Quân',
  'Sơn',
  'Tâm',
  'Thảo',
  'Trang',
  'Trung',
  'Tú',
  'Uyên',
  'Vy',
  'Yến',
];
const KOREAN = [
  'Kim Ji-won',
  'Lee Min-ho',
  'Park Seo-joon',
  'Song Hye-kyo',
  'Jung Hae-in',
  'Han So-hee',
  'Choi Woo-shik',
  'Bae Suzy',
  'Kang Ha-neul',
  'Yoon Se-ri',
];
const CHINESE = [
  'Triệu Lệ Dĩnh',
  'Dương Mịch',
  'Vương Nhất Bác',
  'Tiêu Chiến',
  'Lưu Diệc Phi',
  'Hồ Ca',
  'Địch Lệ Nhiệt Ba',
  'Dương Dương',
  'Ngô Lỗi',
  'Bạch Lộc',
];
const JAPANESE = ['Kamiki Ryunosuke', 'Kamishiraishi Mone', 'Hanazawa Kana', 'Kaji Yuki', 'Sawashiro Miyuki', 'Miyano Mamoru'];
const WESTERN = [
  'Emma Stone',
  'Ryan Gosling',
  'Tom Holland',
  'Zendaya',
  'Florence Pugh',
  'Oscar Isaac',
  'Cillian Murphy',
  'Anya Taylor-Joy',
  'Pedro Pascal',
  'Saoirse Ronan',
];

/** Genre sentences for synopses, keyed by taxonomy slug. */
const GENRE_LINES: Record<string, string> = {
  'hanh-dong': 'Những màn rượt đuổi nghẹt thở và các pha hành động mãn nhãn đẩy nhân vật chính vào thế không còn đường lùi.',
  'co-trang': 'Giữa chốn cung đình đầy mưu mô, mỗi bước đi đều có thể là bước cuối cùng.',
  'chien-tranh': 'Khói lửa chiến tranh chia cắt những người thân yêu, thử thách lòng dũng cảm và tình người.',
  'vien-tuong': 'Một phát hiện vượt ngoài hiểu biết của nhân loại mở ra cánh cửa tới một thế giới hoàn toàn khác.',
  'kinh-di': 'Những tiếng động lạ trong đêm báo hiệu một thế lực đáng sợ đang rình rập.',
  'tai-lieu': 'Bộ phim ghi lại chân thực đời sống và câu chuyện của những con người bình dị.',
  'bi-an': 'Mỗi manh mối lại dẫn tới một câu hỏi mới, và sự thật còn đáng sợ hơn mọi phỏng đoán.',
  'phim-18': 'Câu chuyện dành cho khán giả trưởng thành, khai thác những góc khuất của tình yêu và dục vọng.',
  'tinh-cam': 'Tình yêu đến bất ngờ, ngọt ngào nhưng cũng lắm éo le, khiến hai trái tim phải lựa chọn.',
  'tam-ly': 'Những giằng xé nội tâm được khắc họa tinh tế qua từng ánh mắt, từng lời nói.',
  'the-thao': 'Trên sân đấu, mồ hôi và nước mắt là cái giá của khát vọng chiến thắng.',
  'phieu-luu': 'Một chuyến phiêu lưu đầy bất ngờ đưa các nhân vật tới những vùng đất chưa ai đặt chân.',
  'am-nhac': 'Âm nhạc trở thành sợi dây kết nối những tâm hồn tưởng chừng không thể gặp nhau.',
  'gia-dinh': 'Tình thân gia đình là điểm tựa vững chắc nhất khi sóng gió ập đến.',
  'hoc-duong': 'Tuổi học trò với những rung động đầu đời, tình bạn và cả những lần vấp ngã.',
  'hai-huoc': 'Những tình huống dở khóc dở cười mang lại tiếng cười sảng khoái cho cả gia đình.',
  'hinh-su': 'Một vụ án phức tạp buộc các điều tra viên phải chạy đua với thời gian để tìm ra hung thủ.',
  'vo-thuat': 'Những trận quyết đấu võ thuật đỉnh cao phân định chính tà giữa chốn giang hồ.',
  'khoa-hoc': 'Khoa học và đạo đức va chạm khi một phát minh có thể thay đổi cả thế giới.',
  'than-thoai': 'Thần linh, yêu ma và con người đan xen trong một thế giới huyền ảo.',
  'chinh-kich': 'Số phận con người được kể lại bằng một giọng phim sâu lắng và đầy ám ảnh.',
  'kinh-dien': 'Một câu chuyện kinh điển được kể lại bằng ngôn ngữ điện ảnh hiện đại.',
  'hoat-hinh': 'Thế giới hoạt hình rực rỡ sắc màu chứa đựng những bài học ý nghĩa.',
};

const OPENINGS = [
  (who: string, where: string) => `Câu chuyện xoay quanh ${who} tại ${where}.`,
  (who: string, where: string) => `Tại ${where}, ${who} bất ngờ bị cuốn vào một biến cố làm đảo lộn cuộc sống.`,
  (who: string, where: string) => `Phim kể về ${who}, người mang trong mình một quá khứ chưa từng kể với ai, ở ${where}.`,
  (who: string, where: string) => `${who[0]?.toUpperCase()}${who.slice(1)} quyết định rời bỏ tất cả để bắt đầu lại ở ${where}.`,
];
const WHO = [
  'một chàng trai trẻ',
  'một nữ cảnh sát cứng rắn',
  'hai người bạn thân',
  'một gia đình nhỏ',
  'một cô gái mồ côi',
  'một vị tướng già',
  'nhóm sinh viên năm cuối',
  'một bác sĩ trẻ',
  'một tay đua đường phố',
  'một nhà văn thất bại',
];
const WHERE: Record<string, string[]> = {
  'viet-nam': ['miền Tây sông nước', 'phố cổ Hà Nội', 'Sài Gòn hoa lệ', 'Đà Lạt mộng mơ', 'một làng chài miền Trung'],
  default: ['một thành phố lớn', 'một thị trấn nhỏ ven biển', 'vùng núi hẻo lánh', 'một ngôi trường danh tiếng', 'kinh thành xưa'],
};
const CLOSINGS = [
  'Liệu họ có vượt qua được thử thách và tìm thấy hạnh phúc?',
  'Một bộ phim cảm động về lòng tin, sự hy sinh và tình yêu thương.',
  'Mọi bí mật rồi sẽ được phơi bày, nhưng cái giá phải trả là gì?',
  'Hành trình ấy sẽ thay đổi họ mãi mãi.',
];

const COUNTRY_NAMES = new Map(COUNTRIES.map((c) => [c.slug, c.name]));
const GENRE_BY_SLUG = new Map<string, Genre>(GENRES.map((g) => [g.sourceSlug, g]));

/** OPhim has no 'quoc-gia-khac': films from countries we do not list (here, Vietnam) map to it. */
function countryRef(slug: string): DemoRef {
  if (slug === 'viet-nam') return { id: 'c-viet-nam', name: 'Việt Nam', slug: 'viet-nam' };
  const name = COUNTRY_NAMES.get(slug);
  if (!name) throw new Error(`demo: unknown country ${slug}`);
  return { id: `c-${slug}`, name, slug };
}

function genreRef(sourceSlug: string): DemoRef {
  const genre = GENRE_BY_SLUG.get(sourceSlug);
  if (!genre) throw new Error(`demo: unknown genre ${sourceSlug}`);
  return { id: `g-${sourceSlug}`, name: genre.name, slug: genre.sourceSlug };
}

const PALETTES: [string, string][] = [
  ['#1e3c72', '#2a5298'],
  ['#8e2de2', '#4a00e0'],
  ['#c31432', '#240b36'],
  ['#134e5e', '#71b280'],
  ['#ff512f', '#dd2476'],
  ['#0f2027', '#2c5364'],
  ['#f7971e', '#ffd200'],
  ['#4568dc', '#b06ab3'],
  ['#11998e', '#38ef7d'],
  ['#ee0979', '#ff6a00'],
  ['#3a1c71', '#d76d77'],
  ['#000428', '#004e92'],
];

const pick = <T>(rand: () => number, list: readonly T[]): T => list[Math.floor(rand() * list.length)] as T;
const between = (rand: () => number, lo: number, hi: number) => lo + Math.floor(rand() * (hi - lo + 1));

function personName(rand: () => number): string {
  const middle = pick(rand, MIDDLE);
  return `${pick(rand, FAMILY)} ${middle} ${pick(rand, GIVEN)}`;
}

function castFor(rand: () => number, country: string, count: number): string[] {
  const pool =
    country === 'han-quoc'
      ? KOREAN
      : ['trung-quoc', 'hong-kong', 'dai-loan'].includes(country)
        ? CHINESE
        : country === 'nhat-ban'
          ? JAPANESE
          : country === 'viet-nam'
            ? null
            : WESTERN;
  const names = new Set<string>();
  while (names.size < count) names.add(pool ? pick(rand, pool) : personName(rand));
  return [...names];
}

function synopsis(rand: () => number, seed: Seed): string {
  if (seed.synopsis) return `<p>${seed.synopsis}</p>`;
  const where = pick(rand, WHERE[seed.country] ?? WHERE.default!);
  const lines = [
    pick(rand, OPENINGS)(pick(rand, WHO), where),
    ...seed.genres.slice(0, 2).map((g) => GENRE_LINES[g] ?? ''),
    pick(rand, CLOSINGS),
  ];
  // Real sources send HTML with entities (editor output); the crawler must turn it into plain text.
  const html = lines.filter(Boolean).join(' ').replace('à', '&agrave;');
  return rand() < 0.5 ? `<p>${html}</p>` : `<p>${html.replace(/\. /, '.<br>')}</p>`;
}

function episodesFor(rand: () => number, seed: Seed, count: number, twoServers: boolean, numbered: 'plain' | 'tap'): DemoServer[] {
  const items = (n: number): DemoEpisode[] =>
    Array.from({ length: n }, (_, i) =>
      numbered === 'tap'
        ? { name: `Tập ${String(i + 1).padStart(2, '0')}`, slug: `tap-${String(i + 1).padStart(2, '0')}` }
        : { name: String(i + 1), slug: String(i + 1) },
    );
  if (seed.trailer) return [{ server_name: 'Vietsub #1', items: [{ name: 'Trailer', slug: 'trailer' }] }];
  const single = seed.type === 'single' || (seed.type === 'hoathinh' && count <= 1);
  const list = single ? [{ name: 'Full', slug: 'full' }] : items(count);
  const servers = [{ server_name: 'Vietsub #1', items: list }];
  if (twoServers) servers.push({ server_name: 'Thuyết Minh #2', items: single ? list : items(Math.max(1, count - between(rand, 0, 2))) });
  return servers;
}

/**
 * The demo catalogue for a given current year (years run 2010 to it). Same input, same films.
 */
export function buildDemoCatalogue(currentYear = new Date().getFullYear(), size = 320): DemoFilm[] {
  const rand = seededRandom(20_240_601);
  const seeds: Seed[] = [...CURATED];

  // Generated titles: every country and genre is the primary one of some film, so each listing has films.
  const combos = HEADS.flatMap((h) => TAILS.map((t) => [h, t] as const));
  for (let i = combos.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [combos[i], combos[j]] = [combos[j]!, combos[i]!];
  }
  const countrySlugs = [...COUNTRIES.map((c) => (c.slug === 'quoc-gia-khac' ? 'viet-nam' : c.slug))];
  const popular = ['han-quoc', 'trung-quoc', 'au-my', 'viet-nam', 'nhat-ban', 'thai-lan', 'viet-nam', 'han-quoc'];
  for (let g = 0; seeds.length < size; g++) {
    const [head, tail] = combos[g % combos.length]!;
    const roll = rand();
    const type: DemoType = roll < 0.4 ? 'series' : roll < 0.72 ? 'single' : roll < 0.84 ? 'tvshows' : 'hoathinh';
    const country = g < countrySlugs.length * 2 ? countrySlugs[g % countrySlugs.length]! : pick(rand, popular);
    const primary = GENRES[g % GENRES.length]!.sourceSlug;
    const genres = new Set([primary]);
    const extra = between(rand, 0, 2);
    while (genres.size < 1 + extra) genres.add(pick(rand, GENRES).sourceSlug);
    if (type === 'hoathinh') genres.add('hoat-hinh');
    seeds.push({
      name: `${head.vi} ${tail.vi}`,
      english: `${head.en} ${tail.en}`,
      type,
      country,
      genres: [...genres],
      year: between(rand, 2010, currentYear),
      episodes:
        type === 'series'
          ? between(rand, 8, 40)
          : type === 'tvshows'
            ? between(rand, 6, 20)
            : type === 'hoathinh' && rand() < 0.5
              ? between(rand, 12, 26)
              : undefined,
      trailer: rand() < 0.05,
    });
  }

  const usedSlugs = new Set<string>();
  const newest = Date.UTC(currentYear, 0, 1);
  const films = seeds.map((seed, index): DemoFilm => {
    let slug = slugify(seed.name);
    if (usedSlugs.has(slug)) slug = `${slug}-${seed.year}`;
    usedSlugs.add(slug);
    const trailer = seed.trailer === true;
    const year = trailer ? Math.max(seed.year, currentYear) : seed.year;
    const count = seed.episodes ?? 1;
    const seriesLike = !(seed.type === 'single' || (seed.type === 'hoathinh' && count <= 1));
    const ongoing = seriesLike && !trailer && rand() < 0.35;
    const available = ongoing ? between(rand, 1, Math.max(1, count - 1)) : count;
    const servers = episodesFor(rand, { ...seed, trailer }, available, rand() < 0.6, rand() < 0.5 ? 'plain' : 'tap');
    const status = trailer ? 'trailer' : ongoing ? 'ongoing' : 'completed';
    const modified = new Date(newest - index * 47 * 60_000 - Math.floor(rand() * 40) * 60_000);
    return {
      _id: `demo${String(index + 1).padStart(4, '0')}`,
      name: seed.name,
      slug,
      origin_name: seed.english,
      content: synopsis(rand, seed),
      type: seed.type,
      status,
      thumb_url: `${slug}.webp`,
      poster_url: `${slug}.webp`,
      is_copyright: false,
      // One film in twelve (~8%) is VIP-only.
      ...(index % 12 === 5 && !trailer ? { is_vip: true as const } : {}),
      time: seriesLike ? `${between(rand, 20, 60)} phút/tập` : `${between(rand, 85, 150)} phút`,
      episode_current: trailer ? 'Trailer' : ongoing ? `Tập ${available}` : seriesLike ? `Hoàn Tất (${count}/${count})` : 'Full',
      episode_total: seriesLike ? `${count} Tập` : '1',
      quality: trailer ? 'HD' : pick(rand, ['HD', 'HD', 'FHD', 'FHD', 'SD', 'CAM']),
      lang: pick(rand, ['Vietsub', 'Vietsub', 'Vietsub + Thuyết Minh', 'Thuyết Minh', 'Lồng Tiếng']),
      year,
      actor: seed.actors ?? castFor(rand, seed.country, between(rand, 2, 5)),
      director: seed.director ?? castFor(rand, seed.country, 1),
      category: seed.genres.map(genreRef),
      country: [countryRef(seed.country)],
      created: { time: new Date(modified.getTime() - between(rand, 1, 90) * 86_400_000).toISOString() },
      modified: { time: modified.toISOString() },
      // Made-up ids in the real shape (not rand(): the catalogue's other values stay what they were).
      tmdb: seriesLike
        ? { type: 'tv', id: String(700_000 + index), season: 1, vote_average: tmdbScore(index), vote_count: 10 + index }
        : { type: 'movie', id: String(600_000 + index), season: null, vote_average: tmdbScore(index), vote_count: 10 + index },
      imdb: { id: `tt${9_000_000 + index}` },
      // Issue 40's fields, from the index alone (no rand(): every other value stays what it was).
      trailer_url: trailer || index % 3 === 0 ? `https://www.youtube.com/watch?v=${DEMO_TRAILERS[index % DEMO_TRAILERS.length]}` : '',
      showtimes: ongoing ? SHOWTIMES[index % SHOWTIMES.length]! : '',
      // A source's notice may be HTML: the site shows it as text (the crawler removes the tags).
      notify: ongoing && index % 4 === 1 ? 'Tuần này <b>hoãn chiếu</b> 1 tập, lịch cũ trở lại tuần sau.' : '',
      chieurap: !seriesLike && !trailer && index % 4 === 2,
      servers,
      palette: pick(rand, PALETTES),
    };
  });
  return withSeasons(films);
}

/** Made-up YouTube ids in the real shape: the film page loads nothing from YouTube until "Xem trailer" is tapped. */
const DEMO_TRAILERS = ['IN5TD4VRcSM', 'dQw4w9WgXcQ', 'aqz-KE-bpKQ', 'M7lc1UVf-VE'];
const SHOWTIMES = ['21h tối thứ 4, thứ 5 hàng tuần', '20h tối hàng ngày', '19h30 thứ 7 và chủ nhật'];
const tmdbScore = (index: number) => Math.round((5.8 + ((index * 37) % 35) / 10) * 1000) / 1000;

/**
 * "Các phần" (issue 40 §2): the last two generated series become seasons 2 and 3 of "Trò Chơi Con Mực", sharing its
 * TMDB tv id as real sources send seasons (The Boys, 76479: S3 and S4). Their episodes and times stay as built.
 */
function withSeasons(films: DemoFilm[]): DemoFilm[] {
  const first = films.find((f) => f.slug === 'tro-choi-con-muc');
  if (!first) return films;
  const later = films.filter((f, i) => i >= CURATED.length && f.type === 'series' && f.status !== 'trailer').slice(-2);
  later.forEach((film, i) => {
    const season = i + 2;
    film.name = `${first.name} ${season}`;
    film.slug = `${first.slug}-${season}`;
    film.origin_name = `${first.origin_name} Season ${season}`;
    film.thumb_url = `${film.slug}.webp`;
    film.poster_url = `${film.slug}.webp`;
    film.year = first.year + 3 + i;
    film.country = first.country;
    film.category = first.category;
    film.actor = first.actor;
    film.director = first.director;
    film.tmdb = { ...first.tmdb, season };
    film.imdb = first.imdb;
  });
  return films;
}
