// "Phim tương tự" (issue 40 §4, docs/decisions/1090): the reasons a related film's card shows, and the public related
// list the home's "Vì bạn đã xem {phim}" row reads. Pure types and texts: importable by web/.
import type { FilmCard } from './catalogue';

export const RELATED_TITLE = 'Phim tương tự';
/** The home row built in the browser from the device's own history (no history is sent). */
export const becauseYouWatched = (title: string) => `Vì bạn đã xem ${title}`;

export type RelatedReasonKind = 'cowatch' | 'director' | 'actor' | 'genre' | 'country' | 'year';

/** What a related card says about why it is there. */
export function relatedReasonText(kind: RelatedReasonKind | string, name: string): string {
  switch (kind) {
    case 'cowatch':
      return 'Người xem cũng xem';
    case 'director':
      return 'Cùng đạo diễn';
    case 'actor':
      return name ? `Cùng diễn viên ${name}` : 'Cùng diễn viên';
    case 'genre':
      return name ? `Cùng thể loại ${name}` : 'Cùng thể loại';
    case 'country':
      return name ? `Cùng quốc gia ${name}` : 'Cùng quốc gia';
    default:
      return 'Cùng thời';
  }
}

/** A related film: the card with its reason ("Cùng diễn viên Trấn Thành", "Người xem cũng xem", …). */
export interface RelatedFilm extends FilmCard {
  reason: string;
}

/** GET /api/related/{slug}: the film's title and its related films (public, edge-cacheable). */
export interface RelatedList {
  film: { slug: string; title: string };
  data: RelatedFilm[];
}
