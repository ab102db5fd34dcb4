import { films, type Film } from '../../db/schema';
import type { FilmCard } from '../../schemas/catalogue';

const CARD_DESCRIPTION_LENGTH = 200;

/** Columns a card needs; every list query selects exactly these. */
export const cardColumns = {
  id: films.id,
  slug: films.slug,
  title: films.title,
  nameEnglish: films.nameEnglish,
  posterUrl: films.posterUrl,
  thumbUrl: films.thumbUrl,
  statusText: films.statusText,
  language: films.language,
  episodeCountText: films.episodeCountText,
  duration: films.duration,
  year: films.year,
  quality: films.quality,
  genreNames: films.genreNames,
  countryNames: films.countryNames,
  description: films.description,
  views: films.views,
  likes: films.likes,
  categoryId: films.categoryId,
  vipOnly: films.vipOnly,
  createdAt: films.createdAt,
  updatedAt: films.updatedAt,
};

export type CardRow = Pick<Film, keyof typeof cardColumns>;

function shorten(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const lastSpace = cut.lastIndexOf(' ');
  return `${cut.slice(0, lastSpace > max * 0.6 ? lastSpace : max).trimEnd()}…`;
}

/** Database row → the spec's wire fields. */
export function toFilmCard(row: CardRow, fullDescription = false): FilmCard {
  return {
    id: row.id,
    slug: row.slug,
    title: row.title,
    nameenglish: row.nameEnglish,
    hinhanh: row.posterUrl,
    thumb: row.thumbUrl,
    trangthai: row.statusText,
    ngonngu: row.language,
    sotap: row.episodeCountText,
    thoiluong: row.duration,
    namphathanh: row.year,
    chatluong: row.quality,
    theloai: row.genreNames,
    quocgia: row.countryNames,
    descripts: fullDescription ? row.description : shorten(row.description, CARD_DESCRIPTION_LENGTH),
    views: row.views,
    likes: row.likes,
    category_id: row.categoryId,
    VIP1: row.vipOnly ? 1 : 0,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
