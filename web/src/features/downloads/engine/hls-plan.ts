/// <reference path="./m3u8-parser.d.ts" />
// Reading a stream's playlists (m3u8-parser, not regexes) and writing the episode's local copies: what to
// fetch, under which local path, and the playlists hls.js will read from the device. Pure: no DOM, no fetch
// (tests/unit/download-plan.test.ts).
import { type M3u8Key, type M3u8Manifest, Parser } from 'm3u8-parser';
import type { PlanItem } from '../../../lib/downloads/store';
import { filterAds } from '../../../lib/hls/ad-filter';
import { DownloadProblem, type Level, MESSAGES } from './levels';

export { DownloadProblem, defaultLevel, estimateBytes, type Level, MESSAGES } from './levels';

export interface Rendition {
  type: 'SUBTITLES' | 'AUDIO';
  group: string;
  name: string;
  language?: string;
  default: boolean;
  autoselect: boolean;
  url: string;
}

export interface Master {
  levels: Level[];
  renditions: Rendition[];
}

function parse(text: string): M3u8Manifest {
  if (!text.trimStart().startsWith('#EXTM3U')) throw new DownloadProblem(MESSAGES.format, 'format');
  const parser = new Parser();
  parser.push(text);
  parser.end();
  return parser.manifest;
}

/** A master playlist's levels and renditions; a media playlist alone is one level of unknown bandwidth. */
export function readMaster(text: string, url: string): Master {
  const manifest = parse(text);
  const variants = manifest.playlists ?? [];
  if (variants.length === 0) return { levels: [{ url, bandwidth: 0, width: 0, height: 0 }], renditions: [] };
  const levels = variants
    .map((v) => ({
      url: new URL(v.uri, url).href,
      bandwidth: Number(v.attributes.BANDWIDTH) || 0,
      width: v.attributes.RESOLUTION?.width ?? 0,
      height: v.attributes.RESOLUTION?.height ?? 0,
      codecs: v.attributes.CODECS,
      frameRate: v.attributes['FRAME-RATE'],
      subtitles: v.attributes.SUBTITLES,
      audio: v.attributes.AUDIO,
    }))
    .sort((a, b) => a.height - b.height || a.bandwidth - b.bandwidth);
  const renditions: Rendition[] = [];
  for (const type of ['SUBTITLES', 'AUDIO'] as const) {
    for (const [group, names] of Object.entries(manifest.mediaGroups?.[type] ?? {})) {
      for (const [name, r] of Object.entries(names)) {
        if (!r.uri) continue;
        renditions.push({
          type,
          group,
          name,
          language: r.language,
          default: !!r.default,
          autoselect: !!r.autoselect,
          url: new URL(r.uri, url).href,
        });
      }
    }
  }
  return { levels, renditions };
}

export interface LocalPlaylist {
  /** The playlist text hls.js will read from the device (relative URIs into `dir`). */
  text: string;
  /** What to fetch for it (segments, keys, init segments), each once. */
  items: PlanItem[];
  /** Seconds. */
  duration: number;
  segments: number;
  /** Seconds the ad filter cut (never stored). */
  adsRemoved: number;
}

const hex = (iv: Uint32Array) => `0x${Array.from(iv, (n) => n.toString(16).padStart(8, '0')).join('')}`;
const range = (r: { length: number; offset: number }) => `bytes=${r.offset}-${r.offset + r.length - 1}`;

/**
 * A media playlist, through the ad filter (docs/decisions/0950), rewritten for the device: every segment,
 * key and init segment gets a local path under `dir` and the playlist names those. Refuses live playlists
 * (no #EXT-X-ENDLIST) and SAMPLE-AES. AES-128 keys are stored with the segments (the stream stays encrypted
 * on the device; hls.js decrypts as online). `filter` is false for subtitle playlists.
 */
