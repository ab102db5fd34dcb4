// One film, every source (issue 32, docs/decisions/0104-one-film-every-source.md): what tells films apart across
// sources, normalised from what the sources really send, and the rule that decides whether a source's film is one
// the catalogue already has. Pure: the film writer reads the candidates and applies the answer.
//
// The rule, in order:
//   1. the TMDB (type, id, season): a movie by its id; a series only with a real season (seasons share the id);
//   2. else the IMDb id, for movies only (a series' seasons share it too);
//   3. else the folded original name + year + kind (single or series), when exactly one film fits.
// A candidate whose ids contradict the source's (another TMDB id, another season, another IMDb id, another kind)
// is never taken. When in doubt nothing is merged: the doubt is reported, for an admin to decide ("Gộp phim").
import { fold } from '../../db/fold';

export type FilmKind = 'single' | 'series';
export type TmdbType = 'movie' | 'tv';

/** A film's external identity, as stored on films, film_sources and deleted_films. */
export interface FilmIdentity {
  tmdbType: TmdbType | null;
  tmdbId: string | null;
  tmdbSeason: number | null;
  imdbId: string | null;
  /** fold(original name), letters and digits only; null when the source gave none usable. */
  originKey: string | null;
  year: number | null;
  kind: FilmKind | null;
}

export const NO_IDENTITY: FilmIdentity = {
  tmdbType: null,
  tmdbId: null,
  tmdbSeason: null,
  imdbId: null,
  originKey: null,
  year: null,
  kind: null,
};

/** Seasons outside this range are junk (a source's 199 for "Love Endures"; 0 for specials): treated as absent. */
export const MAX_SEASON = 99;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a source's `tmdb` value becomes, and what was wrong with it (for the crawl's log). */
export interface ParsedTmdb {
  type: TmdbType | null;
  id: string | null;
  season: number | null;
  problems: string[];
}

/**
 * `{ type, id, season }` as OPhim v1 and KKPhim send it. Ids come as '', null, '0' or numbers; seasons as null,
 * numbers, strings or nonsense. An id without a type ('movie' or 'tv') is no identity: movie 603 and tv 603 are
 * different works.
 */
export function parseTmdb(raw: unknown): ParsedTmdb {
  const none: ParsedTmdb = { type: null, id: null, season: null, problems: [] };
  if (raw === undefined || raw === null || raw === '') return none;
  if (!isRecord(raw)) return { ...none, problems: [`tmdb: expected an object, got ${typeName(raw)}`] };
  const problems: string[] = [];
  const id = parseNumericId(raw.id, 'tmdb.id', problems);
  const typeText = typeof raw.type === 'string' ? raw.type.trim().toLowerCase() : '';
  const type: TmdbType | null = typeText === 'movie' || typeText === 'tv' ? typeText : null;
  if (raw.type !== undefined && raw.type !== null && raw.type !== '' && !type)
    problems.push(`tmdb.type: '${String(raw.type).slice(0, 20)}' is neither movie nor tv`);
  if (id && !type) return { ...none, problems: [...problems, 'tmdb.id without a type: ignored'] };
  if (!id) return { ...none, problems };
  let season: number | null = null;
  if (type === 'tv') {
    const s = raw.season;
    const n = typeof s === 'number' ? s : typeof s === 'string' && /^\d{1,4}$/.test(s.trim()) ? Number(s.trim()) : Number.NaN;
    if (Number.isInteger(n) && n >= 1 && n <= MAX_SEASON) season = n;
    else if (s !== undefined && s !== null && s !== '') problems.push(`tmdb.season: ${JSON.stringify(s).slice(0, 20)} is not a season`);
  }
  return { type, id, season, problems };
}

/** `{ id: 'tt1190634' }` (or the bare string some clones send); '', null and anything else are no id. */
export function parseImdb(raw: unknown): { id: string | null; problems: string[] } {
  if (raw === undefined || raw === null || raw === '') return { id: null, problems: [] };
  const value = isRecord(raw) ? raw.id : raw;
  if (value === undefined || value === null || value === '') return { id: null, problems: [] };
  if (typeof value !== 'string') return { id: null, problems: [`imdb.id: expected a string, got ${typeName(value)}`] };
  const id = value.trim().toLowerCase();
  if (/^tt\d{5,10}$/.test(id)) return { id, problems: [] };
  return { id: null, problems: [`imdb.id: '${value.slice(0, 20)}' is not an IMDb id`] };
}

