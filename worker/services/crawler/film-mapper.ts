// Maps a validated source detail to the film writer's input: category from type/status, taxonomy
// slugs from the source's genre/country names, plain-text synopsis, absolute image URLs, numbered
// episodes with http(s) links only.
import { fold } from '../../db/fold';
import { COUNTRIES, GENRES, type CategoryId } from '../../schemas/taxonomy';
import type { EpisodeInput, FilmInput, FilmStatus } from '../films/film-writer';
import { type FilmIdentity, type FilmKind, originKeyOf, parseImdb, parseTmdb } from '../films/film-identity';
import { namesOf } from '../people/names';
import { parseHttpUrl } from './fetch-guard';
import { type ImageBase, type ListItem, type NamedRef, type SourceDetail, type SourceServer, sourceIdOf } from './source-shapes';

const OTHER_COUNTRY = 'quoc-gia-khac';
const ANIMATION_GENRE = 'hoat-hinh';
const DEFAULT_SERVER = 'Vietsub #1';

const genreKeys = new Map<string, string>();
for (const g of GENRES) {
  for (const key of [g.slug, g.sourceSlug, fold(g.name), fold(g.name.replace(/^Phim\s+/i, ''))]) genreKeys.set(key, g.slug);
}
const countryKeys = new Map<string, string>();
for (const c of COUNTRIES) {
  for (const key of [c.slug, c.endpoint, fold(c.name)]) countryKeys.set(key, c.slug);
}

/** Source genre refs → taxonomy genre slugs; genres we do not carry are dropped. */
export function mapGenres(refs: readonly NamedRef[]): string[] {
  const slugs = refs.map((r) => genreKeys.get(r.slug.toLowerCase()) ?? genreKeys.get(fold(r.name))).filter((s): s is string => !!s);
  return [...new Set(slugs)];
}

/** Source country refs → taxonomy country slugs; any country we do not list is 'quoc-gia-khac'. */
export function mapCountries(refs: readonly NamedRef[]): string[] {
  const slugs = refs.map((r) => countryKeys.get(r.slug.toLowerCase()) ?? countryKeys.get(fold(r.name)) ?? OTHER_COUNTRY);
  return [...new Set(slugs)];
}

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  copy: '©',
  reg: '®',
  middot: '·',
  agrave: 'à',
  aacute: 'á',
  acirc: 'â',
  atilde: 'ã',
  egrave: 'è',
  eacute: 'é',
  ecirc: 'ê',
  igrave: 'ì',
  iacute: 'í',
  ograve: 'ò',
  oacute: 'ó',
  ocirc: 'ô',
  otilde: 'õ',
  ugrave: 'ù',
  uacute: 'ú',
  yacute: 'ý',
  Agrave: 'À',
  Aacute: 'Á',
  Acirc: 'Â',
  Atilde: 'Ã',
  Egrave: 'È',
  Eacute: 'É',
  Ecirc: 'Ê',
  Igrave: 'Ì',
  Iacute: 'Í',
  Ograve: 'Ò',
  Oacute: 'Ó',
  Ocirc: 'Ô',
  Otilde: 'Õ',
  Ugrave: 'Ù',
  Uacute: 'Ú',
  Yacute: 'Ý',
};

function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]{2,8});/gi, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? Number.parseInt(body.slice(2), 16) : Number.parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff && !(code >= 0xd800 && code <= 0xdfff) ? String.fromCodePoint(code) : ' ';
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

const stripTags = (s: string) =>
  s
    .replace(/<(script|style)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?[a-z][^>]*>/gi, ' ');

/**
 * Source synopses are HTML, sometimes escaped twice: tags out, entities decoded, and once more for the
 * escaped ones ('&lt;p&gt;'); control characters and runs of whitespace collapsed.
 */
export function htmlToText(html: string, maxLength = 20_000): string {
  const once = decodeEntities(stripTags(html));
  return decodeEntities(stripTags(once))
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, maxLength);
}