export function localMediaPlaylist(text: string, url: string, dir: string, filter = true): LocalPlaylist {
  const filtered = filter ? filterAds(text, url) : undefined;
  const manifest = parse(filtered && filtered.removedSegments > 0 ? filtered.text : text);
  if (manifest.playlists?.length) throw new DownloadProblem(MESSAGES.format, 'format');
  if (!manifest.endList) throw new DownloadProblem(MESSAGES.live, 'live');
  if (manifest.segments.length === 0) throw new DownloadProblem(MESSAGES.empty, 'format');
  const items: PlanItem[] = [];
  const keys = new Map<string, string>();
  const maps = new Map<string, string>();
  const lines = ['#EXTM3U', `#EXT-X-VERSION:${Math.max(3, manifest.version ?? 3)}`];
  const target = Math.ceil(Math.max(manifest.targetDuration ?? 0, ...manifest.segments.map((s) => s.duration)));
  lines.push(`#EXT-X-TARGETDURATION:${target}`, `#EXT-X-MEDIA-SEQUENCE:${manifest.mediaSequence ?? 0}`);
  if (manifest.discontinuitySequence) lines.push(`#EXT-X-DISCONTINUITY-SEQUENCE:${manifest.discontinuitySequence}`);
  lines.push('#EXT-X-PLAYLIST-TYPE:VOD');
  let lastKey: M3u8Key | undefined;
  let lastMap = '';
  let duration = 0;
  manifest.segments.forEach((segment, i) => {
    if (segment.discontinuity && i > 0) lines.push('#EXT-X-DISCONTINUITY');
    const key = segment.key;
    if (key?.method !== lastKey?.method || key?.uri !== lastKey?.uri || (key?.iv && lastKey?.iv && hex(key.iv) !== hex(lastKey.iv))) {
      if (key && key.method !== 'NONE') {
        if (key.method !== 'AES-128' || !key.uri) throw new DownloadProblem(MESSAGES.drm, 'format');
        const src = new URL(key.uri, url).href;
        let path = keys.get(src);
        if (!path) {
          path = `${dir}/k${keys.size}.key`;
          keys.set(src, path);
          items.push({ src, path });
        }
        lines.push(`#EXT-X-KEY:METHOD=AES-128,URI="${path.slice(dir.length + 1)}"${key.iv ? `,IV=${hex(key.iv)}` : ''}`);
      } else if (lastKey && lastKey.method !== 'NONE') lines.push('#EXT-X-KEY:METHOD=NONE');
      lastKey = key;
    }
    if (segment.map) {
      const src = new URL(segment.map.uri, url).href;
      const id = `${src}|${segment.map.byterange ? range(segment.map.byterange) : ''}`;
      let path = maps.get(id);
      if (!path) {
        path = `${dir}/m${maps.size}.mp4`;
        maps.set(id, path);
        items.push({ src, path, range: segment.map.byterange ? range(segment.map.byterange) : undefined });
      }
      if (path !== lastMap) lines.push(`#EXT-X-MAP:URI="${path.slice(dir.length + 1)}"`);
      lastMap = path;
    }
    const ext = /\.(vtt|webvtt|aac|mp4|m4s|m4a|m4v)$/i.exec(new URL(segment.uri, url).pathname)?.[1]?.toLowerCase() ?? 'ts';
    const path = `${dir}/${i}.${ext}`;
    items.push({ src: new URL(segment.uri, url).href, path, range: segment.byterange ? range(segment.byterange) : undefined });
    lines.push(`#EXTINF:${segment.duration.toFixed(6)},`, path.slice(dir.length + 1));
    duration += segment.duration;
  });
  lines.push('#EXT-X-ENDLIST', '');
  return {
    text: lines.join('\n'),
    items,
    duration,
    segments: manifest.segments.length,
    adsRemoved: filtered?.removedSeconds ?? 0,
  };
}

const quote = (s: string) => `"${s.replace(/"/g, "'")}"`;

/** The local master playlist: the chosen level, with the renditions stored beside it (`dirs[i]` for `renditions[i]`). */
export function localMaster(level: Level, renditions: Rendition[], dirs: string[]): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-INDEPENDENT-SEGMENTS'];
  renditions.forEach((r, i) => {
    const attrs = [
      `TYPE=${r.type}`,
      `GROUP-ID=${quote(r.group)}`,
      `NAME=${quote(r.name)}`,
      r.language ? `LANGUAGE=${quote(r.language)}` : '',
      `DEFAULT=${r.default ? 'YES' : 'NO'}`,
      `AUTOSELECT=${r.autoselect ? 'YES' : 'NO'}`,
      `URI=${quote(`${dirs[i]}/index.m3u8`)}`,
    ].filter(Boolean);
    lines.push(`#EXT-X-MEDIA:${attrs.join(',')}`);
  });
  const inf = [`BANDWIDTH=${level.bandwidth || 1}`];
  if (level.width && level.height) inf.push(`RESOLUTION=${level.width}x${level.height}`);
  if (level.codecs) inf.push(`CODECS=${quote(level.codecs)}`);
  if (level.frameRate) inf.push(`FRAME-RATE=${level.frameRate.toFixed(3)}`);
  if (level.audio && renditions.some((r) => r.type === 'AUDIO' && r.group === level.audio)) inf.push(`AUDIO=${quote(level.audio)}`);
  if (level.subtitles && renditions.some((r) => r.type === 'SUBTITLES' && r.group === level.subtitles))
    inf.push(`SUBTITLES=${quote(level.subtitles)}`);
  lines.push(`#EXT-X-STREAM-INF:${inf.join(',')}`, 'v/index.m3u8', '');
  return lines.join('\n');
}

/** The renditions a level uses: every subtitle of its group, and its audio group's default (or first). */
export function renditionsFor(level: Level, renditions: Rendition[]): Rendition[] {
  const subs = renditions.filter((r) => r.type === 'SUBTITLES' && r.group === level.subtitles);
  const audio = renditions.filter((r) => r.type === 'AUDIO' && r.group === level.audio);
  const chosenAudio = audio.find((r) => r.default) ?? audio[0];
  return [...subs, ...(chosenAudio ? [{ ...chosenAudio, default: true }] : [])];
}
