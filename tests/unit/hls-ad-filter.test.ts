import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type AdFilterResult, describeCut, filterAds } from '../../web/src/lib/hls/ad-filter';
import { seededRandom } from '../../demo/catalogue';

// Real captures live beside the repository, never in it (docs/decisions/0950-hls-ad-filter.md).
const repoRoot = resolve(import.meta.dirname, '../..');
const SAMPLES = resolve(repoRoot, '../shared/stream-samples');
const haveSamples = existsSync(SAMPLES);
const sample = (name: string) => readFileSync(resolve(SAMPLES, name), 'utf8');
const OPHIM_URL = 'https://vip.opstream17.com/20240710/14672_7b24439c/3000k/hls/mixed.m3u8';
const LZ_URL = 'https://vip.lzcdn2.com/20220319/76_0a1a29b1/1200k/hls/mixed.m3u8';
const KK_URL = 'https://stream.example.test/20260527/uKkgEeIW/3500kb/hls/index.m3u8';
const URL_ = 'https://cdn.example.test/20250101/abc123/3000k/hls/index.m3u8';

// ——— playlist helpers ———

interface Seg {
  uri: string;
  duration: number;
  /** lines written before its #EXTINF (KEY, MAP, BYTERANGE…) */
  before?: string[];
}

interface RenderOptions {
  eol?: string;
  endlist?: boolean;
  /** header lines after the standard ones */
  head?: string[];
  /** a discontinuity before the first segment (OPhim does this) */
  leadingDisc?: boolean;
  version?: number;
}

/** A media playlist whose groups are separated by #EXT-X-DISCONTINUITY. */
function render(groups: readonly (readonly Seg[])[], o: RenderOptions = {}): string {
  const eol = o.eol ?? '\n';
  const out = [
    '#EXTM3U',
    `#EXT-X-VERSION:${o.version ?? 3}`,
    '#EXT-X-TARGETDURATION:10',
    '#EXT-X-MEDIA-SEQUENCE:0',
    '#EXT-X-PLAYLIST-TYPE:VOD',
    ...(o.head ?? []),
  ];
  groups.forEach((group, i) => {
    if (i > 0 || o.leadingDisc) out.push('#EXT-X-DISCONTINUITY');
    for (const s of group) out.push(...(s.before ?? []), `#EXTINF:${s.duration.toFixed(6)},`, s.uri);
  });
  if (o.endlist ?? true) out.push('#EXT-X-ENDLIST');
  return out.join(eol) + eol;
}

/** A film of `n` segments named by `name`, cut into groups of `every` (or by explicit group sizes). */
function film(
  n: number,
  name: (i: number) => string,
  every: number | number[] = 10,
  duration: (i: number) => number = (i) => (i % 7 === 3 ? 2.002 : 4.170833),
): Seg[][] {
  const sizes = typeof every === 'number' ? [] : [...every];
  const groups: Seg[][] = [];
  let i = 0;
  while (i < n) {
    const size = (typeof every === 'number' ? every : sizes.shift()) ?? n - i;
    const group: Seg[] = [];
    for (let k = 0; k < size && i < n; k++, i++) group.push({ uri: name(i), duration: duration(i) });
    groups.push(group);
  }
  return groups;
}

/** Inserts ad groups before the given group indexes (groups.length = a post-roll). */
function splice(groups: readonly Seg[][], ads: readonly (readonly [at: number, ad: Seg[]])[]): Seg[][] {
  const out = groups.map((g) => [...g]);
  for (const [at, ad] of [...ads].sort((a, b) => b[0] - a[0])) out.splice(at, 0, ad);
  return out;
}

function ad(
  n: number,
  name: (k: number) => string,
  duration: (k: number) => number = (k) => [3.333333, 2.033333, 2.5, 2.7][k % 4]!,
): Seg[] {
  return Array.from({ length: n }, (_, k) => ({ uri: name(k), duration: duration(k) }));
}

