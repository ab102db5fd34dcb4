// "Bỏ qua giới thiệu" learned from how viewers skip (issue 40 §7), on phones: five viewers, each on a device of its own
// with a real player, one after another, seek past a demo episode's intro (20 s to 110 s) and keep watching; each
// player's report is checked; the API publishes the segment; a sixth viewer sees the button within 250 ms of the
// intro's start and a tap lands just before its end; S skips it again; "Tự động bỏ qua" skips it by itself and
// "Xem lại" goes back.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import type { EpisodeSegments } from '../../worker/schemas/segments';
import { freeSeries } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';
import { type HlsHost, setEpisodeLinks, startHlsHost } from './helpers/hls-host';
import { longEpisodeRoutes } from './helpers/long-episode';
import { PHONE, tap } from './helpers/phone';

const b = setupBrowser();
const PHONE_HTTPS = { ...PHONE, ignoreHTTPSErrors: true };
/** Its own server name: the segments learned here belong to it alone (other files play this film's own links). */
const SERVER = 'Server thử giới thiệu';
const INTRO_START = 20;
const INTRO_END = 110;

let host: HlsHost;
let restore: (() => Promise<void>) | undefined;
let watchPath = '';
let slug = '';
let episode = 0;

beforeAll(async () => {
  // A 10-minute episode: the intro lies in its first quarter.
  host = await startHlsHost(longEpisodeRoutes(150));
  const series = await freeSeries(b.baseURL());
  slug = series.slug;
  episode = series.episodes[0]!;
  restore = await setEpisodeLinks(slug, episode, [{ name: SERVER, m3u8: `${host.origin}/ep/master.m3u8` }]);
  watchPath = `/xem-phim/${slug}/tap-${episode}?server=${encodeURIComponent(SERVER)}`;
});
afterAll(async () => {
  await restore?.();
  await host?.close();
});

const video = (page: Page) => page.locator('[data-testid="video"]');
const currentTime = (page: Page) => video(page).evaluate((v: HTMLVideoElement) => v.currentTime);
const seekTo = (page: Page, t: number) =>
  video(page).evaluate((v: HTMLVideoElement, to) => {
    v.currentTime = to;
  }, t);

/** Opens the episode and taps "Phát"; resolves once it plays. */
async function startWatching(page: Page): Promise<void> {
  await page.goto(watchPath);
  await tap(page, page.getByTestId('big-play'));
  await expect.poll(() => video(page).evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0), { timeout: 20_000 }).toBe(true);
}

describe('"Bỏ qua giới thiệu" learned from five viewers (phone)', () => {
  test('five viewers skip the intro; a sixth sees the button as it starts and lands just before its end', {
    timeout: 150_000,
  }, async () => {
    // Five viewers on phones, one after another (five players at once are more than this machine's two cores play
    // in time): the theme starts, they seek past it, landing a little further on each, and watch on; each player
    // reports it from its own device.
    const devices = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const viewer = await b.newPage(PHONE_HTTPS);
      await startWatching(viewer.page);
      await seekTo(viewer.page, INTRO_START - 3);
      await expect.poll(() => currentTime(viewer.page), { timeout: 15_000 }).toBeGreaterThanOrEqual(INTRO_START + i * 0.1);
      const reported = viewer.page.waitForResponse((r) => r.url().includes('/api/segments/report'), { timeout: 30_000 });
      const landing = INTRO_END + 0.3 + i * 0.6;
      await seekTo(viewer.page, landing);
      const res = await reported;
      expect(res.status()).toBe(200);
      const body = res.request().postDataJSON() as { start: number; end: number; via: string; back: boolean; device: string };
      expect(body).toMatchObject({ kind: 'intro', via: 'seek', back: false, stepped: false });
      expect(body.start).toBeGreaterThanOrEqual(INTRO_START - 0.5);
      expect(body.end).toBeCloseTo(landing, 0);
      devices.add(body.device);
      expect(viewer.errors).toEqual([]);
      await viewer.context.close();
    }
    expect(devices.size).toBe(5);
    const published = (await (
      await fetch(`${b.baseURL()}/api/segments/${slug}/tap-${episode}?server=${encodeURIComponent(SERVER)}`)
    ).json()) as EpisodeSegments;
    const intro = published.data.intro;
    expect(intro).not.toBeNull();
    expect(intro!.start).toBeGreaterThanOrEqual(INTRO_START - 1);
    expect(intro!.start).toBeLessThanOrEqual(INTRO_START + 3);
    expect(intro!.end).toBeGreaterThanOrEqual(INTRO_END - 3);
    expect(intro!.end).toBeLessThanOrEqual(INTRO_END + 1);

    // The sixth viewer: nothing to skip before the intro; the button as soon as it starts.
    const { page, context, errors } = await b.newPage(PHONE_HTTPS);
    await startWatching(page);
    await seekTo(page, intro!.start - 2);
    await expect.poll(() => currentTime(page), { timeout: 10_000 }).toBeLessThan(intro!.start);
    expect(await page.getByTestId('skip-intro').count()).toBe(0);
    // Each frame: when the video passed the intro's start, and when the button showed.
    const lagMs = await page.evaluate(
      (start) =>
        new Promise<number>((resolve) => {
          const v = document.querySelector<HTMLVideoElement>('[data-testid="video"]')!;
          let reached: number | null = null;
          const frame = (now: number) => {
            if (reached === null && v.currentTime >= start) reached = now - ((v.currentTime - start) * 1000) / (v.playbackRate || 1);
            if (reached !== null && document.querySelector('[data-testid="skip-intro"]')) resolve(now - reached);
            else requestAnimationFrame(frame);
          };
          requestAnimationFrame(frame);
        }),
      intro!.start,
    );
    console.log(
      `[skip-intro] button shown ${lagMs.toFixed(0)} ms after the intro's start (${intro!.start} s); published end ${intro!.end} s`,
    );
    expect(lagMs).toBeLessThanOrEqual(250);
    const button = page.getByRole('button', { name: 'Bỏ qua giới thiệu', exact: true });
    await screenshot(page, 'skip-intro-phone');
    await tap(page, button);
    await expect.poll(() => currentTime(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(intro!.end - 0.5);
    const landed = await currentTime(page);
    expect(landed).toBeGreaterThanOrEqual(INTRO_END - 3);
    expect(landed).toBeLessThanOrEqual(INTRO_END + 1.5);
    await expect.poll(() => page.getByTestId('skip-intro').count()).toBe(0);

    // Back in the intro, the key S skips it, once.
    await seekTo(page, intro!.start + 1);
    await button.waitFor();
    await page.keyboard.press('s');
    await expect.poll(() => currentTime(page), { timeout: 10_000 }).toBeGreaterThanOrEqual(intro!.end - 0.5);
    expect(await currentTime(page)).toBeLessThan(INTRO_END + 3);

    // "Tự động bỏ qua": the intro skips itself, and "Xem lại" goes back to its start.
    await tap(page, page.getByRole('checkbox', { name: 'Tự động bỏ qua' }));
    await seekTo(page, intro!.start - 1);
    const notice = page.getByTestId('auto-skipped');
    await notice.waitFor({ timeout: 10_000 });
    expect(await notice.innerText()).toBe('Đã bỏ qua giới thiệu · Xem lại');
    expect(await currentTime(page)).toBeGreaterThanOrEqual(intro!.end - 0.5);
    await tap(page, notice.getByRole('button', { name: 'Xem lại' }));
    await expect.poll(() => currentTime(page), { timeout: 10_000 }).toBeLessThan(intro!.start + 3);
    expect(errors).toEqual([]);
    await context.close();
  });
});