function parseNumericId(value: unknown, field: string, problems: string[]): string | null {
  if (value === undefined || value === null || value === '') return null;
  let text: string;
  if (typeof value === 'number') text = Number.isInteger(value) ? String(value) : '';
  else if (typeof value === 'string') text = value.trim();
  else {
    problems.push(`${field}: expected a string or number, got ${typeName(value)}`);
    return null;
  }
  if (!/^\d{1,10}$/.test(text)) {
    problems.push(`${field}: '${String(value).slice(0, 20)}' is not an id`);
    return null;
  }
  // '0' (and '000') is what hand-added films carry: no id.
  return /^0+$/.test(text) ? null : text.replace(/^0+/, '');
}

const typeName = (v: unknown) => (Array.isArray(v) ? 'an array' : v === null ? 'null' : typeof v);

/** 'The Lion King' → 'the lion king'; 'Joy of Life (Season 2)' → 'joy of life season 2'; nothing usable → null. */
export function originKeyOf(name: string): string | null {
  const key = fold(name)
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return key.length >= 2 ? key : null;
}

/** A candidate the writer read: a film (or a deleted film's tombstone) with its identity. */
export interface Candidate extends FilmIdentity {
  id: number;
  /** A tombstone (deleted_films): a source's film that matches it stays deleted. */
  deleted?: boolean;
  /** Sources already feeding this film (film_sources.source_id). */
  sourceIds: readonly (number | null)[];
}

export interface Doubt {
  filmId: number;
  deleted?: boolean;
  /** Vietnamese, for the admin ("Gộp phim" and the crawl's log). */
  reason: string;
}

export type MatchBy = 'tmdb' | 'imdb' | 'name';

export type MatchResult = { match: Candidate; by: MatchBy; doubts: Doubt[] } | { match: null; doubts: Doubt[] };

/** Why `a` and `b` cannot be one film, or null when nothing they say contradicts. */
export function contradiction(a: FilmIdentity, b: FilmIdentity): string | null {
  if (a.tmdbId && b.tmdbId && (a.tmdbId !== b.tmdbId || a.tmdbType !== b.tmdbType))
    return `khác TMDB (${a.tmdbType} ${a.tmdbId} và ${b.tmdbType} ${b.tmdbId})`;
  if (
    a.tmdbId &&
    a.tmdbId === b.tmdbId &&
    a.tmdbType === 'tv' &&
    a.tmdbSeason !== null &&
    b.tmdbSeason !== null &&
    a.tmdbSeason !== b.tmdbSeason
  )
    return `cùng TMDB tv ${a.tmdbId} nhưng khác mùa (${a.tmdbSeason} và ${b.tmdbSeason})`;
  if (a.imdbId && b.imdbId && a.imdbId !== b.imdbId) return `khác IMDb (${a.imdbId} và ${b.imdbId})`;
  if (a.kind && b.kind && a.kind !== b.kind) return `khác loại (${kindText(a.kind)} và ${kindText(b.kind)})`;
  return null;
}

const kindText = (k: FilmKind) => (k === 'single' ? 'phim lẻ' : 'phim bộ');

/**
 * The film of `candidates` that a source's film with `item`'s identity is, by the rule above, or null with the
 * doubts worth an admin's look (a film that looks the same but is not taken, or several that fit).
 * `sourceId` is the source the film comes from: a second film of the same source is never joined to a film by its
 * name alone (a source does not list one film twice under different ids; two such films are two).
 */
