/**
 * Removes the ads that OPhim/KKPhim-style hosts splice into an HLS media playlist (issue 25 §1, decision 0950).
 *
 * Pure and line-based: the answer is the input with some lines deleted and nothing else changed (no URI is
 * rewritten, no tag re-serialised), so hls.js sees the host's own playlist minus the ad. A group of segments
 * between two discontinuities (the playlist's start and end count as edges, so pre- and post-rolls are groups
 * too) is cut only when every segment in it is foreign to the film — it carries a known ad path, or it is
 * named, hosted or placed unlike the overwhelming majority — when it is short, when it does not continue the
 * film's own numbering, and when everything cut stays a small share of the playlist.
 */

export interface CutGroup {
  /** index of the first removed segment in the original playlist */
  firstSegment: number;
  segments: number;
  seconds: number;
  /** start time on the ORIGINAL timeline */
  startsAt: number;
  reason: 'marker' | 'naming' | 'host' | 'path';
  uris: string[];
}

export interface AdFilterResult {
  text: string;
  removedSegments: number;
  removedSeconds: number;
  groups: CutGroup[];
}

/** A group longer than this is never an ad ("about a minute at most"). */
const MAX_GROUP_SECONDS = 65;
const MAX_GROUP_SEGMENTS = 30;
/** A signature (naming, origin, directory) describes the film only when it covers this share of the segments. */
const DOMINANCE = 0.8;
/** Groups cut for being foreign (rule B) may add up to at most min(300 s, 15 % of the playlist)… */
const MAX_FOREIGN_SECONDS = 300;
const MAX_FOREIGN_SHARE = 0.15;
/** …and everything cut, marker groups included, to at most half of it. */
const MAX_TOTAL_SHARE = 0.5;