/** The segment URIs a player would request, in order. */
const uris = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
const durations = (text: string) => [...text.matchAll(/^#EXTINF:([\d.]+)/gm)].map((m) => Number(m[1]));
const total = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const count = (text: string, line: string) => text.split(/\r?\n/).filter((l) => l === line).length;

/** What must hold of every answer: ENDLIST, KEY and MAP lines kept; no discontinuity dangling at the start or the end. */
function expectWellFormed(input: string, out: AdFilterResult) {
  const keep = (t: string) => t.split(/\r?\n/).filter((l) => /^#EXT-X-(KEY|MAP|ENDLIST)/.test(l));
  expect(keep(out.text)).toEqual(keep(input));
  if (out.removedSegments === 0) {
    expect(out.text).toBe(input);
    return;
  }
  const lines = out.text.split(/\r?\n/).filter((l) => l.trim() !== '');
  const segLines = lines.map((l, i) => (!l.startsWith('#') ? i : -1)).filter((i) => i >= 0);
  const firstSeg = segLines[0]!;
  const lastSeg = segLines[segLines.length - 1]!;
  const inputLines = input.split(/\r?\n/).filter((l) => l.trim() !== '');
  const inputFirst = inputLines.findIndex((l) => !l.startsWith('#'));
  // a discontinuity before the first segment only if the input had one there and its first segment was kept
  if (lines.slice(0, firstSeg).includes('#EXT-X-DISCONTINUITY')) {
    expect(inputLines.slice(0, inputFirst)).toContain('#EXT-X-DISCONTINUITY');
    expect(uris(out.text)[0]).toBe(uris(input)[0]);
  }
  expect(lines.slice(lastSeg)).not.toContain('#EXT-X-DISCONTINUITY');
  // removed lines only: the answer is a subsequence of the input
  const rest = input.split('\n');
  let j = 0;
  const missing = out.text.split('\n').find((line) => {
    while (j < rest.length && rest[j] !== line) j++;
    return j++ >= rest.length;
  });
  expect(missing).toBeUndefined();
}

// Deterministic random names (KKPhim's 8 alnum, 32-hex), from demo/catalogue's seededRandom.
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomName = (r: () => number, length: number, alphabet = ALNUM) =>
  Array.from({ length }, () => alphabet[Math.floor(r() * alphabet.length)]).join('');

const ophim = (i: number) => `dc5c36a482e${String(i).padStart(6, '0')}.ts`;
const unpadded = (i: number) => `seg${i}.ts`;
const V8 = (k: number) => `/v8/18d007379882ef14b73445b93bf6168d/segment_${String(k + 1).padStart(4, '0')}.ts`;

// ——— the real captures ———

// Without the captures (they are read from shared/, never committed) the block is skipped and its name says why.
describe.skipIf(!haveSamples)(
  `ad filter on the real captures in ../shared/stream-samples${haveSamples ? '' : ` (skipped: ${SAMPLES} is absent)`}`,
  () => {
    it('OPhim: cuts exactly the 8 dc11720964969370–7 segments at 596.68 s, keeps the 2-segment tail and ENDLIST', () => {
      const text = sample('ophim-opstream17-mixed-with-ad.m3u8');
      const out = filterAds(text, OPHIM_URL);
      expect(out.removedSegments).toBe(8);
      expect(out.removedSeconds).toBeCloseTo(23.267, 3);
      expect(out.groups).toHaveLength(1);
      const [group] = out.groups;
      expect(group!.uris).toEqual(Array.from({ length: 8 }, (_, k) => `dc1172096496937${k}.ts`));
      expect(group!.startsAt).toBeCloseTo(596.68, 2);
      expect(group!.firstSegment).toBe(149);
      expect(group!.reason).toBe('naming');
      // Byte for byte the input without the ad's 16 lines and one of its two fences.
      let matched = 0;
      const expected = text.replace(/#EXT-X-DISCONTINUITY\n(?:#EXTINF:[^\n]*\ndc1172096496937\d\.ts\n)+#EXT-X-DISCONTINUITY\n/g, () => {
        matched++;
        return '#EXT-X-DISCONTINUITY\n';
      });
      expect(matched).toBe(1);
      expect(out.text).toBe(expected);
      expect(uris(out.text).slice(-2)).toEqual([
        'https://vip.opstream17.com/20240710/14672_7b24439c/3000k/hls/dc5c36a482e000368.ts',
        'https://vip.opstream17.com/20240710/14672_7b24439c/3000k/hls/dc5c36a482e000369.ts',
      ]);
      expect(out.text.trimEnd().endsWith('#EXT-X-ENDLIST')).toBe(true);
      expect(describeCut(out)).toBe('Đã bỏ 8 đoạn quảng cáo (23,3 giây)');
      expectWellFormed(text, out);
    });

    it('LZ CDN (clean, with 5- and 1-segment film groups): the very same string', () => {
      const text = sample('lzcdn-same-cms-clean-short-groups.m3u8');
      const out = filterAds(text, LZ_URL);
      expect(out.text).toBe(text);
      expect(out).toEqual({ text, removedSegments: 0, removedSeconds: 0, groups: [] });
    });

    it('KKPhim excerpt inside a 45-minute episode: cuts the 6 /v8/ segments (19.88 s), keeps both convertv8 segments', () => {
      const excerpt = sample('kkphim-v8-ad-excerpt.m3u8');
      const lines = excerpt.split('\n');
      const head = lines.slice(0, 5); // #EXTM3U … MEDIA-SEQUENCE
      const body = lines.slice(5, lines.indexOf('#EXT-X-ENDLIST'));
      const r = seededRandom(25);
      const filmSegs = (n: number) =>
        film(
          n,
          () => `${randomName(r, 8)}.ts`,
          [],
          (i) => [4, 4, 4, 3.44, 6.16, 2.2][i % 6]!,
        )[0]!.map((s) => [`#EXTINF:${s.duration.toFixed(2)},`, s.uri]);
      const groupOf = (n: number) => filmSegs(n).flat();
      const overlay = () => ['#EXT-X-DISCONTINUITY', '#EXTINF:3.68,', `convertv8/${randomName(r, 8)}.ts`, '#EXT-X-DISCONTINUITY'];
      // ~14 min of film (groups of 40–60 with two convertv8 overlays), the excerpt, then ~31 min of film.
      const before = [...groupOf(45), ...overlay(), ...groupOf(60), '#EXT-X-DISCONTINUITY', ...groupOf(55), ...overlay(), ...groupOf(41)];
      const after = [
        ...groupOf(50),
        ...overlay(),
        ...groupOf(60),
        '#EXT-X-DISCONTINUITY',
        ...groupOf(60),
        '#EXT-X-DISCONTINUITY',
        ...groupOf(60),
      ];
      const rest = [...after, '#EXT-X-DISCONTINUITY', ...groupOf(60), ...overlay(), ...groupOf(60), '#EXT-X-DISCONTINUITY', ...groupOf(53)];
      const text = [...head, ...before, '#EXT-X-DISCONTINUITY', ...body, '#EXT-X-DISCONTINUITY', ...rest, '#EXT-X-ENDLIST', ''].join('\n');
      const seconds = total(durations(text));
      expect(seconds).toBeGreaterThan(40 * 60);
      expect(seconds).toBeLessThan(50 * 60);

      const out = filterAds(text, KK_URL);
      expect(out.removedSegments).toBe(6);
      expect(out.removedSeconds).toBeCloseTo(19.88, 6);
      expect(out.groups.map((g) => g.reason)).toEqual(['marker']);
      expect(out.groups[0]!.uris).toEqual(Array.from({ length: 6 }, (_, k) => V8(k)));
      expect(out.groups[0]!.startsAt).toBeGreaterThan(13 * 60);
      expect(out.groups[0]!.startsAt).toBeLessThan(15 * 60);
      expect(uris(out.text)).toEqual(uris(text).filter((u) => !u.startsWith('/v8/')));
      expect(uris(out.text)).toContain('convertv8/EKArvCFM.ts');
      expect(uris(out.text)).toContain('convertv8/gYVhANwY.ts');
      expect(uris(out.text).filter((u) => u.startsWith('convertv8/'))).toHaveLength(2 + 4);
      const adBlock = body.slice(body.indexOf('#EXTINF:3.60,') - 1, body.indexOf('#EXTINF:6.16,')).join('\n');
      expect(out.text).toBe(text.replace(`${adBlock}\n`, '#EXT-X-DISCONTINUITY\n'));
      expectWellFormed(text, out);
    });

    it('KKPhim excerpt on its own (the ad is 43% of it): the marker group alone is still cut', () => {
      const text = sample('kkphim-v8-ad-excerpt.m3u8');
      const out = filterAds(text, KK_URL);
      expect(out.groups.map((g) => [g.reason, g.segments])).toEqual([['marker', 6]]);
      expect(uris(out.text)).toEqual([
        'W1GTKmjW.ts',
        'convertv8/EKArvCFM.ts',
        'convertv8/gYVhANwY.ts',
        'ZWTAIiua.ts',
        'llWpVERr.ts',
        'Uhv6Dk26.ts',
      ]);
      expectWellFormed(text, out);
    });
  },
);

// ——— generated playlists ———

describe('ad filter on generated playlists', () => {
  it('several mid-roll ads (hash-named, another host, under /ads/): each cut, the film untouched', () => {
    const base = film(600, unpadded, 10);
    const hashAd = ad(8, (k) => `7f3a91c0e2b4d6a8${k}.ts`);
    const hostAd = ad(6, (k) => `https://ads.example.net/creative/seg${k + 1}.ts`);
    const pathAd = ad(5, (k) => `/ads/2025/spot_${k}.ts`);
    const text = render(
      splice(base, [
        [12, hashAd],
        [30, hostAd],
        [45, pathAd],
      ]),
    );
    const out = filterAds(text, URL_);
    expect(out.groups.map((g) => g.reason)).toEqual(['naming', 'host', 'path']);
    expect(out.groups.map((g) => g.uris)).toEqual([hashAd, hostAd, pathAd].map((a) => a.map((s) => s.uri)));
    expect(out.groups.map((g) => g.firstSegment)).toEqual([120, 308, 464]);
    expect(out.removedSegments).toBe(19);
    expect(out.removedSeconds).toBeCloseTo(total([...hashAd, ...hostAd, ...pathAd].map((s) => s.duration)), 6);
    // startsAt is on the original timeline
    expect(out.groups[1]!.startsAt).toBeCloseTo(total(durations(render(base.slice(0, 30)))) + total(hashAd.map((s) => s.duration)), 6);
    expect(out.text).toBe(render(base));
    expectWellFormed(text, out);
  });

  it('a pre-roll is cut and leaves no discontinuity at the start (with or without a leading one)', () => {
    const base = film(300, ophim, 10);
    const pre = ad(7, (k) => `https://ads.example.net/pre/${k}.ts`);
    const text = render(splice(base, [[0, pre]]));
    const out = filterAds(text, URL_);
    expect(out.groups).toMatchObject([{ firstSegment: 0, segments: 7, startsAt: 0, reason: 'host' }]);
    expect(out.text).toBe(render(base));
    expectWellFormed(text, out);

    const led = render(splice(base, [[0, pre]]), { leadingDisc: true });
    const ledOut = filterAds(led, URL_);
    expect(ledOut.removedSegments).toBe(7);
    expect(ledOut.text).toBe(render(base));
    expectWellFormed(led, ledOut);
  });

  it('a post-roll is cut, ENDLIST kept and no discontinuity left dangling before it', () => {
    const base = film(300, ophim, 10);
    const post = ad(
      5,
      (k) => `1b6bebe674221ac9207b7cabe41641692668${k}.ts`,
      () => 3.9932,
    );
    const text = render(splice(base, [[base.length, post]]));
    const out = filterAds(text, URL_);
    expect(out.groups).toMatchObject([{ firstSegment: 300, segments: 5, reason: 'naming' }]);
    expect(out.text).toBe(render(base));
    expect(out.text.endsWith('dc5c36a482e000299.ts\n#EXT-X-ENDLIST\n')).toBe(true);
    expectWellFormed(text, out);
  });

  it('pre-roll, two mid-rolls and a post-roll together, 32-hex film names', () => {
    const r = seededRandom(7);
    const base = film(700, () => `${randomName(r, 32, '0123456789abcdef')}.ts`, 10);
    const mk = (tag: string) =>
      ad(
        5,
        (k) => `1b6bebe674221ac9207b7cabe416${tag}${k}.ts`,
        () => 3.9932,
      );
    const text = render(
      splice(base, [
        [0, mk('10')],
        [20, mk('20')],
        [50, mk('30')],
        [base.length, mk('40')],
      ]),
    );
    const out = filterAds(text, URL_);
    expect(out.groups.map((g) => [g.firstSegment, g.segments, g.reason])).toEqual([
      [0, 5, 'naming'],
      [205, 5, 'naming'],
      [510, 5, 'naming'],
      [715, 5, 'naming'],
    ]);
    expect(out.text).toBe(render(base));
    expect(describeCut(out)).toBe('Đã bỏ 20 đoạn quảng cáo (79,9 giây)');
  });

  it('/adjump/ groups (the Chinese CDN software) are cut by their marker', () => {
    const base = film(900, (i) => `83c8ab1005c${String(i).padStart(6, '0')}.ts`, 10);
    const jump = ad(
      9,
      (k) => `/video/adjump/time/1711${String(k).padStart(16, '0')}.ts`,
      () => 2.9,
    );
    const text = render(
      splice(base, [
        [8, jump],
        [60, jump],
      ]),
    );
    const out = filterAds(text, LZ_URL);
    expect(out.groups.map((g) => g.reason)).toEqual(['marker', 'marker']);
    expect(out.text).toBe(render(base));
  });

  it('a keyed stream: every #EXT-X-KEY kept, the one inside the ad group too', () => {
    const key = '#EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.test/k/1",IV=0x00000000000000000000000000000001';
    const base = film(400, unpadded, 10);
    const adGroup = ad(6, V8);
    adGroup[0]!.before = ['#EXT-X-KEY:METHOD=NONE'];
    const groups = splice(base, [[15, adGroup]]);
    groups[16]![0]!.before = [key]; // the film's key again after the ad
    const text = render(groups, { head: [key] });
    const out = filterAds(text, URL_);
    expect(out.groups).toMatchObject([{ reason: 'marker', segments: 6, firstSegment: 150 }]);
    expect(count(out.text, key)).toBe(2);
    expect(count(out.text, '#EXT-X-KEY:METHOD=NONE')).toBe(1);
    // the KEY from the ad group now sits between the one kept fence and the next film segment
    expect(out.text).toContain(`seg149.ts\n#EXT-X-DISCONTINUITY\n#EXT-X-KEY:METHOD=NONE\n${key}\n#EXTINF:2.002000,\nseg150.ts\n`);
    expect(uris(out.text)).toEqual(uris(render(base)));
    expectWellFormed(text, out);
  });

  it('an fMP4 stream: every #EXT-X-MAP kept, the ad cut', () => {
    const map = '#EXT-X-MAP:URI="init.mp4"';
    const adMap = '#EXT-X-MAP:URI="https://ads.example.net/f/init.mp4"';
    const base = film(300, (i) => `seg-${i}.m4s`, 10);
    const adGroup = ad(6, (k) => `https://ads.example.net/f/chunk-${k}.m4s`);
    adGroup[0]!.before = [adMap];
    const groups = splice(base, [[9, adGroup]]);
    groups[10]![0]!.before = [map];
    const text = render(groups, { head: [map], version: 7 });
    const out = filterAds(text, URL_);
    expect(out.groups).toMatchObject([{ reason: 'host', segments: 6 }]);
    expect(count(out.text, map)).toBe(2);
    expect(count(out.text, adMap)).toBe(1);
    expect(uris(out.text)).toEqual(uris(render(base)));
    expectWellFormed(text, out);
  });

  it('unpadded numbering crossing 99 → 100 at a short film group: nothing cut', () => {
    // groups …[90–97] [98, 99] [100–104] [105–114]…: lengths of names change at the short groups
    const sizes = [...Array(9).fill(10), 8, 2, 5, ...Array(30).fill(10)];
    for (const name of [unpadded, (i: number) => `${i}.ts`, (i: number) => `Tap01_${i}.ts`]) {
      const text = render(film(400, name, sizes));
      const out = filterAds(text, URL_);
      expect(out.text).toBe(text);
      expect(out.removedSegments).toBe(0);
    }
  });

  it('unpadded numbering 99 → 100 with an ad elsewhere: only the ad is cut', () => {
    const sizes = [...Array(9).fill(10), 8, 2, 5, ...Array(30).fill(10)];
    const base = film(400, unpadded, sizes);
    const hashAd = ad(8, (k) => `dc1172096496937${k}.ts`);
    const text = render(splice(base, [[20, hashAd]]));
    const out = filterAds(text, URL_);
    expect(out.groups.map((g) => g.uris)).toEqual([hashAd.map((s) => s.uri)]);
    expect(out.text).toBe(render(base));
  });

  it('a film group that carries the numbering on from another host or path is kept (99 → 100 across it)', () => {
    const base = film(400, unpadded, [...Array(10).fill(10), 5, ...Array(30).fill(10)]);
    base[10] = base[10]!.map((s) => ({ ...s, uri: `https://mirror.example.test/hls/${s.uri}` })); // seg100–seg104
    const text = render(base);
    expect(filterAds(text, URL_).text).toBe(text);
    // the same group one number off at both ends is not the film's: it goes
    const shifted = base.map((g) => [...g]);
    shifted[10] = shifted[10]!.map((s, k) => ({ ...s, uri: `https://mirror.example.test/hls/seg${300 + k}.ts` }));
    expect(filterAds(render(shifted), URL_).groups).toMatchObject([{ reason: 'host', segments: 5 }]);
  });

  it('short film groups of 1 and 5 segments (the false-positive trap): nothing cut', () => {
    const sizes = [9, 10, 10, 5, 10, 10, 1, 10, 10, 10, 2];
    const r = seededRandom(3);
    for (const name of [ophim, unpadded, () => `${randomName(r, 8)}.ts`, () => `${randomName(r, 32, '0123456789abcdef')}.ts`]) {
      const groups = film(
        sizes.reduce((a, b) => a + b),
        name,
        sizes,
      );
      for (const text of [render(groups), render(groups, { leadingDisc: true })]) {
        expect(filterAds(text, URL_).text).toBe(text);
      }
    }
  });

  it('KKPhim random 8-character names that happen to be all hex or all digits are still film', () => {
    const r = seededRandom(11);
    const base = film(
      300,
      (i) => (i % 50 === 7 ? `${randomName(r, 8, '0123456789abcdef')}.ts` : i % 50 === 9 ? '12345678.ts' : `${randomName(r, 8)}.ts`),
      [7, 1, 1, 1, ...Array(29).fill(10)],
    );
    const text = render(base);
    expect(filterAds(text, KK_URL).text).toBe(text);
  });

  it('convertv8/ groups are never cut, even when named unlike the film, and their URIs are not rewritten', () => {
    const r = seededRandom(5);
    const groups = film(300, () => `${randomName(r, 8)}.ts`, 20);
    const odd = [{ uri: 'convertv8/overlay_0001.ts', duration: 3.68 }];
    const text = render(
      splice(groups, [
        [3, odd],
        [9, ad(6, V8)],
      ]),
    );
    const out = filterAds(text, KK_URL);
    expect(out.groups).toMatchObject([{ reason: 'marker', segments: 6 }]);
    expect(uris(out.text)).toContain('convertv8/overlay_0001.ts');
  });

  it('a group in a subdirectory of the film’s directory is film (only outside it is a path foreign)', () => {
    const r = seededRandom(9);
    const groups = film(300, () => `${randomName(r, 8)}.ts`, 20);
    const sub = (n: number) => [{ uri: `hd/${randomName(r, 8)}.ts`, duration: 4 }].slice(0, n);
    const text = render(
      splice(groups, [
        [2, sub(1)],
        [6, sub(1)],
        [11, sub(1)],
      ]),
    );
    expect(filterAds(text, KK_URL).text).toBe(text);
    const outside = render(splice(groups, [[2, [{ uri: `../other/${randomName(r, 8)}.ts`, duration: 4 }]]]));
    expect(filterAds(outside, KK_URL).groups).toMatchObject([{ reason: 'path', segments: 1 }]);
  });

  it('a foreign group longer than about a minute (or of more than 30 segments) is kept', () => {
    const base = film(900, ophim, 10);
    const long = ad(
      17,
      (k) => `https://ads.example.net/x/${k}.ts`,
      () => 4,
    ); // 68 s
    const many = ad(
      31,
      (k) => `https://ads.example.net/y/${k}.ts`,
      () => 1,
    ); // 31 s, 31 segments
    const fine = ad(
      16,
      (k) => `https://ads.example.net/z/${k}.ts`,
      () => 4,
    ); // 64 s
    const out = filterAds(
      render(
        splice(base, [
          [10, long],
          [30, many],
          [60, fine],
        ]),
      ),
      URL_,
    );
    expect(out.groups.map((g) => g.uris[0])).toEqual(['https://ads.example.net/z/0.ts']);
  });

  it('too many foreign groups (over 15% of the playlist, or over 300 s): none of them cut; marker groups still are', () => {
    // 100 × 4 s = 400 s of film; 15% of the whole is ~70 s, three 25 s ads make 75 s
    const base = film(100, ophim, 10, () => 4);
    const three = [2, 5, 8].map(
      (at) =>
        [
          at,
          ad(
            5,
            (k) => `https://ads.example.net/${at}/${k}.ts`,
            () => 5,
          ),
        ] as const,
    );
    const text = render(splice(base, three));
    expect(filterAds(text, URL_).text).toBe(text);
    // two of them fit (50 s ≤ 15% of 450 s)
    expect(filterAds(render(splice(base, three.slice(0, 2))), URL_).removedSegments).toBe(10);
    // a long film with 11 × 30 s = 330 s of foreign groups: over 300 s, none cut
    const long = film(1500, ophim, 10, () => 4);
    const eleven = Array.from(
      { length: 11 },
      (_, n) =>
        [
          5 + n * 12,
          ad(
            6,
            (k) => `https://ads.example.net/${n}/${k}.ts`,
            () => 5,
          ),
        ] as const,
    );
    const longText = render(splice(long, eleven));
    expect(filterAds(longText, URL_).text).toBe(longText);
    // …but a marker group among them is still cut
    const withMarker = render(splice(long, [...eleven, [100, ad(6, V8)]]));
    const out = filterAds(withMarker, URL_);
    expect(out.groups.map((g) => g.reason)).toEqual(['marker']);
  });

  it('never cuts half of the playlist or more, markers included', () => {
    const base = film(6, ophim, 3, () => 4); // 24 s of film
    const text = render(splice(base, [[1, ad(6, V8, () => 5)]])); // 30 s of marked ad
    expect(filterAds(text, URL_).text).toBe(text);
  });

  it('a master playlist comes back as the very same string', () => {
    const master = [
      '#EXTM3U',
      '#EXT-X-STREAM-INF:BANDWIDTH=3000000,RESOLUTION=1920x1080',
      '3000k/hls/mixed.m3u8',
      '#EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360',
      'https://ads.example.net/v8/0123456789abcdef0123/segment_0001.ts',
      '',
    ].join('\n');
    const out = filterAds(master, URL_);
    expect(out.text).toBe(master);
    expect(out.removedSegments).toBe(0);
    expect(out.groups).toEqual([]);
  });

  it('a non-playlist (an error page, empty text) comes back unchanged', () => {
    for (const text of ['', '<!doctype html><h1>403</h1>', 'seg1.ts\n/v8/18d007379882ef14b73445b93bf6168d/segment_0001.ts\n']) {
      expect(filterAds(text, URL_)).toEqual({ text, removedSegments: 0, removedSeconds: 0, groups: [] });
    }
  });

  it('CRLF input: the ad cut, every kept line still ends in CRLF', () => {
    const base = film(300, ophim, 10);
    const text = render(splice(base, [[4, ad(8, (k) => `dc1172096496937${k}.ts`)]]), { eol: '\r\n' });
    const out = filterAds(text, URL_);
    expect(out.removedSegments).toBe(8);
    expect(out.text).toBe(render(base, { eol: '\r\n' }));
    expect(
      out.text
        .split('\n')
        .slice(0, -1)
        .every((l) => l.endsWith('\r')),
    ).toBe(true);
  });

  it('nothing to cut: the very same string, no groups', () => {
    const text = render(film(500, ophim, 10));
    const out = filterAds(text, URL_);
    expect(out.text).toBe(text);
    expect(out).toEqual({ text, removedSegments: 0, removedSeconds: 0, groups: [] });
    expect(describeCut(out)).toBe('Không có đoạn quảng cáo nào bị bỏ');
  });

  it('per-segment tags go with the segment; comments, unknown tags and blank lines elsewhere stay', () => {
    const base = film(200, ophim, 10);
    const adGroup = ad(4, (k) => `https://ads.example.net/b/${k}.ts`);
    adGroup[0]!.before = ['#EXT-X-PROGRAM-DATE-TIME:2025-01-01T00:00:00.000Z', '#EXT-X-BITRATE:900', '# a comment', '#EXT-X-CUE-OUT:15'];
    adGroup[1]!.before = ['#EXT-X-BYTERANGE:1000@0', ''];
    adGroup[2]!.before = ['#EXT-X-GAP'];
    const text = render(splice(base, [[6, adGroup]]));
    const out = filterAds(text, URL_);
    expect(out.removedSegments).toBe(4);
    for (const gone of [
      '#EXT-X-PROGRAM-DATE-TIME:2025-01-01T00:00:00.000Z',
      '#EXT-X-BITRATE:900',
      '#EXT-X-BYTERANGE:1000@0',
      '#EXT-X-GAP',
    ]) {
      expect(out.text).not.toContain(gone);
    }
    expect(out.text).toContain('# a comment\n#EXT-X-CUE-OUT:15\n');
    expectWellFormed(text, out);
  });

  it('OPhim-style blank lines before each URI: the blank line of a removed segment goes with it', () => {
    const abs = (i: number) => `\nhttps://cdn.example.test/20250101/abc123/3000k/hls/${ophim(i)}`;
    const base = film(300, abs, 10);
    const text = render(splice(base, [[15, ad(8, (k) => `\ndc1172096496937${k}.ts`)]]), { leadingDisc: true });
    const out = filterAds(text, URL_);
    expect(out.removedSegments).toBe(8);
    expect(out.text).toBe(render(base, { leadingDisc: true }));
  });

  it('describeCut speaks Vietnamese with a decimal comma', () => {
    const result = (removedSegments: number, removedSeconds: number): AdFilterResult => ({
      text: '',
      removedSegments,
      removedSeconds,
      groups: [],
    });
    expect(describeCut(result(8, 23.266665))).toBe('Đã bỏ 8 đoạn quảng cáo (23,3 giây)');
    expect(describeCut(result(6, 19.88))).toBe('Đã bỏ 6 đoạn quảng cáo (19,9 giây)');
    expect(describeCut(result(40, 1234.56))).toBe('Đã bỏ 40 đoạn quảng cáo (1.234,6 giây)');
  });
});

// ——— properties ———

type Naming = 'ophim' | 'unpadded' | 'padded' | 'digits' | 'alnum8' | 'hex32' | 'uuid';
const NAMINGS: Naming[] = ['ophim', 'unpadded', 'padded', 'digits', 'alnum8', 'hex32', 'uuid'];

function namer(kind: Naming, seed: number, absolute: boolean): (i: number) => string {
  const r = seededRandom(seed);
  const prefix = absolute ? 'https://cdn.example.test/20250101/abc123/3000k/hls/' : '';
  const name = {
    ophim: (i: number) => ophim(i),
    unpadded: (i: number) => `seg${i}.ts`,
    padded: (i: number) => `index${String(i).padStart(5, '0')}.ts?t=1`,
    digits: (i: number) => `${i}.ts`,
    alnum8: () => `${randomName(r, 8)}.ts`,
    hex32: () => `${randomName(r, 32, '0123456789abcdef')}.ts`,
    uuid: () => `${randomName(r, 8, '0123456789abcdef')}-${randomName(r, 4, '0123456789abcdef')}.ts`,
  }[kind];
  return (i) => prefix + name(i);
}

/** Ads as hosts splice them, each foreign to any of the film namings above (numbered far from the film's, so
 * that no ad happens to carry on the film's numbering, which would keep it). */
const AD_KINDS = [
  (k: number) => `/v8/18d007379882ef14b73445b93bf6168d/segment_${String(k + 1).padStart(4, '0')}.ts`,
  (k: number) => `/video/adjump/time/171100000000000000${k}.ts`,
  (k: number) => `https://ads.example.net/spot/${k + 90000}.ts`,
  (k: number) => `/ads/spot/${k + 90000}.ts`,
  (k: number) => `1b6bebe674221ac9207b7cabe4164169266${k}.ts`,
];

const filmArb = fc.record({
  naming: fc.constantFrom(...NAMINGS),
  seed: fc.integer(),
  absolute: fc.boolean(),
  // group sizes: mostly 10, with short groups (1–5) here and there
  sizes: fc.array(fc.oneof(fc.constant(10), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 6, max: 40 })), {
    minLength: 30,
    maxLength: 60,
  }),
  durations: fc.array(fc.double({ min: 2, max: 8, noNaN: true }), { minLength: 1, maxLength: 12 }),
  leadingDisc: fc.boolean(),
  crlf: fc.boolean(),
});

