// What this device chose in the player, kept across episodes and visits: playback speed, volume (and mute)
// and the video quality (a rendition's height, or automatic).

const KEY = 'phimviet:player';

export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

export interface PlayerPrefs {
  rate: number;
  volume: number;
  muted: boolean;
  /** A rendition's height in pixels; undefined = automatic (hls.js picks by bandwidth). */
  quality?: number;
}

const DEFAULTS: PlayerPrefs = { rate: 1, volume: 1, muted: false };

export function loadPlayerPrefs(): PlayerPrefs {
  let raw: unknown;
  try {
    raw = JSON.parse(localStorage.getItem(KEY) ?? 'null');
  } catch {
    return { ...DEFAULTS };
  }
  if (!raw || typeof raw !== 'object') return { ...DEFAULTS };
  const r = raw as Record<string, unknown>;
  const rate = typeof r.rate === 'number' && (PLAYBACK_RATES as readonly number[]).includes(r.rate) ? r.rate : DEFAULTS.rate;
  const volume = typeof r.volume === 'number' && r.volume >= 0 && r.volume <= 1 ? r.volume : DEFAULTS.volume;
  const muted = r.muted === true;
  const quality = typeof r.quality === 'number' && Number.isInteger(r.quality) && r.quality > 0 ? r.quality : undefined;
  return { rate, volume, muted, quality };
}

/** Merges a change into what is stored; storage errors are ignored (a nicety, like the watch history). */
export function savePlayerPrefs(change: Partial<PlayerPrefs>): void {
  const next = { ...loadPlayerPrefs(), ...change };
  try {
    localStorage.setItem(KEY, JSON.stringify(next));
  } catch {
    // private mode or quota: the choice lasts this page only
  }
}