/** Tags that belong to the one segment that follows them: removed with it. KEY, MAP, DISCONTINUITY, ENDLIST and header tags are not. */
const SEGMENT_TAG = /^#(?:EXTINF|EXT-X-BYTERANGE|EXT-X-PROGRAM-DATE-TIME|EXT-X-GAP|EXT-X-BITRATE)(?::|$)/;
const DISCONTINUITY = /^#EXT-X-DISCONTINUITY\s*$/;
/** Known ad paths: the Chinese CDN software's `/adjump/`, KKPhim's root `/v8/<hex>/segment_NNNN.ts`. */
const ADJUMP = /(?:^|\/)adjump\//;
const V_HEX_SEGMENT = /^(?:https?:\/\/[^/]+)?\/v\d+\/[0-9a-f]{16,}\/segment_\d+\.ts(?:[?#]|$)/i;
const V_HEX_SEGMENT_PATH = /^\/v\d+\/[0-9a-f]{16,}\/segment_\d+\.ts$/i;
/** KKPhim's re-encoded film segments (with a caption overlaid): film, never cut. */
const CONVERTV = /(?:^|\/)convertv\d+\//;

type Reason = CutGroup['reason'];
/** Character classes of a name, each a subset of the next. */
const CLASSES = ['d', 'h', 'a', 'o'] as const;
type CharClass = (typeof CLASSES)[number];

interface Segment {
  index: number;
  group: number;
  uri: string;
  url: URL | null;
  duration: number;
  /** time at which it starts on the original timeline */
  startsAt: number;
  /** origin and directory of its resolved URL (`https://host/a/b/`) */
  directory: string | null;
  /** this segment's lines (per-segment tags, blank lines among them, the URI), ascending */
  lines: number[];
  stem: string;
  /** its trailing digit run, when it has one */
  number: bigint | null;
  cls: CharClass;
  len: number;
  marker: boolean;
}

function classOf(base: string): CharClass {
  if (/^\d+$/.test(base)) return 'd';
  if (/^[0-9a-f]+$/i.test(base)) return 'h';
  if (/^[A-Za-z0-9]+$/.test(base)) return 'a';
  return 'o';
}

const within = (inner: CharClass, outer: CharClass): boolean => CLASSES.indexOf(inner) <= CLASSES.indexOf(outer);

function resolve(uri: string, base: string): URL | null {
  try {
    return new URL(uri, base);
  } catch {
    try {
      return new URL(uri);
    } catch {
      return null;
    }
  }
}

/** The last path segment without extension and query: `…/dc5c36a482e000148.ts?x=1` → `dc5c36a482e000148`. */
function baseName(uri: string, url: URL | null): string {
  const path = url ? url.pathname : uri.replace(/[?#].*$/, '');
  const last = path.slice(path.lastIndexOf('/') + 1);
  const dot = last.lastIndexOf('.');
  return dot > 0 ? last.slice(0, dot) : last;
}

const directoryOf = (url: URL): string => url.origin + url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1);

/** The most common value and how many items have it (first met wins a tie). */
function mostCommon<T>(items: readonly T[], key: (item: T) => string | null): { value: string; count: number } | null {
  const counts = new Map<string, number>();
  let best: { value: string; count: number } | null = null;
  for (const item of items) {
    const k = key(item);
    if (k === null) continue;
    const n = (counts.get(k) ?? 0) + 1;
    counts.set(k, n);
    if (!best || n > best.count) best = { value: k, count: n };
  }
  return best;
}

function parse(lines: readonly string[], playlistUrl: string): Segment[] {
  const segments: Segment[] = [];
  let group = 0;
  let pending: number[] = [];
  let duration = 0;
  let clock = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '') {
      if (pending.length > 0) pending.push(i);
    } else if (line.startsWith('#')) {
      if (DISCONTINUITY.test(line)) group++;
      else if (SEGMENT_TAG.test(line)) {
        pending.push(i);
        if (line.startsWith('#EXTINF:')) {
          const d = Number.parseFloat(line.slice(8));
          duration = Number.isFinite(d) && d > 0 ? d : 0;
        }
      }
    } else {
      const url = resolve(line, playlistUrl);
      const base = baseName(line, url);
      const digits = /\d+$/.exec(base)?.[0];
      segments.push({
        index: segments.length,
        group,
        uri: line,
        url,
        directory: url ? directoryOf(url) : null,
        duration,
        startsAt: clock,
        lines: [...pending, i],
        stem: digits ? `${base.slice(0, -digits.length)}#` : base,
        number: digits ? BigInt(digits) : null,
        cls: classOf(base),
        len: base.length,
        marker:
          ADJUMP.test(line) ||
          V_HEX_SEGMENT.test(line) ||
          (url !== null && (ADJUMP.test(url.pathname) || V_HEX_SEGMENT_PATH.test(url.pathname))),
      });
      clock += duration;
      pending = [];
      duration = 0;
    }
  }
  return segments;
}

/** What the film looks like, each part only when it covers ≥ 80 % of the segments. */
interface FilmProfile {
  namedLikeFilm: ((s: Segment) => boolean) | null;
  origin: string | null;
  directory: string | null;
}

function profile(segments: readonly Segment[]): FilmProfile {
  const enough = (count: number) => count >= DOMINANCE * segments.length;

  // Naming: whichever of stem and shape covers more segments (stem on a tie: it is the stricter).
  const stem = mostCommon(segments, (s) => s.stem);
  const shapes = new Map<string, { cls: CharClass; len: number; n: number }>();
  for (const s of segments) {
    const k = `${s.cls}:${s.len}`;
    const seen = shapes.get(k);
    if (seen) seen.n++;
    else shapes.set(k, { cls: s.cls, len: s.len, n: 1 });
  }
  let shape: { cls: CharClass; len: number; count: number } | null = null;
  for (const { cls, len } of shapes.values()) {
    let count = 0;
    for (const other of shapes.values()) if (other.len === len && within(other.cls, cls)) count += other.n;
    if (!shape || count > shape.count || (count === shape.count && CLASSES.indexOf(cls) < CLASSES.indexOf(shape.cls))) {
      shape = { cls, len, count };
    }
  }
  let namedLikeFilm: FilmProfile['namedLikeFilm'] = null;
  if (stem && (!shape || stem.count >= shape.count)) {
    if (enough(stem.count)) namedLikeFilm = (s) => s.stem === stem.value;
  } else if (shape && enough(shape.count)) {
    const { cls, len } = shape;
    namedLikeFilm = (s) => s.len === len && within(s.cls, cls);
  }

  const origin = mostCommon(segments, (s) => s.url?.origin ?? null);
  // The most common directory; segments in its subdirectories (KKPhim `convertv8/`) count as inside it.
  const dir = mostCommon(segments, (s) => s.directory);
  const inside = dir ? segments.filter((s) => s.directory?.startsWith(dir.value)).length : 0;

  return {
    namedLikeFilm,
    origin: origin && enough(origin.count) ? origin.value : null,
    directory: dir && enough(inside) ? dir.value : null,
  };
}

/** Why a segment is not the film's, most telling reason first; null when it may be film. */
function foreignReason(s: Segment, film: FilmProfile): Reason | null {
  if (s.marker) return 'marker';
  if (film.origin !== null && s.url && s.url.origin !== film.origin) return 'host';
  if (film.directory !== null && s.directory !== null && !s.directory.startsWith(film.directory)) return 'path';
  if (film.namedLikeFilm && !film.namedLikeFilm(s)) return 'naming';
  return null;
}

/** `b` directly follows `a` in one numbered sequence (`seg99` → `seg100`, `…000148` → `…000149`). */
const follows = (a: Segment | undefined, b: Segment | undefined): boolean =>
  !!a && !!b && a.number !== null && b.number !== null && a.stem === b.stem && b.number === a.number + 1n;

const sum = (xs: readonly { seconds: number }[]) => xs.reduce((t, x) => t + x.seconds, 0);

/** Filters one HLS playlist. `url` is the playlist's own URL (relative URIs resolve against it). A master playlist (#EXT-X-STREAM-INF), a non-playlist, or one where nothing is cut comes back as the very same string with removedSegments 0. */
export function filterAds(text: string, url: string): AdFilterResult {
  const unchanged: AdFilterResult = { text, removedSegments: 0, removedSeconds: 0, groups: [] };
  if (!/^\uFEFF?\s*#EXTM3U/.test(text) || /^\s*#EXT-X-STREAM-INF/m.test(text)) return unchanged;

  // Split on LF only: a CRLF line keeps its CR, so kept lines come back byte for byte.
  const lines = text.split('\n');
  const segments = parse(lines, url);
  if (segments.length === 0) return unchanged;
  const total = segments.reduce((t, s) => t + s.duration, 0);
  const film = profile(segments);

  const byGroup = new Map<number, Segment[]>();
  for (const s of segments) {
    const members = byGroup.get(s.group);
    if (members) members.push(s);
    else byGroup.set(s.group, [s]);
  }

  const markerGroups: CutGroup[] = [];
  const foreignGroups: CutGroup[] = [];
  for (const members of byGroup.values()) {
    const reasons = members.map((s) => foreignReason(s, film));
    if (reasons.some((r) => r === null)) continue;
    if (members.some((s) => CONVERTV.test(s.uri) || (s.url && CONVERTV.test(s.url.pathname)))) continue;
    const first = members[0]!;
    const last = members[members.length - 1]!;
    const seconds = members.reduce((t, s) => t + s.duration, 0);
    if (seconds > MAX_GROUP_SECONDS || members.length > MAX_GROUP_SEGMENTS) continue;
    // A group that carries on the numbering of the film around it is film, however it looks.
    if (follows(segments[first.index - 1], first) || follows(last, segments[last.index + 1])) continue;
    const allMarked = reasons.every((r) => r === 'marker');
    const reason = allMarked
      ? 'marker'
      : ((['host', 'path', 'naming'] as const).find((r) => reasons.every((x) => x === r)) ??
        (reasons.find((r) => r !== 'marker') as Reason));
    const cut: CutGroup = {
      firstSegment: first.index,
      segments: members.length,
      seconds,
      startsAt: first.startsAt,
      reason,
      uris: members.map((s) => s.uri),
    };
    (allMarked ? markerGroups : foreignGroups).push(cut);
  }

  const foreignAllowed = sum(foreignGroups) <= Math.min(MAX_FOREIGN_SECONDS, MAX_FOREIGN_SHARE * total);
  const groups = [...markerGroups, ...(foreignAllowed ? foreignGroups : [])].sort((a, b) => a.firstSegment - b.firstSegment);
  const removedSeconds = sum(groups);
  if (groups.length === 0 || removedSeconds > MAX_TOTAL_SHARE * total) return unchanged;

  const cutSegment = new Set<number>();
  const drop = new Set<number>();
  for (const g of groups) {
    for (let i = g.firstSegment; i < g.firstSegment + g.segments; i++) {
      cutSegment.add(i);
      for (const line of segments[i]!.lines) drop.add(line);
    }
  }

  // Each run of cut segments sits between two kept segments (or the playlist's start or end). The
  // discontinuities in that stretch collapse into one; at the start or the end none is left.
  for (let i = 0; i < segments.length; i++) {
    if (!cutSegment.has(i) || cutSegment.has(i - 1)) continue;
    let j = i;
    while (cutSegment.has(j + 1)) j++;
    const before = segments[i - 1];
    const after = segments[j + 1];
    const from = before ? before.lines[before.lines.length - 1]! + 1 : 0;
    const to = after ? after.lines[0]! : lines.length;
    let keepOne = before !== undefined && after !== undefined;
    for (let l = from; l < to; l++) {
      if (!DISCONTINUITY.test(lines[l]!.trim())) continue;
      if (keepOne) keepOne = false;
      else drop.add(l);
    }
    i = j;
  }

  return {
    text: lines.filter((_, i) => !drop.has(i)).join('\n'),
    removedSegments: cutSegment.size,
    removedSeconds,
    groups,
  };
}

/** One line for the player's stats or the console: `Đã bỏ 8 đoạn quảng cáo (23,3 giây)`. */
export function describeCut(result: AdFilterResult): string {
  if (result.removedSegments === 0) return 'Không có đoạn quảng cáo nào bị bỏ';
  const [whole, tenth] = result.removedSeconds.toFixed(1).split('.');
  const grouped = whole!.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `Đã bỏ ${result.removedSegments} đoạn quảng cáo (${grouped},${tenth} giây)`;
}
