// "Xem tiếp" that knows the next episode (issue 40 §6), on a phone: an episode closed in its credits gives way to the
// next one, which a tap plays from its start; the last episode of an ongoing series waits for the next.
import { describe, expect, test } from 'vitest';
import { freeSeries } from './helpers/accounts';
import { setupBrowser } from './helpers/browser';
import { PHONE, tap } from './helpers/phone';

const b = setupBrowser();

describe('resume knows the next episode', () => {
  test('episode 1 closed at 95 %: the film page offers "Xem tập 2", which plays episode 2 from 0', async () => {
    const series = await freeSeries(b.baseURL());
    const [first, second] = series.episodes;
    const { page, context, errors } = await b.newPage(PHONE);
    await page.goto(`/${series.slug}`);
    // Where this device stopped, as the watch page records it: 95 % into the first episode (its credits).
    await page.evaluate(
      ({ slug, episode }) =>
        localStorage.setItem(
          'phimviet:watch-history',
          JSON.stringify([{ slug, title: slug, poster: '', episode, server: '', time: 19, duration: 20, updatedAt: Date.now() }]),
        ),
      { slug: series.slug, episode: first! },
    );
    await page.reload();
    const button = page.getByRole('button', { name: `Xem tập ${second}`, exact: true });
    await button.waitFor();
    expect(await page.getByRole('button', { name: /Xem tiếp tập/ }).count()).toBe(0);
    await tap(page, button);
    await page.waitForURL(new RegExp(`/xem-phim/${series.slug}/tap-${second}(\\?|$)`));
    await expect
      .poll(() => page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid="video"]')?.paused ?? true), {
        timeout: 15_000,
      })
      .toBe(false);
    expect(await page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid="video"]')!.currentTime)).toBeLessThan(5);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('episode 1 closed at 75 %, past the credits viewers taught (issue 40 §7): the film page offers "Xem tập 2"', async () => {
    const series = await freeSeries(b.baseURL());
    const [first, second] = series.episodes;
    const { page, context, errors } = await b.newPage(PHONE);
    await page.goto(`/${series.slug}`);
    await page.evaluate(
      ({ slug, episode }) =>
        localStorage.setItem(
          'phimviet:watch-history',
          JSON.stringify([
            { slug, title: slug, poster: '', episode, server: '', time: 15, duration: 20, credits: 14, updatedAt: Date.now() },
          ]),
        ),
      { slug: series.slug, episode: first! },
    );
    await page.reload();
    await page.getByRole('button', { name: `Xem tập ${second}`, exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /Xem tiếp tập/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
