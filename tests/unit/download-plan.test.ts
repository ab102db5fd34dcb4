// The downloader's playlist reading and local rewriting (web/src/features/downloads/engine/hls-plan.ts):
// levels and renditions from a master, the default quality, the size estimate, the ad filter applied before
// storing, AES-128 keys and init segments kept once, byte ranges, live and SAMPLE-AES refused.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  DownloadProblem,
  defaultLevel,
  estimateBytes,
  localMaster,
  localMediaPlaylist,
  MESSAGES,
  readMaster,
  renditionsFor,
} from '../../web/src/features/downloads/engine/hls-plan';

const DEMO = resolve(import.meta.dirname, '../../demo/hls');
const MASTER_URL = 'https://cdn.example.test/films/abc/master.m3u8';

const media = (segments: string[], extra = '', end = true) =>
  ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:4', '#EXT-X-MEDIA-SEQUENCE:7', extra, ...segments, end ? '#EXT-X-ENDLIST' : '']
    .filter(Boolean)
    .join('\n');

describe('reading a master playlist', () => {
  it("lists the demo clip's three levels with their resolution and bandwidth, and its Vietnamese subtitles", () => {
    const master = readMaster(readFileSync(resolve(DEMO, 'clip.m3u8'), 'utf8'), MASTER_URL);
    expect(master.levels.map((l) => [l.height, l.bandwidth])).toEqual([
      [180, 160000],
      [360, 270000],
      [540, 420000],
    ]);
    expect(master.levels[0]!.url).toBe('https://cdn.example.test/films/abc/clip_180p.m3u8');
    expect(master.renditions).toEqual([
      expect.objectContaining({
        type: 'SUBTITLES',
        group: 'subs',
        name: 'Tiếng Việt',
        language: 'vi',
        url: 'https://cdn.example.test/films/abc/clip_vi.m3u8',
      }),
    ]);
    expect(renditionsFor(master.levels[2]!, master.renditions)).toHaveLength(1);
  });

  it('takes a media playlist alone as one level of unknown bandwidth', () => {
    const master = readMaster(media(['#EXTINF:4,', 'a.ts']), MASTER_URL);
    expect(master.levels).toEqual([{ url: MASTER_URL, bandwidth: 0, width: 0, height: 0 }]);
  });

  it('refuses what is not a playlist', () => {
    expect(() => readMaster('<html>404</html>', MASTER_URL)).toThrow(MESSAGES.format);
  });

  it('defaults to the highest level at most 720p, else the lowest', () => {
    const level = (height: number) => ({ url: `${height}`, bandwidth: height * 1000, width: 0, height });
    expect(defaultLevel([level(360), level(480), level(720), level(1080)])).toBe(2);
    expect(defaultLevel([level(180), level(360), level(540)])).toBe(2);
    expect(defaultLevel([level(1080), level(2160)])).toBe(0);
  });

  it('estimates bandwidth × duration / 8', () => {
    expect(estimateBytes({ url: '', bandwidth: 400_000, width: 0, height: 540 }, 2700)).toBe(135_000_000);
  });
});

