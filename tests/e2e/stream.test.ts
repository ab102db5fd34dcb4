// Issue 25: the stream itself, as a phone viewer meets it. Streams come from a second origin over HTTPS
// (helpers/hls-host.ts), as real video hosts serve them, and the tests look at what the player requested.
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, test } from 'vitest';
import { freeFilms } from './helpers/accounts';
import { holdPlayerScript, productDatabase, screenshot, setupBrowser } from './helpers/browser';
import { demoFile, type HlsHost, type HostAnswer, type HostRoutes, setEpisodeLinks, startHlsHost } from './helpers/hls-host';
import { longEpisodeRoutes } from './helpers/long-episode';
import { PHONE, tap } from './helpers/phone';

const b = setupBrowser();
const hosts: HlsHost[] = [];
const restores: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const restore of restores) await restore();
  for (const host of hosts) await host.close();
});

const SEGMENT_SECONDS = 4;
const CLIP_SEGMENTS = 5;

/**
 * A media playlist of `cycles` × the demo clip's 5 real 540p segments (a discontinuity between cycles, as
 * OPhim's hosts put one every ~10 segments), film segments named `film/f{n}.ts` (unpadded: f9 → f10), and
 * ad groups spliced in after the given cycles, named like nothing in the film (`/quangcao/…`).
 */
function adCarryingPlaylist(cycles: number, adsAfterCycle: number[]): { text: string; filmSeconds: number; adSegments: number } {
  const lines = ['#EXTM3U', '#EXT-X-VERSION:3', '#EXT-X-TARGETDURATION:4', '#EXT-X-MEDIA-SEQUENCE:0', '#EXT-X-PLAYLIST-TYPE:VOD'];
  let n = 0;
  let adSegments = 0;
  for (let c = 0; c < cycles; c++) {
    if (c > 0) lines.push('#EXT-X-DISCONTINUITY');
    for (let i = 0; i < CLIP_SEGMENTS; i++) lines.push(`#EXTINF:${SEGMENT_SECONDS}.000000,`, `film/f${++n}.ts`);
    if (adsAfterCycle.includes(c)) {
      lines.push('#EXT-X-DISCONTINUITY');
      for (let i = 0; i < 3; i++, adSegments++) lines.push('#EXTINF:3.333333,', `/quangcao/b7e1c0d2a9${c}${i}.ts`);
    }
  }
  lines.push('#EXT-X-ENDLIST');
  return { text: `${lines.join('\n')}\n`, filmSeconds: n * SEGMENT_SECONDS, adSegments };
}

/** Serves the playlist, its film segments (the clip's, cycled) and the ads (real segments too, so only the request tells). */
function adHostRoutes(playlist: string): HostRoutes {
  return (path) => {
    if (path === '/phim/index.m3u8') return { body: playlist };
    const film = /^\/phim\/film\/f(\d+)\.ts$/.exec(path);
    if (film) return { body: demoFile(`clip_540p_${(Number(film[1]) - 1) % CLIP_SEGMENTS}.mpegts`) };
    if (path.startsWith('/quangcao/')) return { body: demoFile('clip_180p_0.mpegts') };
    return undefined;
  };
}

/** The working demo stream (master, levels, subtitles), under /ok/. */
const demoRoutes: HostRoutes = (path) => {
  const m = /^\/ok\/(clip[\w.]*\.(m3u8|vtt))$/.exec(path) ?? /^\/ok\/(clip_\w+)\.ts$/.exec(path);
  if (!m) return undefined;
  return { body: demoFile(m[0].endsWith('.ts') ? `${m[1]}.mpegts` : m[1]!) };
};

/**
 * Two servers of one 45-minute episode (675 × 4 s segments of the demo clip, three levels): /s1/master.m3u8 and
 * /s2/master.m3u8. `server1` may answer server 1's segment n otherwise (a 404, no answer at all). Long enough that
 * hls.js cannot have buffered where the viewer jumps (it buffers up to 10 minutes ahead of a low bitrate).
 */
function twoServers(server1: (segment: number) => HostAnswer | undefined): HostRoutes {
  const episode = longEpisodeRoutes();
  return (path, req) => {
    const m = /^\/(s1|s2)(\/.*)$/.exec(path);
    if (!m) return undefined;
    const inner = `/ep${m[2]}`;
    const segment = /\/seg(\d+)\.ts$/.exec(inner);
    if (m[1] === 's1' && segment) {
      const answer = server1(Number(segment[1]));
      if (answer) return answer;
    }
    return episode(inner, req);
  };
}