/** Absolute http(s) image URL, or '' for anything else. */
export function resolveImage(value: string, base: ImageBase | undefined, origin: string): string {
  if (!value) return '';
  const raw = value.startsWith('//') ? `https:${value}` : value;
  if (/^[a-z][a-z0-9+.-]*:/i.test(raw)) return parseHttpUrl(raw)?.toString() ?? '';
  let root = base?.url ?? `${origin}/uploads/movies/`;
  // A v1 CDN root ('https://img.ophim.live') serves bare file names from /uploads/movies/.
  if (base?.kind === 'cdn' && !raw.includes('/') && !/\/uploads\//.test(root)) root = `${root.replace(/\/+$/, '')}/uploads/movies/`;
  if (!root.endsWith('/')) root += '/';
  try {
    return parseHttpUrl(new URL(raw, root).toString())?.toString() ?? '';
  } catch {
    return '';
  }
}

function httpLink(value: string): string {
  return value ? (parseHttpUrl(value)?.toString() ?? '') : '';
}

/** 'Tập 01' → 1, '1-2' → 1, 'Full' → 1; nothing numeric → position + 1. */
export function episodeNumber(name: string, slug: string, index: number): number {
  for (const s of [name, slug]) {
    const match = /\d+/.exec(s);
    if (match) {
      const n = Number.parseInt(match[0], 10);
      if (n >= 1 && n <= 100_000) return n;
    }
  }
  if (/^full$/i.test(name.trim()) || /^full$/i.test(slug.trim())) return 1;
  return index + 1;
}

/** One entry per (server, episode number); entries without any http(s) link are dropped. */
export function mapEpisodes(servers: readonly SourceServer[]): EpisodeInput[] {
  const used = new Map<string, Set<number>>();
  const out: EpisodeInput[] = [];
  for (const server of servers) {
    const serverName = clip(server.server_name, 100) || DEFAULT_SERVER;
    const numbers = used.get(serverName) ?? new Set<number>();
    used.set(serverName, numbers);
    server.server_data.forEach((item, index) => {
      const m3u8Url = httpLink(item.link_m3u8);
      const embedUrl = httpLink(item.link_embed);
      if (!m3u8Url && !embedUrl) return;
      let episode = episodeNumber(item.name, item.slug, index);
      // A repeated number ('Tập 5' twice) still gets its own slot after the last one.
      if (numbers.has(episode)) episode = Math.max(...numbers) + 1;
      numbers.add(episode);
      out.push({ serverName, episode, name: clip(item.name, 100) || `Tập ${episode}`, m3u8Url, embedUrl });
    });
  }
  return out;
}

function categoryFor(type: string, status: FilmStatus, episodes: readonly EpisodeInput[], episodeTotal: string): CategoryId {
  if (status === 'trailer') return 27;
  switch (type.toLowerCase()) {
    case 'single':
      return 25;
    case 'tvshows':
      return 26;
    case 'hoathinh': {
      const perServer = new Map<string, number>();
      for (const e of episodes) perServer.set(e.serverName, (perServer.get(e.serverName) ?? 0) + 1);
      const most = Math.max(0, ...perServer.values());
      const total = Number.parseInt(episodeTotal, 10);
      return most > 1 || (Number.isFinite(total) && total > 1) ? 24 : 25;
    }
    default:
      return 24;
  }
}

function statusOf(value: string): FilmStatus {
  const s = value.toLowerCase();
  return s === 'completed' || s === 'trailer' ? s : 'ongoing';
}

const DEFAULT_STATUS_TEXT: Record<FilmStatus, string> = { ongoing: 'Đang cập nhật', completed: 'Hoàn Tất', trailer: 'Trailer' };

function clip(s: string, max: number): string {
  return s
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max);
}

/**
 * The source's own created/modified times, never later than now: listings sort 'Mới cập nhật' by
 * them, and a crawl must not reorder the catalogue by the order it happened to fetch films in.
 */
