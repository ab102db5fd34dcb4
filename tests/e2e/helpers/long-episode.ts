// A long episode for downloads: a 45-minute media playlist per level (675 × 4 s segments) whose URIs cycle
// through the demo clip's 5 real segments, a discontinuity before each cycle restart (valid timestamps), the
// clip's Vietnamese subtitles, under /ep/ on a test video host (helpers/hls-host.ts).
import { demoFile, type HostRoutes } from './hls-host';

export const LONG_SEGMENTS = 675;
export const LEVELS = ['180p', '360p', '540p'] as const;

export function longMaster(): string {
  const master = demoFile('clip.m3u8') as string;
  return master.replace(/clip_(\d+p)\.m3u8/g, '$1/index.m3u8').replace('clip_vi.m3u8', 'subs/vi.m3u8');
}

export function longMedia(segments = LONG_SEGMENTS): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:4', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD'];
  for (let n = 0; n < segments; n++) {
    if (n > 0 && n % 5 === 0) lines.push('#EXT-X-DISCONTINUITY');
    lines.push('#EXTINF:4.000000,', `seg${n}.ts`);
  }
  lines.push('#EXT-X-ENDLIST', '');
  return lines.join('\n');
}

/** The routes: /ep/master.m3u8, /ep/{level}/index.m3u8, /ep/{level}/seg{n}.ts, /ep/subs/vi.m3u8 and its WebVTT. */
export function longEpisodeRoutes(segments = LONG_SEGMENTS): HostRoutes {
  return (path) => {
    if (path === '/ep/master.m3u8') return { body: longMaster() };
    if (path === '/ep/subs/vi.m3u8') return { body: demoFile('clip_vi.m3u8') };
    if (path === '/ep/subs/clip_vi.vtt') return { body: demoFile('clip_vi.vtt') };
    const playlist = /^\/ep\/(\d+p)\/index\.m3u8$/.exec(path);
    if (playlist) return { body: longMedia(segments) };
    const seg = /^\/ep\/(\d+p)\/seg(\d+)\.ts$/.exec(path);
    if (seg && Number(seg[2]) < segments) return { body: demoFile(`clip_${seg[1]}_${Number(seg[2]) % 5}.mpegts`) };
    return undefined;
  };
}

/** How many times each path was requested, for the ones asked more than once. */
export function repeated(requests: string[]): string[] {
  const seen = new Map<string, number>();
  for (const r of requests) seen.set(r, (seen.get(r) ?? 0) + 1);
  return [...seen].filter(([, n]) => n > 1).map(([p]) => p);
}
