// Issue 26: downloads, tried as a viewer on a 390×844 phone with taps. A long episode (45 minutes of 4 s
// segments) on a video host on a second origin (HTTPS, CORS on; another one with CORS off); download with
// progress, both the host and the site unreachable, reopen, play and seek offline, delete and see the storage
// fall; pause, reload and resume with nothing stored fetched again; a full device; the non-VIP upsell; the
// no-CORS and embed-only messages.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO, freeFilms } from './helpers/accounts';
import { screenshot, setupBrowser, transmuxWorkers, waitForServiceWorker } from './helpers/browser';
import { type HlsHost, setEpisodeLinks as setLinks, startHlsHost } from './helpers/hls-host';
import { LONG_SEGMENTS, longEpisodeRoutes, longMaster, repeated } from './helpers/long-episode';
import { PHONE, signInByTouch, tap } from './helpers/phone';

const b = setupBrowser();
const PHONE_HTTPS = { ...PHONE, ignoreHTTPSErrors: true };

let host: HlsHost;
let films: string[];
/** The demo films' own links, put back after this file (other files play them). */
const restores: (() => Promise<void>)[] = [];
async function setEpisodeLinks(slug: string, episode: number, servers: { name: string; m3u8: string; embed?: string }[]): Promise<void> {
  restores.push(await setLinks(slug, episode, servers));
}
beforeAll(async () => {
  host = await startHlsHost(longEpisodeRoutes());
  films = (await freeFilms(b.baseURL())).slice(0, 10);
});
afterAll(async () => {
  await host?.close();
  for (const restore of restores.reverse()) await restore();
});

/** What the episode's download button (or the /tai-ve row) says now. */
const downloadState = (page: Page) => page.getByTestId('download-state').first().innerText();

/**
 * The player online prepares the first segment of the level it starts with (a phone's bandwidth: the lowest, 180p);
 * with this device's chosen quality at 540p it stays apart from a 180p download, whose every segment is counted.
 */
async function playerQuality540(page: Page): Promise<void> {
  await page.addInitScript(() => localStorage.setItem('phimviet:player', JSON.stringify({ quality: 540 })));
}

/** Taps "Tải về" under the player and picks a quality in the dialog. */
async function download(page: Page, quality: RegExp): Promise<void> {
  await tap(page, page.getByRole('button', { name: 'Tải về', exact: true }));
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  await tap(page, dialog.getByRole('button', { name: quality }));
}

async function storageUsage(page: Page): Promise<number> {
  return page.evaluate(async () => (await navigator.storage.estimate()).usage ?? 0);
}

const ourCaches = (page: Page) => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('pv-dl-')));