export function sourceTimes(detail: SourceDetail, now: number): { createdAt: number; updatedAt: number } {
  const updatedAt = Math.min(detail.movie.modified ?? now, now);
  const createdAt = Math.min(detail.movie.created ?? updatedAt, updatedAt);
  return { createdAt, updatedAt };
}

/**
 * A link to this site itself (the origin of PUBLIC_URL: the demo's posters and clip under /demo-media)
 * kept as its path, so it follows the site to whatever host and port it is opened on (a phone on the
 * LAN, PORT=3000). Links to anywhere else stay absolute.
 */
export function siteRelative(url: string, siteOrigin: string | undefined): string {
  if (!url || !siteOrigin) return url;
  const parsed = parseHttpUrl(url);
  return parsed?.origin === siteOrigin ? `${parsed.pathname}${parsed.search}` : url;
}

/** Single or series, for matching across sources: a trailer keeps its type's kind. */
function kindOf(categoryId: CategoryId, type: string, episodes: readonly EpisodeInput[]): FilmKind {
  if (categoryId === 25) return 'single';
  if (categoryId !== 27) return 'series';
  if (type === 'single') return 'single';
  return type === 'hoathinh' && new Set(episodes.map((e) => e.episode)).size <= 1 ? 'single' : 'series';
}

/**
 * The film's external identity from the detail, else from its list entry (a list without ids means the ids come
 * from the detail; some sources put them only in the list), and what was wrong with them.
 */
export function identityOf(
  detail: SourceDetail,
  listItem: Pick<ListItem, 'tmdb' | 'imdb'> | undefined,
  categoryId: CategoryId,
  episodes: readonly EpisodeInput[],
): { identity: FilmIdentity; problems: string[] } {
  const { movie } = detail;
  const fromDetail = parseTmdb(movie.tmdb);
  const fromList = fromDetail.id ? undefined : parseTmdb(listItem?.tmdb);
  const tmdb = fromList?.id ? fromList : fromDetail;
  const imdbDetail = parseImdb(movie.imdb);
  const imdbList = imdbDetail.id ? undefined : parseImdb(listItem?.imdb);
  const imdb = imdbList?.id ? imdbList : imdbDetail;
  return {
    identity: {
      tmdbType: tmdb.type,
      tmdbId: tmdb.id,
      tmdbSeason: tmdb.season,
      imdbId: imdb.id,
      originKey: originKeyOf(movie.origin_name),
      year: movie.year,
      kind: kindOf(categoryId, movie.type.toLowerCase(), episodes),
    },
    problems: [...detail.problems, ...fromDetail.problems, ...imdbDetail.problems],
  };
}

const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

/**
 * The YouTube video id of a trailer link (watch?v=, youtu.be/, /embed/, /shorts/, or the bare id); '' for anything
 * else: the film page embeds only youtube-nocookie.com/embed/{id}, never a source's URL.
 */
export function youtubeId(value: string): string {
  const raw = value.trim();
  if (!raw) return '';
  if (YOUTUBE_ID.test(raw)) return raw;
  const url = parseHttpUrl(raw.startsWith('//') ? `https:${raw}` : raw);
  if (!url) return '';
  const host = url.hostname.toLowerCase().replace(/^(www|m|music)\./, '');
  let id = '';
  if (host === 'youtu.be') id = url.pathname.split('/')[1] ?? '';
  else if (host === 'youtube.com' || host === 'youtube-nocookie.com') {
    const path = url.pathname.split('/');
    id =
      path[1] === 'watch'
        ? (url.searchParams.get('v') ?? '')
        : ['embed', 'shorts', 'v', 'live'].includes(path[1] ?? '')
          ? (path[2] ?? '')
          : '';
  }
  return YOUTUBE_ID.test(id) ? id : '';
}

