// What the start path reads from a stream's playlists before hls.js runs (decision 0952): the master's levels,
// the level to start with, and the segment the first frame comes from. Line-based like the ad filter
// (lib/hls/ad-filter.ts), no dependencies: this module is in the small chunk every watch page loads early.

export interface Variant {
  /** Absolute URL of the level's media playlist. */
  url: string;
  /** BANDWIDTH, bits per second. */
  bandwidth: number;
  height: number;
}

/** A master playlist names levels (`#EXT-X-STREAM-INF`); a media playlist names segments. */
export function isMasterPlaylist(text: string): boolean {
  return text.includes('#EXT-X-STREAM-INF');
}

/** `KEY=value,KEY="quoted, value"` → a map. */
function attributes(list: string): Map<string, string> {
  const out = new Map<string, string>();
  const re = /([A-Z0-9-]+)=("[^"]*"|[^,]*)/g;
  for (let m = re.exec(list); m; m = re.exec(list)) out.set(m[1]!, m[2]!.replace(/^"|"$/g, ''));
  return out;
}

function resolve(uri: string, base: string): string | undefined {
  try {
    return new URL(uri, base).href;
  } catch {
    return undefined;
  }
}

/** The levels of a master playlist, in its own order. */
export function parseVariants(text: string, url: string): Variant[] {
  const lines = text.split('\n').map((l) => l.trim());
  const variants: Variant[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (!line.startsWith('#EXT-X-STREAM-INF:')) continue;
    const attrs = attributes(line.slice('#EXT-X-STREAM-INF:'.length));
    let j = i + 1;
    while (j < lines.length && (lines[j] === '' || lines[j]!.startsWith('#'))) j++;
    const uri = lines[j];
    const absolute = uri ? resolve(uri, url) : undefined;
    if (!absolute) continue;
    const height = Number(attrs.get('RESOLUTION')?.split('x')[1] ?? 0);
    variants.push({ url: absolute, bandwidth: Number(attrs.get('BANDWIDTH') ?? 0) || 0, height: Number.isFinite(height) ? height : 0 });
    i = j;
  }
  return variants;
}

/**
 * The level to start with: the quality the viewer chose on this device (player-prefs.ts) when the stream has it;
 * otherwise the highest whose bitrate is at most an eighth of the estimated bandwidth, so that a segment downloads
 * in an eighth of its duration (a 4 s segment in half a second) and the first frame never waits for a large one;
 * the lowest when none fits. hls.js's own bandwidth estimate takes over after the first segment.
 */
export function chooseStartVariant(variants: Variant[], bandwidthBps: number, preferHeight?: number): Variant | undefined {
  const chosen = preferHeight ? variants.find((v) => v.height === preferHeight) : undefined;
  if (chosen) return chosen;
  const sorted = [...variants].filter((v) => v.bandwidth > 0).sort((a, b) => a.bandwidth - b.bandwidth);
  if (sorted.length === 0) return variants[0];
  let pick = sorted[0]!;
  for (const v of sorted) if (v.bandwidth <= bandwidthBps / START_SHARE) pick = v;
  return pick;
}

/** The first level's bitrate is at most this fraction of the bandwidth (see chooseStartVariant). */
const START_SHARE = 8;

export interface FirstSegment {
  url: string;
  /** Where it starts on the playlist's timeline, seconds. */
  start: number;
  duration: number;
}

/**
 * The segment that holds `position` (seconds on the playlist's own timeline: pass a playlist the ad filter has
 * already cut, as hls.js sees it). Undefined when the segment needs more than its own bytes to play (a key, an
 * init segment, a byte range): hls.js then loads it itself.
 */
export function segmentAt(text: string, url: string, position: number): FirstSegment | undefined {
  let start = 0;
  let duration: number | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '') continue;
    if (line.startsWith('#EXT-X-KEY:')) {
      if (!/METHOD=NONE/.test(line)) return undefined;
      continue;
    }
    if (line.startsWith('#EXT-X-MAP:') || line.startsWith('#EXT-X-BYTERANGE')) return undefined;
    if (line.startsWith('#EXTINF:')) {
      duration = Number.parseFloat(line.slice('#EXTINF:'.length));
      continue;
    }
    if (line.startsWith('#')) continue;
    if (duration === undefined || !Number.isFinite(duration)) return undefined;
    if (position < start + duration || position <= 0) {
      const absolute = resolve(line, url);
      return absolute ? { url: absolute, start, duration } : undefined;
    }
    start += duration;
    duration = undefined;
  }
  return undefined;
}

/**
 * The viewer's bandwidth, bits per second: the higher of the browser's own estimate (Network Information API,
 * Chromium; capped at 10 Mbit/s and often low before it has measured anything) and the fastest transfer among the
 * page's own resources so far; 1 Mbit/s when neither is known.
 */
export function estimateBandwidth(): number {
  const connection = (navigator as Navigator & { connection?: { downlink?: number } }).connection;
  let best = connection?.downlink && connection.downlink > 0 ? connection.downlink * 1_000_000 : 0;
  for (const entry of performance.getEntriesByType('resource') as PerformanceResourceTiming[]) {
    const seconds = (entry.responseEnd - entry.responseStart) / 1000;
    // Too small a transfer says more about the round trip than the bandwidth.
    if (entry.transferSize > 30_000 && seconds > 0.02) best = Math.max(best, (entry.transferSize * 8) / seconds);
  }
  return best || 1_000_000;
}