/** The segments a server was asked for, in order: `['s2', 37]`… */
const segmentsOf = (host: HlsHost, server: 's1' | 's2') =>
  host.requests.flatMap((r) => {
    const m = new RegExp(`^/${server}/\\d+p/seg(\\d+)\\.ts`).exec(r);
    return m ? [Number(m[1])] : [];
  });

async function watchPageOf(page: Page, slug: string): Promise<void> {
  await page.goto(`/xem-phim/${slug}/tap-1`);
  await page.getByTestId('video').waitFor();
}

function video(page: Page) {
  return page.evaluate(() => {
    const v = document.querySelector<HTMLVideoElement>('[data-testid="video"]')!;
    return { paused: v.paused, time: v.currentTime, duration: v.duration || 0 };
  });
}

/** A phone playing episode 1 of `slug` from the host's two servers (s1, then s2), past its first half second. */
async function playingFromTwoServers(host: HlsHost, slug: string) {
  restores.push(
    await setEpisodeLinks(slug, 1, [
      { name: 'Vietsub #1', m3u8: `${host.origin}/s1/master.m3u8` },
      { name: 'Vietsub #2', m3u8: `${host.origin}/s2/master.m3u8` },
    ]),
  );
  const opened = await b.newPage({ ...PHONE, ignoreHTTPSErrors: true });
  await watchPageOf(opened.page, slug);
  await tap(opened.page, opened.page.getByRole('button', { name: 'Phát' }));
  await expect.poll(async () => (await video(opened.page)).time, { timeout: 20_000 }).toBeGreaterThan(0.5);
  return opened;
}

/** Films nobody else's test touches: from the end of the first page of single films. */
async function spareFilm(index: number): Promise<string> {
  const films = await freeFilms(b.baseURL());
  const slug = films.at(-1 - index);
  if (!slug) throw new Error('not enough free films in the demo catalogue');
  return slug;
}