type FilmSpec = typeof filmArb extends fc.Arbitrary<infer T> ? T : never;

function filmOf(f: FilmSpec): Seg[][] {
  const n = f.sizes.reduce((a, b) => a + b, 0);
  const d = f.durations.map((x) => Math.round(x * 1e6) / 1e6);
  return film(n, namer(f.naming, f.seed, f.absolute), f.sizes, (i) => d[i % d.length]!);
}

describe('ad filter properties', () => {
  it('a film with no ads comes back as the very same string', () => {
    fc.assert(
      fc.property(filmArb, (f) => {
        const text = render(filmOf(f), { leadingDisc: f.leadingDisc, eol: f.crlf ? '\r\n' : '\n' });
        expect(filterAds(text, URL_).text).toBe(text);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('ads spliced in at group edges: exactly their URIs removed, the film’s durations kept, the film’s text back', () => {
    const adsArb = fc.array(
      fc.record({
        at: fc.double({ min: 0, max: 1, noNaN: true }),
        kind: fc.integer({ min: 0, max: AD_KINDS.length - 1 }),
        length: fc.integer({ min: 1, max: 8 }),
        seconds: fc.double({ min: 0.2, max: 4.5, noNaN: true }),
      }),
      { minLength: 1, maxLength: 3 },
    );
    fc.assert(
      fc.property(filmArb, adsArb, (f, ads) => {
        const groups = filmOf(f);
        const filmSeconds = total(groups.flat().map((s) => s.duration));
        fc.pre(filmSeconds >= 1000); // three ads of ≤ 36 s stay within 15% of the whole
        const spliced = ads.map((a, n) => {
          const name = AD_KINDS[a.kind]!;
          const seg = ad(
            a.length,
            (k) => name(k + n * 100).replace('/spot/', `/spot${n}/`),
            () => Math.round(a.seconds * 1e3) / 1e3,
          );
          return [Math.round(a.at * groups.length), seg] as const;
        });
        const eol = f.crlf ? '\r\n' : '\n';
        const text = render(splice(groups, spliced), { eol });
        const out = filterAds(text, URL_);
        const adUris = spliced.flatMap(([, seg]) => seg.map((s) => s.uri));
        expect(out.groups.flatMap((g) => g.uris).sort()).toEqual([...adUris].sort());
        expect(uris(out.text)).toEqual(groups.flat().map((s) => s.uri));
        expect(total(durations(out.text))).toBeCloseTo(filmSeconds, 5);
        expect(out.removedSegments).toBe(adUris.length);
        // spliced at existing edges (no leading discontinuity): the film's own text, byte for byte
        expect(out.text).toBe(render(groups, { eol }));
        expectWellFormed(text, out);
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('ads spliced into the middle of a film group: cut, with one discontinuity left where they were', () => {
    fc.assert(
      fc.property(
        filmArb,
        fc.integer({ min: 0, max: AD_KINDS.length - 1 }),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        (f, kind, at) => {
          const groups = filmOf(f);
          const flat = groups.flat();
          fc.pre(total(flat.map((s) => s.duration)) >= 600);
          const cutAt = Math.max(1, Math.floor(at * flat.length));
          // one group split in two around the ad (the film's own numbering does not continue across an ad)
          const adSegs = ad(6, AD_KINDS[kind]!);
          const text = render([flat.slice(0, cutAt), adSegs, flat.slice(cutAt)], { leadingDisc: f.leadingDisc });
          const out = filterAds(text, URL_);
          expect(out.groups.flatMap((g) => g.uris)).toEqual(adSegs.map((s) => s.uri));
          expect(out.text).toBe(render([flat.slice(0, cutAt), flat.slice(cutAt)], { leadingDisc: f.leadingDisc }));
        },
      ),
      { numRuns: 150 },
    );
  }, 60_000);
});
