// "Bỏ qua giới thiệu" learned from how viewers skip (issue 40 §7), on phones: five viewers drag past a demo episode's
// intro (20 s to 110 s) and keep watching (the first with a real player, whose report is checked; four more posted as
// their players would); the API publishes it; a sixth viewer sees the button as the intro starts (the delay is
// printed, not asserted) and a tap lands just before its end; S skips it again; "Tự động bỏ qua" skips it by itself and
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
  test('five viewers skip the intro; a sixth sees the button as it starts and lands just before its end', { timeout: 90_000 }, async () => {
    // The first viewer on a phone: the theme starts, they drag the bar past it and watch on; the player reports it.
    const first = await b.newPage(PHONE_HTTPS);
    await startWatching(first.page);
    await seekTo(first.page, INTRO_START - 3);
    await expect.poll(() => currentTime(first.page), { timeout: 15_000 }).toBeGreaterThanOrEqual(INTRO_START);
    const reported = first.page.waitForResponse((r) => r.url().includes('/api/segments/report'), { timeout: 30_000 });
    await seekTo(first.page, INTRO_END + 0.3);
    const res = await reported;
    expect(res.status()).toBe(200);
    const body = res.request().postDataJSON() as { start: number; end: number; duration: number; via: string; back: boolean };
    expect(body).toMatchObject({ kind: 'intro', via: 'seek', back: false, stepped: false });
    expect(body.start).toBeGreaterThanOrEqual(INTRO_START - 0.5);
    expect(body.end).toBeCloseTo(INTRO_END + 0.3, 0);
    await first.context.close();
    // Four more devices, posted as their players would (five real players at once are more than this machine's two
    // cores play in time): their own device ids, landings a little further on.
    for (let i = 1; i <= 4; i++) {
      const sent = await fetch(`${b.baseURL()}/api/segments/report`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          ...body,
          device: `skip-intro-e2e-device-${i}`,
          before: undefined,
          start: body.start + i * 0.1,
          end: INTRO_END + 0.3 + i * 0.6,
        }),
      });
      expect(sent.status).toBe(200);
    }
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