describe('the stream (phone, 390x844, touch)', () => {
  test('a playlist with injected ads plays the film alone: no ad segment is ever requested, the timeline is the film', async () => {
    const { text, filmSeconds, adSegments } = adCarryingPlaylist(12, [0, 5, 11]);
    const host = await startHlsHost(adHostRoutes(text));
    hosts.push(host);
    const slug = await spareFilm(0);
    restores.push(await setEpisodeLinks(slug, 1, [{ name: 'Vietsub #1', m3u8: `${host.origin}/phim/index.m3u8` }]));

    const { page, context, errors } = await b.newPage({ ...PHONE, ignoreHTTPSErrors: true });
    await watchPageOf(page, slug);
    await tap(page, page.getByRole('button', { name: 'Phát' }));
    await expect.poll(async () => (await video(page)).time, { timeout: 15_000 }).toBeGreaterThan(0.5);
    // The seek bar and the duration are the film's alone (a pre-roll, a mid-roll and a post-roll cut).
    expect((await video(page)).duration).toBeCloseTo(filmSeconds, 0);
    // media-chrome copies the duration onto its controller after its own event round (not in the same task).
    await expect.poll(async () => Number(await page.locator('media-controller').getAttribute('mediaduration'))).toBeCloseTo(filmSeconds, 0);
    // hls.js buffers past the first ad's place (20 s) on its own: film segments on both sides, no ad.
    await expect.poll(() => host.requests.some((r) => r.endsWith('/film/f8.ts')), { timeout: 30_000 }).toBe(true);
    // Seek past the second ad (the film's 40 s) with double taps on the right third, as a viewer does. Under
    // load two taps can land further apart than the gesture's window: then the lone tap shows the controls or
    // pauses, and the viewer taps again (a paused picture plays on a tap).
    const gestures = (await page.getByTestId('player-gestures').boundingBox())!;
    const right = { x: gestures.x + (gestures.width * 5) / 6, y: gestures.y + gestures.height * 0.3 };
    await expect
      .poll(
        async () => {
          const before = await video(page);
          if (before.time >= 40) return before.time;
          await page.touchscreen.tap(right.x, right.y);
          if (!before.paused) await page.touchscreen.tap(right.x, right.y);
          await page.waitForTimeout(500);
          return (await video(page)).time;
        },
        { timeout: 60_000, interval: 50 },
      )
      .toBeGreaterThanOrEqual(40);
    await expect.poll(() => host.requests.some((r) => /\/film\/f(2[6-9]|3\d)\.ts$/.test(r)), { timeout: 30_000 }).toBe(true);
    expect(host.requests.filter((r) => r.includes('/quangcao/'))).toEqual([]);
    // The player's stats say what was cut.
    const box = page.locator('.player-box');
    expect(await box.getAttribute('data-ads-removed-segments')).toBe(String(adSegments));
    expect(Number(await box.getAttribute('data-ads-removed-seconds'))).toBeCloseTo(adSegments * 3.333333, 0);
    await screenshot(page, 'stream-ads-cut-phone');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a dead server moves to the next at the same place, with a toast, and files one error report', async () => {
    const host = await startHlsHost((path, req) => (path.startsWith('/dead/') ? { status: 404 } : demoRoutes(path, req)));
    hosts.push(host);
    const slug = await spareFilm(1);
    restores.push(
      await setEpisodeLinks(slug, 1, [
        { name: 'Vietsub #1', m3u8: `${host.origin}/dead/index.m3u8` },
        { name: 'Thuyết minh', m3u8: `${host.origin}/ok/clip.m3u8` },
      ]),
    );
    const { page, context } = await b.newPage({ ...PHONE, ignoreHTTPSErrors: true });
    await watchPageOf(page, slug);
    await tap(page, page.getByRole('button', { name: 'Phát' }));
    await page.getByText('Server 1 đang lỗi, đã chuyển sang Server 2').waitFor({ timeout: 20_000 });
    await page.waitForURL((u) => u.searchParams.get('server') === 'Thuyết minh');
    await expect.poll(async () => (await video(page)).time, { timeout: 20_000 }).toBeGreaterThan(0.5);
    expect((await video(page)).paused).toBe(false);
    expect(await page.getByRole('button', { name: 'Server 2' }).getAttribute('aria-pressed')).toBe('true');
    expect(host.requests.filter((r) => r.startsWith('/dead/'))).not.toEqual([]);
    await screenshot(page, 'stream-failover-phone');
    // A second viewer meeting the same dead server the same day adds no report.
    const second = await b.newPage({ ...PHONE, ignoreHTTPSErrors: true });
    await watchPageOf(second.page, slug);
    await second.page.getByText('Server 1 đang lỗi, đã chuyển sang Server 2').waitFor({ timeout: 20_000 });
    const reports = await errorReports(slug);
    expect(reports).toEqual([{ episode: 1, server_name: 'Vietsub #1', reason: 'server-loi' }]);
    await second.context.close();
    await context.close();
  });

  test('when every stream fails: the embed link, and without one a message with "Thử lại" and "Báo lỗi"', async () => {
    // One host refuses cross-origin reads (no Access-Control-Allow-Origin), the other has no such playlist.
    const noCors = await startHlsHost(demoRoutes, { cors: false });
    const dead = await startHlsHost(() => ({ status: 404 }));
    hosts.push(noCors, dead);
    const slug = await spareFilm(2);
    const servers = [
      { name: 'Vietsub #1', m3u8: `${noCors.origin}/ok/clip.m3u8` },
      { name: 'Vietsub #2', m3u8: `${dead.origin}/phim/index.m3u8`, embed: `${dead.origin}/embed/phim` },
    ];
    restores.push(await setEpisodeLinks(slug, 1, servers));
    const { page, context } = await b.newPage({ ...PHONE, ignoreHTTPSErrors: true });
    await watchPageOf(page, slug);
    await tap(page, page.getByRole('button', { name: 'Phát' }));
    await page.getByText('Server 1 đang lỗi, đã chuyển sang Server 2').waitFor({ timeout: 20_000 });
    await page.getByText('Server 2 đang lỗi, đã chuyển sang trình phát nhúng').waitFor({ timeout: 20_000 });
    expect(await page.locator('iframe.player-iframe').getAttribute('src')).toBe(`${dead.origin}/embed/phim`);
    await context.close();

    // No embed link anywhere: nothing left to try but the viewer's own "Thử lại" and "Báo lỗi".
    await setEpisodeLinks(
      slug,
      1,
      servers.map(({ name, m3u8 }) => ({ name, m3u8 })),
    );
    const again = await b.newPage({ ...PHONE, ignoreHTTPSErrors: true });
    await watchPageOf(again.page, slug);
    const alert = again.page.getByRole('alert').filter({ hasText: 'Không phát được tập này' });
    await alert.waitFor({ timeout: 30_000 });
    await screenshot(again.page, 'stream-all-failed-phone');
    await tap(again.page, alert.getByRole('button', { name: 'Báo lỗi' }));
    await again.page.getByRole('dialog').waitFor();
    await again.page.keyboard.press('Escape');
    const requestsBefore = noCors.requests.length;
    await tap(again.page, alert.getByRole('button', { name: 'Thử lại' }));
    await expect.poll(() => noCors.requests.length, { timeout: 15_000 }).toBeGreaterThan(requestsBefore);
    await again.context.close();
  });

  for (const [death, answer] of [
    ['its segments start answering 404', { status: 404 }],
    ['it stops answering (requests held open)', { hang: true }],
  ] as const) {
    test(`server 1 dies in the middle of the film (${death}) after a seek: server 2 plays at the same position, one report`, {
      timeout: 120_000,
    }, async () => {
      let dead = false;
      const host = await startHlsHost(twoServers((n) => (dead && n >= 300 ? answer : undefined)));
      hosts.push(host);
      const slug = await spareFilm(death.includes('404') ? 4 : 5);
      const { page, context, errors } = await playingFromTwoServers(host, slug);
      // From now on server 1 fails past 20:00; the viewer jumps to 25:00.
      dead = true;
      await page.getByTestId('video').evaluate((v: HTMLVideoElement) => {
        v.currentTime = 1500;
      });
      await page.getByText('Server 1 đang lỗi, đã chuyển sang Server 2').waitFor({ timeout: 40_000 });
      await page.waitForURL((u) => u.searchParams.get('server') === 'Vietsub #2');
      // Server 2 starts at the segment of 25:00 (not from the start) and plays on from there.
      await expect.poll(() => segmentsOf(host, 's2')[0], { timeout: 20_000 }).toBeGreaterThanOrEqual(373);
      expect(segmentsOf(host, 's2')[0]).toBeLessThanOrEqual(377);
      await expect.poll(async () => (await video(page)).time, { timeout: 30_000 }).toBeGreaterThan(1501);
      const now = await video(page);
      expect(now.paused).toBe(false);
      expect(now.time).toBeLessThan(1600);
      expect(segmentsOf(host, 's1').some((n) => n >= 373)).toBe(true);
      expect(await errorReports(slug)).toEqual([{ episode: 1, server_name: 'Vietsub #1', reason: 'server-loi' }]);
      expect(errors).toEqual([]);
      await context.close();
    });
  }

  test('a viewer who loses the network: nothing moves, nothing is reported; back online it plays on the same server', {
    timeout: 120_000,
  }, async () => {
    const host = await startHlsHost(twoServers(() => undefined));
    hosts.push(host);
    const slug = await spareFilm(6);
    const { page, context, errors } = await playingFromTwoServers(host, slug);
    // The phone loses its network, and the viewer jumps ahead (nothing of 25:00 is buffered).
    await context.setOffline(true);
    await page.getByTestId('video').evaluate((v: HTMLVideoElement) => {
      v.currentTime = 1500;
    });
    await page.getByText('Mất kết nối mạng', { exact: false }).waitFor({ timeout: 40_000 });
    await screenshot(page, 'stream-viewer-offline-phone');
    await context.setOffline(false);
    await expect.poll(async () => (await video(page)).time, { timeout: 40_000 }).toBeGreaterThan(1501);
    // Server 1 all along: no move, no toast, no report, server 2 never asked.
    expect(new URL(page.url()).searchParams.get('server')).not.toBe('Vietsub #2');
    expect(await page.getByText('đang lỗi', { exact: false }).count()).toBe(0);
    expect(segmentsOf(host, 's2')).toEqual([]);
    expect(await errorReports(slug)).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the big play button is a real button named "Phát" before the player\'s script has loaded', async () => {
    const slug = await spareFilm(3);
    // Without JavaScript: the host's HTML alone.
    const plain = await b.newPage({ ...PHONE, javaScriptEnabled: false });
    await plain.page.goto(`/xem-phim/${slug}/tap-1`);
    await expect(plain.page.getByRole('button', { name: 'Phát' }).count()).resolves.toBe(1);
    await plain.context.close();
    // With the player's script held back: the same button, and a tap on it plays once the script arrives.
    const { page, context } = await b.newPage(PHONE);
    const release = await holdPlayerScript(page);
    await watchPageOf(page, slug);
    const button = page.getByRole('button', { name: 'Phát' });
    expect(await button.isVisible()).toBe(true);
    expect(await page.evaluate(() => customElements.get('hls-video'))).toBeUndefined();
    await tap(page, button);
    release();
    await expect.poll(async () => (await video(page)).time, { timeout: 15_000 }).toBeGreaterThan(0.3);
    await context.close();
  });
});

async function errorReports(slug: string): Promise<{ episode: number; server_name: string; reason: string }[]> {
  const db = await productDatabase();
  try {
    const rows = await db.execute({
      sql: `SELECT episode, server_name, reason FROM error_reports WHERE film_id = (SELECT id FROM films WHERE slug = ?) ORDER BY id`,
      args: [slug],
    });
    return rows.rows.map((r) => ({ episode: Number(r.episode), server_name: String(r.server_name), reason: String(r.reason) }));
  } finally {
    db.close();
  }
}
