// The stream controller's smaller parts (decision 0952): the playlists read before hydration, the level to start
// with, the first bytes fetched ahead and handed to hls.js, and where a dead stream goes next.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { nextSource } from '../../web/src/features/player/stream/failover';
import { chooseStartVariant, parseVariants, segmentAt } from '../../web/src/features/player/stream/playlist';
import { prepareStream, takePrefetched } from '../../web/src/features/player/stream/prefetch';

const MASTER = `#EXTM3U
#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="Tiếng Việt",LANGUAGE="vi",URI="subs/vi.m3u8"
#EXT-X-STREAM-INF:BANDWIDTH=160000,RESOLUTION=320x180,CODECS="avc1.42c00c,mp4a.40.2",SUBTITLES="subs"
180p/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=420000,RESOLUTION=960x540,CODECS="avc1.42c01f,mp4a.40.2",SUBTITLES="subs"
https://cdn.example/540p/index.m3u8
#EXT-X-STREAM-INF:BANDWIDTH=270000,RESOLUTION=640x360
360p/index.m3u8
`;

function media(segments: number, ad = false): string {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:4', '#EXT-X-PLAYLIST-TYPE:VOD'];
  for (let n = 0; n < segments; n++) {
    if (ad && n === 2) lines.push('#EXT-X-DISCONTINUITY', '#EXTINF:3.0,', '/adjump/quangcao1.ts', '#EXT-X-DISCONTINUITY');
    lines.push('#EXTINF:4.000,', `seg${n}.ts`);
  }
  lines.push('#EXT-X-ENDLIST', '');
  return lines.join('\n');
}

describe('playlists before the player runs', () => {
  it('reads a master playlist’s levels in its own order, resolved against its URL', () => {
    expect(parseVariants(MASTER, 'https://video.example/phim/master.m3u8')).toEqual([
      { url: 'https://video.example/phim/180p/index.m3u8', bandwidth: 160_000, height: 180 },
      { url: 'https://cdn.example/540p/index.m3u8', bandwidth: 420_000, height: 540 },
      { url: 'https://video.example/phim/360p/index.m3u8', bandwidth: 270_000, height: 360 },
    ]);
  });

  it('starts at the highest level within an eighth of the bandwidth, the lowest when none is, the chosen quality first', () => {
    const variants = parseVariants(MASTER, 'https://video.example/phim/master.m3u8');
    expect(chooseStartVariant(variants, 1_600_000)?.height).toBe(180);
    expect(chooseStartVariant(variants, 2_400_000)?.height).toBe(360);
    expect(chooseStartVariant(variants, 10_000_000)?.height).toBe(540);
    expect(chooseStartVariant(variants, 100_000)?.height).toBe(180);
    expect(chooseStartVariant(variants, 100_000, 540)?.height).toBe(540);
    expect(chooseStartVariant(variants, 10_000_000, 720)?.height).toBe(540);
  });

  it('finds the segment that holds a position; none when it needs a key, a map or a byte range', () => {
    const url = 'https://video.example/phim/180p/index.m3u8';
    expect(segmentAt(media(675), url, 0)).toEqual({ url: 'https://video.example/phim/180p/seg0.ts', start: 0, duration: 4 });
    expect(segmentAt(media(675), url, 1800)).toEqual({ url: 'https://video.example/phim/180p/seg450.ts', start: 1800, duration: 4 });
    expect(segmentAt(media(675), url, 1803.9)?.url).toBe('https://video.example/phim/180p/seg450.ts');
    expect(segmentAt(media(3), url, 60)).toBeUndefined();
    expect(
      segmentAt(media(3).replace('#EXT-X-VERSION:3', '#EXT-X-VERSION:3\n#EXT-X-KEY:METHOD=AES-128,URI="k.key"'), url, 0),
    ).toBeUndefined();
    expect(segmentAt(media(3).replace('#EXT-X-VERSION:3', '#EXT-X-VERSION:3\n#EXT-X-KEY:METHOD=NONE'), url, 0)?.url).toContain('seg0.ts');
    expect(segmentAt(media(3).replace('#EXT-X-VERSION:3', '#EXT-X-VERSION:3\n#EXT-X-MAP:URI="init.mp4"'), url, 0)).toBeUndefined();
  });
});