describe('the local copy of a media playlist', () => {
  it('names every segment under its directory, keeps durations, discontinuities and the media sequence', () => {
    const text = media(['#EXTINF:4,', 'seg0.ts', '#EXT-X-DISCONTINUITY', '#EXTINF:3.5,', 'https://cdn2.example.test/x/seg1.ts']);
    const local = localMediaPlaylist(text, 'https://cdn.example.test/films/abc/540p/index.m3u8', 'v');
    expect(local.items).toEqual([
      { src: 'https://cdn.example.test/films/abc/540p/seg0.ts', path: 'v/0.ts', range: undefined },
      { src: 'https://cdn2.example.test/x/seg1.ts', path: 'v/1.ts', range: undefined },
    ]);
    expect(local.duration).toBe(7.5);
    expect(local.text).toContain('#EXT-X-MEDIA-SEQUENCE:7');
    expect(local.text).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
    expect(local.text.split('\n').filter((l) => !l.startsWith('#'))).toEqual(['0.ts', '1.ts', '']);
    expect(local.text).toMatch(/#EXT-X-DISCONTINUITY\n#EXTINF:3.500000,\n1\.ts/);
    expect(local.text.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
  });

  it('never stores the ads the filter cuts', () => {
    const film = Array.from({ length: 12 }, (_, i) => [`#EXTINF:4,`, `film${i}.ts`]).flat();
    const ad = [
      '#EXT-X-DISCONTINUITY',
      '#EXTINF:5,',
      'https://ads.example.test/adjump/a1.ts',
      '#EXTINF:5,',
      'https://ads.example.test/adjump/a2.ts',
      '#EXT-X-DISCONTINUITY',
    ];
    const text = media([...film.slice(0, 12), ...ad, ...film.slice(12)]);
    const local = localMediaPlaylist(text, 'https://cdn.example.test/films/abc/hls/index.m3u8', 'v');
    expect(local.items.map((i) => i.src).some((s) => s.includes('ads.example.test'))).toBe(false);
    expect(local.segments).toBe(12);
    expect(local.adsRemoved).toBe(10);
  });

  it('stores each AES-128 key once with its IV, and each init segment once; byte ranges become ranged requests', () => {
    const text = media(
      [
        '#EXT-X-MAP:URI="init.mp4"',
        '#EXT-X-KEY:METHOD=AES-128,URI="k1.key",IV=0x0000000000000000000000000000000A',
        '#EXTINF:4,',
        '#EXT-X-BYTERANGE:1000@0',
        'all.m4s',
        '#EXTINF:4,',
        '#EXT-X-BYTERANGE:1000@1000',
        'all.m4s',
        '#EXT-X-KEY:METHOD=NONE',
        '#EXTINF:4,',
        'clear.m4s',
      ],
      '',
    );
    const local = localMediaPlaylist(text, 'https://cdn.example.test/f/index.m3u8', 'v');
    expect(local.items).toEqual([
      { src: 'https://cdn.example.test/f/k1.key', path: 'v/k0.key' },
      { src: 'https://cdn.example.test/f/init.mp4', path: 'v/m0.mp4', range: undefined },
      { src: 'https://cdn.example.test/f/all.m4s', path: 'v/0.m4s', range: 'bytes=0-999' },
      { src: 'https://cdn.example.test/f/all.m4s', path: 'v/1.m4s', range: 'bytes=1000-1999' },
      { src: 'https://cdn.example.test/f/clear.m4s', path: 'v/2.m4s', range: undefined },
    ]);
    expect(local.text).toContain('#EXT-X-KEY:METHOD=AES-128,URI="k0.key",IV=0x0000000000000000000000000000000a');
    expect(local.text).toContain('#EXT-X-KEY:METHOD=NONE');
    expect(local.text.match(/#EXT-X-MAP/g)).toHaveLength(1);
    expect(local.text).not.toContain('BYTERANGE');
  });

  it('refuses a live playlist, SAMPLE-AES and an empty one, with a message for the viewer', () => {
    const live = () => localMediaPlaylist(media(['#EXTINF:4,', 'a.ts'], '', false), MASTER_URL, 'v');
    expect(live).toThrow(DownloadProblem);
    expect(live).toThrow(MESSAGES.live);
    const drm = media(['#EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://x"', '#EXTINF:4,', 'a.ts']);
    expect(() => localMediaPlaylist(drm, MASTER_URL, 'v')).toThrow(MESSAGES.drm);
    expect(() => localMediaPlaylist(media([]), MASTER_URL, 'v')).toThrow(MESSAGES.empty);
  });
});

describe('the local master playlist', () => {
  it('names the chosen level and its subtitles by local path', () => {
    const master = readMaster(readFileSync(resolve(DEMO, 'clip.m3u8'), 'utf8'), MASTER_URL);
    const level = master.levels[0]!;
    const text = localMaster(level, renditionsFor(level, master.renditions), ['s0']);
    const again = readMaster(text, 'https://app.example.test/offline-media/x/index.m3u8');
    expect(again.levels).toEqual([
      expect.objectContaining({
        height: 180,
        bandwidth: 160000,
        subtitles: 'subs',
        url: 'https://app.example.test/offline-media/x/v/index.m3u8',
      }),
    ]);
    expect(again.renditions).toEqual([
      expect.objectContaining({ language: 'vi', url: 'https://app.example.test/offline-media/x/s0/index.m3u8' }),
    ]);
  });
});