/** TMDB's score and vote count as the source copies them into `tmdb`; null when absent or nonsense. */
export function tmdbVotes(raw: unknown): { average: number | null; count: number | null } {
  if (typeof raw !== 'object' || raw === null) return { average: null, count: null };
  const r = raw as Record<string, unknown>;
  const average = Number(r.vote_average);
  const count = Number(r.vote_count);
  return {
    average:
      r.vote_average !== null && r.vote_average !== '' && Number.isFinite(average) && average >= 0 && average <= 10
        ? Math.round(average * 1000) / 1000
        : null,
    count: r.vote_count !== null && r.vote_count !== '' && Number.isInteger(count) && count >= 0 ? count : null,
  };
}

/** What the crawler hands the film writer: the film, the source's key for it, and who it is. */
export type CrawledFilm = FilmInput & { sourceKey: string; sourceSlug: string; identity: FilmIdentity };

/**
 * Everything the film writer needs but the checksum (computed over this very object) and the source
 * times (left out of it, so a bumped modification time alone is no change). `keyPrefix` is the source's origin
 * (and its own path, for a source that is not at its host's root): '{keyPrefix}:{_id or slug}' keys the film.
 */
export function mapDetail(
  detail: SourceDetail,
  context: { origin: string; keyPrefix?: string; listImageBase?: ImageBase; siteOrigin?: string; listItem?: ListItem },
): CrawledFilm & { problems: string[] } {
  const { movie } = detail;
  const imageBase = detail.imageBase ?? context.listImageBase;
  const status = statusOf(movie.status);
  const local = (url: string) => siteRelative(url, context.siteOrigin);
  const episodes = mapEpisodes(detail.episodes).map((e) => ({ ...e, m3u8Url: local(e.m3u8Url), embedUrl: local(e.embedUrl) }));
  const type = movie.type.toLowerCase();
  const genreSlugs = mapGenres(movie.category);
  if (type === 'hoathinh' && !genreSlugs.includes(ANIMATION_GENRE)) genreSlugs.push(ANIMATION_GENRE);
  const categoryId = categoryFor(type, status, episodes, movie.episode_total);
  const { identity, problems } = identityOf(detail, context.listItem, categoryId, episodes);
  const votes = tmdbVotes(movie.tmdb);
  return {
    sourceKey: `${context.keyPrefix ?? context.origin}:${sourceIdOf(movie._id) ?? movie.slug}`,
    sourceSlug: movie.slug,
    identity,
    problems,
    slug: movie.slug,
    title: clip(movie.name, 300),
    nameEnglish: clip(movie.origin_name, 300),
    posterUrl: local(resolveImage(movie.poster_url, imageBase, context.origin)),
    thumbUrl: local(resolveImage(movie.thumb_url, imageBase, context.origin)),
    statusText: clip(movie.episode_current, 100) || DEFAULT_STATUS_TEXT[status],
    status,
    language: clip(movie.lang, 100),
    episodeCountText: clip(movie.episode_total, 50),
    duration: clip(movie.time, 50),
    year: movie.year,
    quality: clip(movie.quality, 30),
    // Placeholders ("Đang cập nhật", "N/A", "") are no one (services/people/names.ts).
    director: clip(namesOf(movie.director).join(', '), 1000),
    actors: clip(namesOf(movie.actor).join(', '), 2000),
    description: htmlToText(movie.content),
    trailerId: youtubeId(movie.trailer_url),
    // A source's HTML is shown as text, never rendered: tags out, entities decoded (docs/decisions/1070).
    showtimes: htmlToText(movie.showtimes, 500),
    notify: htmlToText(movie.notify, 500),
    chieurap: movie.chieurap,
    tmdbVoteAverage: votes.average,
    tmdbVoteCount: votes.count,
    categoryId,
    vipOnly: movie.is_vip,
    genreSlugs,
    countrySlugs: mapCountries(movie.country),
    episodes,
  };
}