describe('the first bytes, fetched ahead and handed over', () => {
  afterEach(() => vi.unstubAllGlobals());

  function fakeNetwork(files: Record<string, string | Uint8Array | number>) {
    const asked: string[] = [];
    vi.stubGlobal('fetch', async (url: string) => {
      asked.push(url);
      const file = files[url];
      if (file === undefined || typeof file === 'number') return new Response('no', { status: typeof file === 'number' ? file : 404 });
      return new Response(file as BodyInit, { status: 200 });
    });
    return asked;
  }

  it('fetches the master, the level for the bandwidth and the first frame’s segment (on the film’s timeline, ads cut); each is handed over once', async () => {
    const base = 'https://video.example/phim';
    const asked = fakeNetwork({
      [`${base}/master.m3u8`]: MASTER,
      [`${base}/180p/index.m3u8`]: media(10, true),
      [`${base}/180p/seg2.ts`]: new Uint8Array(75_000),
    });
    const prepared = await prepareStream(`${base}/master.m3u8`, { position: 9, bandwidthBps: 1_600_000 });
    // 9 s on the film's timeline: the ad between seg1 and seg2 is not on it, so seg2 (8–12 s).
    expect(prepared).toEqual({ levelUrl: `${base}/180p/index.m3u8`, segmentUrl: `${base}/180p/seg2.ts` });
    expect(asked).toEqual([`${base}/master.m3u8`, `${base}/180p/index.m3u8`, `${base}/180p/seg2.ts`]);
    const segment = await takePrefetched(`${base}/180p/seg2.ts`)!;
    expect((segment.data as ArrayBuffer).byteLength).toBe(75_000);
    expect(segment.bytes).toBe(75_000);
    expect(segment.end).toBeGreaterThanOrEqual(segment.start);
    // The playlist is handed over as the host sent it (hls.js's loader filters it, as for any playlist).
    expect(((await takePrefetched(`${base}/180p/index.m3u8`)!).data as string).includes('/adjump/')).toBe(true);
    expect(takePrefetched(`${base}/180p/seg2.ts`)).toBeUndefined();
    expect(takePrefetched(`${base}/master.m3u8`)).toBeDefined();
  });

  it('a host that refuses: the prefetch fails and is forgotten, so hls.js asks itself and meets the error itself', async () => {
    const base = 'https://dead.example/phim';
    fakeNetwork({ [`${base}/master.m3u8`]: 404 });
    await expect(prepareStream(`${base}/master.m3u8`, { position: 0, bandwidthBps: 1_000_000 })).rejects.toThrow('HTTP 404');
    expect(takePrefetched(`${base}/master.m3u8`)).toBeUndefined();
  });

  it('the playlists alone when asked (a film page at idle): the segment waits for the viewer’s intent', async () => {
    const base = 'https://video.example/idle';
    const asked = fakeNetwork({ [`${base}/master.m3u8`]: MASTER, [`${base}/180p/index.m3u8`]: media(10) });
    await prepareStream(`${base}/master.m3u8`, { position: 0, bandwidthBps: 1_600_000, segment: false });
    expect(asked).toEqual([`${base}/master.m3u8`, `${base}/180p/index.m3u8`]);
  });
});

describe('where a dead stream goes next', () => {
  const servers = [
    { server_name: 'Vietsub #1 · KKPhim', linkfilms: [{ episode: 1 }, { episode: 2 }] },
    { server_name: 'Vietsub #2 · OPhim', linkfilms: [{ episode: 2 }] },
    { server_name: 'Thuyết minh', linkfilms: [{ episode: 1 }, { episode: 2 }] },
  ];
  const embeds: Record<string, string> = { 'Thuyết minh': 'https://player.example/embed/3' };

  it('the servers in the order the API gives, skipping those that failed and those without the episode; then the embed; then nothing', () => {
    const embedOf = (name: string) => embeds[name];
    expect(nextSource(servers, ['Vietsub #1 · KKPhim'], 1, embedOf)).toEqual({ kind: 'stream', server: 'Thuyết minh' });
    expect(nextSource(servers, ['Vietsub #1 · KKPhim'], 2, embedOf)).toEqual({ kind: 'stream', server: 'Vietsub #2 · OPhim' });
    // Starting from the last server, the walk still goes in the API's order.
    expect(nextSource(servers, ['Thuyết minh'], 2, embedOf)).toEqual({ kind: 'stream', server: 'Vietsub #1 · KKPhim' });
    expect(nextSource(servers, ['Vietsub #1 · KKPhim', 'Thuyết minh'], 1, embedOf)).toEqual({
      kind: 'embed',
      embed: 'https://player.example/embed/3',
    });
    expect(nextSource(servers, ['Vietsub #1 · KKPhim', 'Thuyết minh'], 1, () => undefined)).toEqual({ kind: 'dead' });
  });
});
