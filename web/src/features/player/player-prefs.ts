// What this device chose in the player, kept across episodes and visits: playback speed, volume (and mute),
// the video quality (a rendition's height, or automatic) and "Tự động bỏ qua" (skip learned intros by itself).

const KEY = 'phimviet:player';

export const PLAYBACK_RATES = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

export interface PlayerPrefs {
  rate: number;
  volume: number;
  muted: boolean;
  /** A rendition's height in pixels; undefined = automatic (hls.js picks by bandwidth). */
  quality?: number;
  /** "Tự động bỏ qua": a learned intro is skipped without a tap (issue 40 §7). */
  autoSkip: boolean;
}

const DEFAULTS: PlayerPrefs = { rate: 1, volume: 1, muted: false, autoSkip: false };

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
  return { rate, volume, muted, quality, autoSkip: r.autoSkip === true };
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

/** media-chrome's rendition list (media-tracks), on hls-video-element. */
interface Renditions extends EventTarget {
  readonly length: number;
  selectedIndex: number;
  [index: number]: { height?: number } | undefined;
}

/**
 * Applies this device's speed, volume and quality to a player whose stream is attached, and remembers what the
 * viewer changes there. Returns the cleanup.
 */
export function bindPlayerPrefs(video: HTMLVideoElement, host: HTMLElement & { videoRenditions?: Renditions }): () => void {
  const prefs = loadPlayerPrefs();
  const applyRate = () => {
    video.defaultPlaybackRate = prefs.rate;
    video.playbackRate = prefs.rate;
  };
  applyRate();
  video.volume = prefs.volume;
  video.muted = prefs.muted;
  const onRate = () => {
    if ((PLAYBACK_RATES as readonly number[]).includes(video.playbackRate)) {
      prefs.rate = video.playbackRate;
      savePlayerPrefs({ rate: video.playbackRate });
    }
  };
  const onVolume = () => savePlayerPrefs({ volume: video.volume, muted: video.muted });
  // Loading a source resets the speed to the default one: set both, and again once the metadata is known.
  video.addEventListener('loadedmetadata', applyRate);
  video.addEventListener('ratechange', onRate);
  video.addEventListener('volumechange', onVolume);
  const cleanups = [
    () => {
      video.removeEventListener('loadedmetadata', applyRate);
      video.removeEventListener('ratechange', onRate);
      video.removeEventListener('volumechange', onVolume);
    },
  ];
  const renditions = host.videoRenditions;
  if (renditions) {
    // The remembered quality is picked as soon as the stream lists it; a choice in the menu is remembered.
    let restoring = false;
    const restore = () => {
      if (prefs.quality === undefined) return;
      for (let i = 0; i < renditions.length; i++) {
        if (renditions[i]?.height === prefs.quality && renditions.selectedIndex !== i) {
          restoring = true;
          renditions.selectedIndex = i;
          restoring = false;
        }
      }
    };
    const onChange = () => {
      if (restoring) return;
      const chosen = renditions.selectedIndex >= 0 ? renditions[renditions.selectedIndex]?.height : undefined;
      prefs.quality = chosen;
      savePlayerPrefs({ quality: chosen });
    };
    renditions.addEventListener('addrendition', restore);
    renditions.addEventListener('change', onChange);
    restore();
    cleanups.push(() => {
      renditions.removeEventListener('addrendition', restore);
      renditions.removeEventListener('change', onChange);
    });
  }
  return () => {
    for (const cleanup of cleanups) cleanup();
  };
}