export function matchFilm(item: FilmIdentity, candidates: readonly Candidate[], sourceId: number | null = null): MatchResult {
  const doubts: Doubt[] = [];
  const doubt = (c: Candidate, reason: string) => {
    if (!doubts.some((d) => d.filmId === c.id && !!d.deleted === !!c.deleted)) doubts.push({ filmId: c.id, deleted: c.deleted, reason });
  };
  const compatible = (c: Candidate) => contradiction(item, c) === null;

  // 1. TMDB: a movie by (type, id); a series by (type, id, season), never without a season.
  if (item.tmdbId && item.tmdbType && (item.tmdbType === 'movie' || item.tmdbSeason !== null)) {
    const same = candidates.filter(
      (c) => c.tmdbType === item.tmdbType && c.tmdbId === item.tmdbId && (item.tmdbType === 'movie' || c.tmdbSeason === item.tmdbSeason),
    );
    const fit = same.filter(compatible);
    for (const c of same) if (!fit.includes(c)) doubt(c, `cùng TMDB ${tmdbText(item)} nhưng ${contradiction(item, c)}`);
    if (fit.length === 1) return { match: fit[0]!, by: 'tmdb', doubts };
    if (fit.length > 1) {
      for (const c of fit) doubt(c, `nhiều phim cùng TMDB ${tmdbText(item)}`);
      return { match: null, doubts };
    }
  }

  // 2. IMDb, movies only: a series' seasons share it.
  if (item.imdbId && item.kind === 'single' && item.tmdbType !== 'tv') {
    const same = candidates.filter((c) => c.imdbId === item.imdbId && c.kind === 'single');
    const fit = same.filter(compatible);
    for (const c of same) if (!fit.includes(c)) doubt(c, `cùng IMDb ${item.imdbId} nhưng ${contradiction(item, c)}`);
    if (fit.length === 1) return { match: fit[0]!, by: 'imdb', doubts };
    if (fit.length > 1) {
      for (const c of fit) doubt(c, `nhiều phim cùng IMDb ${item.imdbId}`);
      return { match: null, doubts };
    }
  }

  // 3. The original name, year and kind, when exactly one film fits and nothing contradicts.
  if (item.originKey && item.year !== null && item.kind) {
    const same = candidates.filter((c) => c.originKey === item.originKey && c.year === item.year && c.kind === item.kind);
    const fit: Candidate[] = [];
    for (const c of same) {
      const why = contradiction(item, c);
      if (why) doubt(c, `cùng tên gốc và năm nhưng ${why}`);
      else if (sourceId !== null && c.sourceIds.includes(sourceId)) doubt(c, 'cùng tên gốc và năm, cùng nguồn nhưng khác mã phim');
      else fit.push(c);
    }
    if (fit.length === 1) return { match: fit[0]!, by: 'name', doubts };
    for (const c of fit) doubt(c, `nhiều phim cùng tên gốc "${item.originKey}" năm ${item.year}`);
  }
  return { match: null, doubts };
}

const tmdbText = (i: FilmIdentity) => `${i.tmdbType} ${i.tmdbId}${i.tmdbType === 'tv' ? ` mùa ${i.tmdbSeason ?? '?'}` : ''}`;

/** The identity a film keeps once `incoming` joined it: what it had, completed by what it lacked. */
export function completeIdentity(stored: FilmIdentity, incoming: FilmIdentity): FilmIdentity {
  const tmdb = stored.tmdbId
    ? {
        tmdbType: stored.tmdbType,
        tmdbId: stored.tmdbId,
        tmdbSeason: stored.tmdbSeason ?? (incoming.tmdbId === stored.tmdbId ? incoming.tmdbSeason : null),
      }
    : { tmdbType: incoming.tmdbType, tmdbId: incoming.tmdbId, tmdbSeason: incoming.tmdbSeason };
  return {
    ...tmdb,
    imdbId: stored.imdbId ?? incoming.imdbId,
    originKey: stored.originKey ?? incoming.originKey,
    year: stored.year ?? incoming.year,
    kind: stored.kind ?? incoming.kind,
  };
}

/** The keys a page's films are looked up by: their TMDB ids, IMDb ids and original names. */
export function lookupKeys(items: readonly FilmIdentity[]) {
  return {
    tmdbIds: [...new Set(items.map((i) => i.tmdbId).filter((v): v is string => !!v))],
    imdbIds: [...new Set(items.map((i) => i.imdbId).filter((v): v is string => !!v))],
    originKeys: [...new Set(items.map((i) => i.originKey).filter((v): v is string => !!v))],
  };
}