describe('downloads (phone)', () => {
  test('a VIP downloads a 45-minute episode with progress, plays and seeks it with no network, then deletes it', {
    timeout: 300_000,
  }, async () => {
    const slug = films[0]!;
    await setEpisodeLinks(slug, 1, [{ name: 'Server VIP', m3u8: `${host.origin}/ep/master.m3u8` }]);
    const { page, context, errors } = await b.newPage(PHONE_HTTPS);
    await playerQuality540(page);
    await signInByTouch(page, DEMO.vip1);
    await page.goto(`/xem-phim/${slug}/tap-1`);
    await waitForServiceWorker(page);

    // The choice of quality: every level with its estimated size, and the space left.
    await tap(page, page.getByRole('button', { name: 'Tải về', exact: true }));
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: /^540p · ~\d+ MB$/ }).waitFor();
    expect(await dialog.getByRole('button', { name: /^\d+p · ~/ }).allInnerTexts()).toEqual([
      expect.stringMatching(/^540p · ~\d+ MB$/),
      expect.stringMatching(/^360p · ~\d+ MB$/),
      expect.stringMatching(/^180p · ~\d+ MB$/),
    ]);
    expect(await dialog.innerText()).toMatch(/Còn trống trên máy: [\d,]+ (MB|GB)/);
    await screenshot(page, 'downloads-quality');
    await tap(page, dialog.getByRole('button', { name: /^180p · ~/ }));
    await dialog.waitFor({ state: 'hidden' });

    // Progress on the button, to the end.
    const seen = new Set<string>();
    await expect
      .poll(
        async () => {
          const state = await downloadState(page);
          seen.add(state);
          return state;
        },
        { timeout: 180_000, interval: 150 },
      )
      .toBe('Đã tải');
    expect([...seen].some((s) => /^Đang tải \d+%$/.test(s))).toBe(true);
    // Every segment of the chosen level fetched exactly once, and the subtitles; no other level (the player
    // online prepares the first segment of the level it starts with, 540p here: not the download's).
    const segments = host.requests.filter((r) => /^\/ep\/180p\/seg\d+\.ts$/.test(r));
    expect(new Set(segments).size).toBe(LONG_SEGMENTS);
    expect(repeated(segments)).toEqual([]);
    expect(host.requests).toContain('/ep/subs/clip_vi.vtt');
    expect(host.requests.some((r) => r.startsWith('/ep/360p/seg'))).toBe(false);
    expect(host.requests.filter((r) => r.startsWith('/ep/540p/seg')).length).toBeLessThan(10);

    // /tai-ve from the menu: grouped by film, quality, size, state, and the storage bar.
    await tap(page, page.getByRole('button', { name: 'Mở menu' }));
    await tap(page, page.getByRole('link', { name: 'Phim đã tải' }));
    await page.waitForURL(/\/tai-ve$/);
    await page.getByRole('heading', { name: 'Phim đã tải' }).waitFor();
    const row = page.getByTestId('download-row');
    await expect.poll(() => row.innerText()).toMatch(/Tập 1[\s\S]*180p · [\d,]+ MB[\s\S]*Đã tải/);
    // The size on disk is what was stored: 675 segments of 71–75 KB.
    const onDisk = Number(/180p · ([\d,]+) MB/.exec(await row.innerText())![1]!.replace(',', '.'));
    expect(onDisk).toBeGreaterThan(45);
    expect(onDisk).toBeLessThan(50);
    await expect.poll(() => page.getByTestId('storage-used').innerText()).toMatch(/^Đã dùng [\d,]+ (MB|GB) \/ [\d,]+ (MB|GB)$/);
    await screenshot(page, 'downloads-page');

    // No network at all: the video host is down and the site unreachable. The installed app reopens.
    await host.close();
    await context.setOffline(true);
    await page.goto(`/xem-phim/${slug}/tap-1`);
    await page.getByTestId('playing-download').waitFor({ timeout: 30_000 });
    const video = page.getByTestId('video');
    await tap(page, page.getByTestId('big-play'));
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(0.5);
    expect(await video.evaluate((v: HTMLVideoElement) => Math.round(v.duration))).toBe(LONG_SEGMENTS * 4);
    // hls.js's transmuxer worker started offline too: its script was kept on the device with the player's.
    expect(transmuxWorkers(page)).toBe(1);
    // Seek far into it: it plays from there, from the device.
    await video.evaluate((v: HTMLVideoElement) => {
      v.currentTime = 1801;
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(1802);
    expect(await video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(false);
    // The stream's subtitles came along.
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => Array.from(v.textTracks).map((t) => t.language))).toContain('vi');
    await screenshot(page, 'downloads-offline-playing');
    // Progress made offline reaches the member's account when the network returns (the library's outbox).
    await video.evaluate((v: HTMLVideoElement) => v.pause());
    await context.setOffline(false);
    const token = await page.evaluate(() => sessionStorage.getItem('token'));
    const progress = async () =>
      (
        (await (await fetch(`${b.baseURL()}/api/me/progress?slug=${slug}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          data: { episode: number; position: number }[];
        }
      ).data[0]?.position ?? 0;
    await expect.poll(progress, { timeout: 30_000 }).toBeGreaterThan(1800);
    await context.setOffline(true);

    // Delete it (offline): every byte goes, the storage falls.
    await page.goto('/tai-ve');
    await row.waitFor();
    const before = await storageUsage(page);
    expect(await ourCaches(page)).toHaveLength(1);
    await tap(page, row.getByRole('button', { name: 'Xóa', exact: true }));
    await page.getByText('Chưa có phim nào được tải về.', { exact: false }).waitFor();
    expect(await ourCaches(page)).toEqual([]);
    await expect.poll(() => storageUsage(page), { timeout: 20_000 }).toBeLessThan(before - 20 * 1024 * 1024);
    await context.setOffline(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('progress watched offline reaches the account: the app opened offline with the site and the video host down, then both back', {
    timeout: 300_000,
  }, async () => {
    const slug = films[8]!;
    // A video host of its own (the first test stops the shared one).
    const own = await startHlsHost(longEpisodeRoutes());
    await setEpisodeLinks(slug, 1, [{ name: 'Server VIP', m3u8: `${own.origin}/ep/master.m3u8` }]);
    const { page, context, errors } = await b.newPage(PHONE_HTTPS);
    await signInByTouch(page, DEMO.vip2);
    await page.goto(`/xem-phim/${slug}/tap-1`);
    await waitForServiceWorker(page);
    await download(page, /^180p · ~/);
    await expect.poll(() => downloadState(page), { timeout: 180_000, interval: 500 }).toBe('Đã tải');
    const token = await page.evaluate(() => sessionStorage.getItem('token'));
    const accountPosition = async () =>
      (
        (await (await fetch(`${b.baseURL()}/api/me/progress?slug=${slug}`, { headers: { authorization: `Bearer ${token}` } })).json()) as {
          data: { episode: number; position: number }[];
        }
      ).data.find((p) => p.episode === 1)?.position ?? 0;
    expect(await accountPosition()).toBe(0);

    // The site's server and the video host stopped, the phone offline: the installed app opens /tai-ve from the device.
    await own.close();
    const site = new URL(b.baseURL()).origin;
    const siteDown = (url: URL) => url.origin === site;
    await context.route(siteDown, (route) => route.abort('connectionrefused'));
    await context.setOffline(true);
    await page.goto('/tai-ve');
    const row = page.getByTestId('download-row');
    await tap(page, row.getByRole('link', { name: 'Xem', exact: true }));
    await page.getByTestId('playing-download').waitFor({ timeout: 30_000 });
    await tap(page, page.getByTestId('big-play'));
    const video = page.getByTestId('video');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(0.5);
    // Seek to 30:00 and pause, as the viewer does (the bar's play button).
    await video.evaluate((v: HTMLVideoElement) => {
      v.currentTime = 1800;
    });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(1801);
    const pictureBox = (await page.getByTestId('player-gestures').boundingBox())!;
    await page.touchscreen.tap(pictureBox.x + pictureBox.width / 2, pictureBox.y + pictureBox.height * 0.3);
    await tap(page, page.locator('media-play-button'));
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    const paused = await video.evaluate((v: HTMLVideoElement) => v.currentTime);

    // The server comes back, then the network: the position reaches the account by itself.
    await context.unroute(siteDown);
    await context.setOffline(false);
    await expect.poll(accountPosition, { timeout: 45_000, interval: 1000 }).toBeGreaterThan(paused - 1);

    // The site's server restarts while the phone keeps its network (no `online` event at all): what was watched
    // meanwhile reaches the account once the server is back.
    await context.route(siteDown, (route) => route.abort('connectionrefused'));
    await video.evaluate((v: HTMLVideoElement) => {
      v.currentTime = 2400;
    });
    await tap(page, page.locator('media-play-button'));
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 }).toBeGreaterThan(2401);
    await page.touchscreen.tap(pictureBox.x + pictureBox.width / 2, pictureBox.y + pictureBox.height * 0.3);
    await tap(page, page.locator('media-play-button'));
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    const later = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
    await context.unroute(siteDown);
    await expect.poll(accountPosition, { timeout: 45_000, interval: 1000 }).toBeGreaterThan(later - 1);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('pause, reload and resume: nothing stored is fetched again; a full device pauses with "Hết dung lượng"', {
    timeout: 300_000,
  }, async () => {
    const routes = longEpisodeRoutes();
    const slow = await startHlsHost(
      (path, req) =>
        path === '/ep/huge.m3u8' ? { body: longMaster().replace(/BANDWIDTH=\d+/g, 'BANDWIDTH=90000000000') } : routes(path, req),
      { delay: (p) => (p.endsWith('.ts') ? 25 : 0) },
    );
    try {
      const slug = films[1]!;
      await setEpisodeLinks(slug, 1, [{ name: 'Server A', m3u8: `${slow.origin}/ep/master.m3u8` }]);
      const { page, context } = await b.newPage(PHONE_HTTPS);
      await playerQuality540(page);
      await signInByTouch(page, DEMO.vip2);
      await page.goto(`/xem-phim/${slug}/tap-1`);
      await download(page, /^180p · ~/);
      await expect.poll(() => downloadState(page), { timeout: 60_000 }).toMatch(/^Đang tải ([1-9]\d)%$/);
      // Pause: what is in flight is finished and kept, nothing new starts.
      await tap(page, page.getByTestId('download-state'));
      await expect.poll(() => downloadState(page)).toBe('Tạm dừng');
      const storedAt = async () =>
        page.evaluate(async () => {
          const name = (await caches.keys()).find((k) => k.startsWith('pv-dl-'));
          return name ? (await (await caches.open(name)).keys()).length : 0;
        });
      // The download's own requests (the player online also prepares its first 540p segment). Paused, every
      // segment asked for is stored: three playlists and the subtitle file, and each segment requested.
      const downloaded = () => slow.requests.filter((r) => /^\/ep\/180p\/seg\d+\.ts$/.test(r));
      await expect.poll(async () => (await storedAt()) - downloaded().length, { timeout: 20_000 }).toBe(4);
      const pausedAt = downloaded().length;
      // The tab reloads (closed and reopened): still paused, nothing fetched.
      await page.reload();
      await expect.poll(() => downloadState(page)).toBe('Tạm dừng');
      expect(downloaded().length).toBe(pausedAt);
      // Resume from /tai-ve, then reload in the middle: the queue continues by itself.
      await page.goto('/tai-ve');
      await tap(page, page.getByRole('button', { name: 'Tiếp tục' }));
      await expect.poll(() => downloadState(page), { timeout: 30_000 }).toMatch(/^Đang tải \d+%$/);
      await page.reload();
      await expect.poll(() => downloadState(page), { timeout: 240_000, interval: 500 }).toBe('Đã tải');
      const segments = downloaded();
      expect(new Set(segments).size).toBe(LONG_SEGMENTS);
      // Paused and resumed: nothing twice. A reload cuts the few requests in flight (never stored), at most 5 (the downloader fetches 5 at once).
      expect(repeated(segments).length).toBeLessThanOrEqual(5);
      expect(repeated(segments.slice(0, pausedAt))).toEqual([]);

      // A full device: the quota shrinks under a new download, which pauses with "Hết dung lượng".
      const slug2 = films[2]!;
      await setEpisodeLinks(slug2, 1, [{ name: 'Server A', m3u8: `${slow.origin}/ep/master.m3u8` }]);
      await page.goto(`/xem-phim/${slug2}/tap-1`);
      await download(page, /^360p · ~/);
      await expect.poll(() => downloadState(page), { timeout: 60_000 }).toMatch(/^Đang tải ([3-9]|\d\d)%$/);
      const cdp = await context.newCDPSession(page);
      const origin = new URL(page.url()).origin;
      const usage = await storageUsage(page);
      await cdp.send('Storage.overrideQuotaForOrigin', { origin, quotaSize: usage + 2 * 1024 * 1024 });
      await expect.poll(() => downloadState(page), { timeout: 60_000 }).toBe('Tạm dừng');
      await page
        .getByText(/^Hết dung lượng/)
        .first()
        .waitFor();
      await screenshot(page, 'downloads-quota');
      // Nothing else was harmed: the first episode is whole.
      await page.goto('/tai-ve');
      const rows = page.getByTestId('download-row');
      await expect.poll(() => rows.count()).toBe(2);
      expect(await page.getByTestId('download-state').allInnerTexts()).toEqual(['Đã tải', 'Tạm dừng']);
      await page.getByText(/^Hết dung lượng/).waitFor();
      await cdp.send('Storage.overrideQuotaForOrigin', { origin });
      // Space again: "Tiếp tục" goes on from where it stopped.
      await tap(page, page.getByRole('button', { name: 'Tiếp tục' }));
      await expect
        .poll(() => page.getByTestId('download-state').nth(1).innerText(), { timeout: 30_000 })
        .toMatch(/^(Đang tải \d+%|Đã tải)$/);
      // Before starting, a level whose estimate does not fit the space left is refused (a stream declaring
      // 90 Gbit/s: terabytes for 45 minutes).
      const slug3 = films[3]!;
      await setEpisodeLinks(slug3, 1, [{ name: 'Server A', m3u8: `${slow.origin}/ep/huge.m3u8` }]);
      await page.goto(`/xem-phim/${slug3}/tap-1`);
      await tap(page, page.getByRole('button', { name: 'Tải về', exact: true }));
      await page
        .getByRole('dialog')
        .getByText(/^Hết dung lượng/)
        .waitFor();
      expect(await page.getByRole('dialog').getByRole('button', { name: /^540p/ }).isDisabled()).toBe(true);
      await context.close();
    } finally {
      await slow.close();
    }
  });

  test('two tabs: one downloads, the other waits; the first closes mid-way and the second goes on; deleting while playing frees it', {
    timeout: 240_000,
  }, async () => {
    const slow = await startHlsHost(longEpisodeRoutes(200), { delay: (p) => (p.endsWith('.ts') ? 100 : 0) });
    try {
      const slug = films[4]!;
      await setEpisodeLinks(slug, 1, [{ name: 'Server A', m3u8: `${slow.origin}/ep/master.m3u8` }]);
      const { page, context } = await b.newPage(PHONE_HTTPS);
      await playerQuality540(page);
      await signInByTouch(page, DEMO.vip1);
      // The second tab of the same app is open on /tai-ve.
      const other = await context.newPage();
      await other.goto('/tai-ve');
      await page.goto(`/xem-phim/${slug}/tap-1`);
      await download(page, /^180p · ~/);
      await expect.poll(() => downloadState(page), { timeout: 60_000 }).toMatch(/^Đang tải ([1-9]\d?)%$/);
      // Both tabs see the progress; the lock has one owner.
      await expect.poll(() => other.getByTestId('download-state').innerText(), { timeout: 10_000 }).toMatch(/^Đang tải \d+%$/);
      expect(await other.evaluate(async () => (await navigator.locks.query()).held?.length)).toBe(1);
      // Only another tab ever waits in line: the downloading tab never asks for the lock it holds (its own progress,
      // heard by its auto-resume a second later, asks it for one more pass instead). Watched for 2.4 s.
      const selfInLine = await other.evaluate(async () => {
        let most = 0;
        for (let i = 0; i < 12; i++) {
          const { held = [], pending = [] } = await navigator.locks.query();
          most = Math.max(most, pending.filter((p) => p.clientId === held[0]?.clientId).length);
          await new Promise((r) => setTimeout(r, 200));
        }
        return most;
      });
      expect(selfInLine).toBe(0);
      // The downloading tab closes: the other one, waiting for the lock, continues where it stopped.
      await page.close();
      await expect.poll(() => other.getByTestId('download-state').innerText(), { timeout: 120_000, interval: 500 }).toBe('Đã tải');
      const segments = slow.requests.filter((r) => /^\/ep\/180p\/seg\d+\.ts$/.test(r));
      expect(new Set(segments).size).toBe(200);
      // Only what was in flight when the tab closed (never stored) is asked twice.
      expect(repeated(segments).length).toBeLessThanOrEqual(5);

      // Deleting while it plays: the bytes go at once; the player says it lost the copy.
      await other.goto(`/xem-phim/${slug}/tap-1`);
      await other.getByTestId('playing-download').waitFor();
      await tap(other, other.getByTestId('big-play'));
      await expect
        .poll(() => other.getByTestId('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
        .toBeGreaterThan(0.5);
      const viewer = await context.newPage();
      await viewer.goto('/tai-ve');
      await tap(viewer, viewer.getByRole('button', { name: 'Xóa', exact: true }));
      await viewer.getByText('Chưa có phim nào được tải về.', { exact: false }).waitFor();
      expect(await ourCaches(viewer)).toEqual([]);
      // The watch page hears it and leaves the copy (back to the stream, online here).
      await other.getByTestId('playing-download').waitFor({ state: 'detached', timeout: 10_000 });
      await context.close();
    } finally {
      await slow.close();
    }
  });

  test('a segment that keeps failing: retried, then "Lỗi · Thử lại"; a tap resumes from where it failed', {
    timeout: 180_000,
  }, async () => {
    const routes = longEpisodeRoutes(60);
    let broken = true;
    const flaky = await startHlsHost((path, req) => (broken && path === '/ep/180p/seg30.ts' ? { status: 503 } : routes(path, req)));
    try {
      const slug = films[5]!;
      await setEpisodeLinks(slug, 1, [{ name: 'Server A', m3u8: `${flaky.origin}/ep/master.m3u8` }]);
      const { page, context } = await b.newPage(PHONE_HTTPS);
      await playerQuality540(page);
      await signInByTouch(page, DEMO.vip1);
      await page.goto(`/xem-phim/${slug}/tap-1`);
      await download(page, /^180p · ~/);
      await expect.poll(() => downloadState(page), { timeout: 60_000 }).toBe('Lỗi · Thử lại');
      // Retried with backoff before giving up: five tries of the broken segment.
      expect(flaky.requests.filter((r) => r === '/ep/180p/seg30.ts')).toHaveLength(5);
      const before = flaky.requests.filter((r) => /^\/ep\/180p\/seg\d+\.ts$/.test(r)).length;
      broken = false;
      await tap(page, page.getByTestId('download-state'));
      await expect.poll(() => downloadState(page), { timeout: 60_000 }).toBe('Đã tải');
      const segments = flaky.requests.filter((r) => /^\/ep\/180p\/seg\d+\.ts$/.test(r));
      // After the tap: the failed segment and those never fetched, nothing stored before.
      expect(repeated(segments.filter((r) => r !== '/ep/180p/seg30.ts'))).toEqual([]);
      expect(new Set(segments).size).toBe(60);
      expect(segments.length - before).toBe(60 - (before - 5));
      await context.close();
    } finally {
      await flaky.close();
    }
  });

  test('a host that stops answering one segment: after 20 s with nothing arriving it is asked again, and the download finishes', {
    timeout: 120_000,
  }, async () => {
    const routes = longEpisodeRoutes(30);
    let held = 0;
    const hanging = await startHlsHost((path, req) => {
      // The first request for segment 12 is held open for good (a CDN connection that stopped answering).
      if (path === '/ep/180p/seg12.ts' && held++ === 0) return { hang: true };
      return routes(path, req);
    });
    try {
      const slug = films[9]!;
      await setEpisodeLinks(slug, 1, [{ name: 'Server A', m3u8: `${hanging.origin}/ep/master.m3u8` }]);
      const { page, context } = await b.newPage(PHONE_HTTPS);
      await playerQuality540(page);
      await signInByTouch(page, DEMO.vip1);
      await page.goto(`/xem-phim/${slug}/tap-1`);
      await download(page, /^180p · ~/);
      await expect.poll(() => downloadState(page), { timeout: 90_000, interval: 500 }).toBe('Đã tải');
      // Asked twice: the held request, then the retry; every other segment once.
      const segments = hanging.requests.filter((r) => /^\/ep\/180p\/seg\d+\.ts$/.test(r));
      expect(segments.filter((r) => r === '/ep/180p/seg12.ts')).toHaveLength(2);
      expect(new Set(segments).size).toBe(30);
      expect(repeated(segments)).toEqual(['/ep/180p/seg12.ts']);
      await context.close();
    } finally {
      await hanging.close();
    }
  });

  test('"Tải cả phim" queues every episode of one server; offline, the next episode is the next one on the device', {
    timeout: 240_000,
  }, async () => {
    const short = await startHlsHost(longEpisodeRoutes(10));
    try {
      // A series with a few episodes, every episode moved to one server on the test host.
      const list = (await (await fetch(`${b.baseURL()}/api/product/product-phimbo`)).json()) as { data: { slug: string; VIP1: number }[] };
      let slug = '';
      let episodes: number[] = [];
      for (const film of list.data.filter((f) => f.VIP1 === 0).reverse()) {
        const detail = (await (await fetch(`${b.baseURL()}/api/product/${film.slug}`)).json()) as {
          datafilm: { servers: { linkfilms: { episode: number }[] }[] };
        };
        episodes = [...new Set(detail.datafilm.servers.flatMap((s) => s.linkfilms.map((e) => e.episode)))].sort((x, y) => x - y);
        slug = film.slug;
        if (episodes.length > 1 && episodes.length <= 6) break;
      }
      expect(episodes.length).toBeGreaterThan(1);
      for (const episode of episodes) await setEpisodeLinks(slug, episode, [{ name: 'Server A', m3u8: `${short.origin}/ep/master.m3u8` }]);
      const { page, context } = await b.newPage(PHONE_HTTPS);
      await signInByTouch(page, DEMO.admin);
      await page.goto(`/${slug}`);
      await waitForServiceWorker(page);
      await tap(page, page.getByRole('button', { name: 'Tải cả phim' }));
      const dialog = page.getByRole('dialog');
      await tap(page, dialog.getByRole('button', { name: /^180p · ~/ }));
      await dialog.waitFor({ state: 'hidden' });
      await page.goto('/tai-ve');
      const states = page.getByTestId('download-state');
      await expect.poll(() => states.allInnerTexts(), { timeout: 180_000 }).toEqual(episodes.map(() => 'Đã tải'));
      expect(await page.getByRole('heading', { level: 2 }).allInnerTexts()).toHaveLength(1);
      await screenshot(page, 'downloads-film');

      await short.close();
      await context.setOffline(true);
      await page.goto(`/xem-phim/${slug}/tap-${episodes[0]}`);
      await page.getByTestId('playing-download').waitFor({ timeout: 30_000 });
      await tap(page, page.getByTestId('next-episode'));
      await page.waitForURL(new RegExp(`/xem-phim/${slug}/tap-${episodes[1]}`));
      await page.getByTestId('playing-download').waitFor();
      await expect
        .poll(() => page.getByTestId('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
        .toBeGreaterThan(0.5);
      await context.setOffline(false);
      await context.close();
    } finally {
      await short.close();
    }
  });

  test("a demo film's own clip (a link relative to the site) downloads at 360p and plays from the device", {
    timeout: 120_000,
  }, async () => {
    const slug = films[7]!;
    const { page, context } = await b.newPage(PHONE);
    await signInByTouch(page, DEMO.vip2);
    await page.goto(`/xem-phim/${slug}/tap-1`);
    await download(page, /^360p · ~/);
    await expect.poll(() => downloadState(page), { timeout: 60_000 }).toBe('Đã tải');
    await page.reload();
    await page.getByTestId('playing-download').waitFor();
    await tap(page, page.getByTestId('big-play'));
    await expect
      .poll(() => page.getByTestId('video').evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 30_000 })
      .toBeGreaterThan(0.5);
    await context.close();
  });

  test('no VIP: an upsell to the plans (visitors: sign in first); the plans list the perk', { timeout: 120_000 }, async () => {
    const slug = films[4]!;
    await setEpisodeLinks(slug, 1, [{ name: 'Server A', m3u8: `${host.origin}/ep/master.m3u8` }]);
    const { page, context } = await b.newPage(PHONE_HTTPS);
    await page.goto(`/xem-phim/${slug}/tap-1`);
    await tap(page, page.getByRole('button', { name: 'Tải về', exact: true }));
    await page.getByText('Tải phim về xem offline là quyền lợi của thành viên VIP.', { exact: false }).waitFor();
    await tap(page, page.locator('.dl-upsell').getByRole('link', { name: 'Đăng nhập' }));
    await page.waitForURL(/\/dang-nhap/);
    await signInByTouch(page, DEMO.user);
    await page.waitForURL(new RegExp(`/xem-phim/${slug}/tap-1`));
    await tap(page, page.getByRole('button', { name: 'Tải về', exact: true }));
    await page.getByText('Tải phim về xem offline là quyền lợi của thành viên VIP.', { exact: false }).waitFor();
    expect(await page.getByRole('dialog').count()).toBe(0);
    await tap(page, page.getByRole('link', { name: 'Xem các gói VIP' }));
    await page.waitForURL(/\/dang-ky-goi-vip$/);
    await expect.poll(() => page.getByText('Tải phim về xem offline').count()).toBe(2);
    expect(await ourCaches(page)).toEqual([]);
    await context.close();
  });

  test('a host without CORS and an embed-only episode are refused with their reason, nothing stored', { timeout: 120_000 }, async () => {
    const closed = await startHlsHost(longEpisodeRoutes(), { cors: false });
    try {
      const [noCors, embedOnly] = [films[5]!, films[6]!];
      await setEpisodeLinks(noCors, 1, [{ name: 'Server A', m3u8: `${closed.origin}/ep/master.m3u8` }]);
      await setEpisodeLinks(embedOnly, 1, [{ name: 'Server A', m3u8: '', embed: `${host.origin}/embed/1` }]);
      const { page, context } = await b.newPage(PHONE_HTTPS);
      await signInByTouch(page, DEMO.vip1);
      await page.goto(`/xem-phim/${noCors}/tap-1`);
      await tap(page, page.getByRole('button', { name: 'Tải về', exact: true }));
      await page.getByRole('dialog').getByText('Nguồn này không cho phép tải về').waitFor();
      expect(await page.getByRole('dialog').getByRole('button', { name: /^\d+p/ }).count()).toBe(0);
      await screenshot(page, 'downloads-no-cors');
      await tap(page, page.getByRole('button', { name: 'Đóng' }));
      expect(await ourCaches(page)).toEqual([]);

      await page.goto(`/xem-phim/${embedOnly}/tap-1`);
      const button = page.getByRole('button', { name: 'Tải về', exact: true });
      await button.waitFor();
      await expect.poll(() => button.isDisabled()).toBe(true);
      await page.getByText('Tập này chỉ có trình phát nhúng của nguồn nên không tải về được.').waitFor();
      await page.goto('/tai-ve');
      await page.getByText('Chưa có phim nào được tải về.', { exact: false }).waitFor();
      await context.close();
    } finally {
      await closed.close();
    }
  });
});
