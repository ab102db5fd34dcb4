// "Xem tiếp" that knows the next episode (issue 40 §6), on a phone: an episode closed in its credits gives way to the
// next one, which a tap plays from its start; the last episode of an ongoing series waits for the next.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { DEMO, freeSeries } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, signInByTouch, tap } from './helpers/phone';

const b = setupBrowser();

/** This device's history says it stopped there in the film (as the watch page records it); the film page is then loaded. */
async function stoppedAt(page: Page, slug: string, at: { episode: number; time: number; duration: number; credits?: number }) {
  await page.goto(`/${slug}`);
  await page.evaluate(
    ({ slug, at }) =>
      localStorage.setItem(
        'phimviet:watch-history',
        JSON.stringify([{ slug, title: slug, poster: '', server: '', ...at, updatedAt: Date.now() }]),
      ),
    { slug, at },
  );
  await page.reload();
}

describe('resume knows the next episode', () => {
  test('episode 1 closed at 95 %: the film page offers "Xem tập 2", which plays episode 2 from 0', async () => {
    const series = await freeSeries(b.baseURL());
    const [first, second] = series.episodes;
    const { page, context, errors } = await b.newPage(PHONE);
    // Where this device stopped, as the watch page records it: 95 % into the first episode (its credits).
    await stoppedAt(page, series.slug, { episode: first!, time: 19, duration: 20 });
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
    await stoppedAt(page, series.slug, { episode: first!, time: 15, duration: 20, credits: 14 });
    await page.getByRole('button', { name: `Xem tập ${second}`, exact: true }).waitFor();
    expect(await page.getByRole('button', { name: /Xem tiếp tập/ }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});

/** A free series with at least three episodes that is not the first such (other files take the first one). */
async function anotherSeries(baseURL: string): Promise<{ slug: string; title: string; episodes: number[] }> {
  const list = (await (await fetch(`${baseURL}/api/product/product-phimbo`)).json()) as { data: { slug: string }[] };
  const found: { slug: string; title: string; episodes: number[] }[] = [];
  for (const { slug } of list.data) {
    const detail = (await (await fetch(`${baseURL}/api/product/${slug}`)).json()) as {
      datafilm: { VIP1: number; title: string; linkfilms: { episode: number }[] };
    };
    if (detail.datafilm.VIP1 === 0 && detail.datafilm.linkfilms.length >= 3)
      found.push({ slug, title: detail.datafilm.title, episodes: detail.datafilm.linkfilms.map((e) => e.episode) });
    if (found.length === 2) return found[1]!;
  }
  throw new Error('no second free series with three episodes in the demo catalogue');
}

/** The account's API with a token of its own (the admin adding an episode, as the back office would). */
async function apiToken(baseURL: string, account: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${baseURL}/api/dang-nhap`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { token: string }).token;
}

describe('a member’s other devices know the next episode', () => {
  test('episode watched past 90 % on one phone: on another, ✓ on it, "Xem tập N+1", then "Tập mới" on "Xem tiếp", whose tap plays it', async () => {
    const baseURL = b.baseURL();
    const series = await anotherSeries(baseURL);
    const [first, second] = series.episodes;
    const member = await apiToken(baseURL, DEMO.user);
    const asMember = (method: string, path: string) =>
      fetch(`${baseURL}${path}`, { method, headers: { authorization: `Bearer ${member}` } });
    expect((await asMember('DELETE', '/api/me/history')).status).toBe(200);

    // Phone A: taps "Phát" on the first episode, jumps to 90 % with the key 9, and pauses once past it.
    const a = await b.newPage(PHONE);
    await signInByTouch(a.page, DEMO.user);
    await a.page.goto(`/xem-phim/${series.slug}/tap-${first}`);
    const video = a.page.getByTestId('video');
    await tap(a.page, a.page.getByRole('button', { name: 'Phát' }));
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.5);
    await a.page.keyboard.press('9');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime / v.duration), { timeout: 10_000 }).toBeGreaterThan(0.92);
    await a.page.keyboard.press('k');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    type Progress = { data: { episode: number; position: number; duration: number }[] };
    const watched = async () => {
      const p = ((await (await asMember('GET', `/api/me/progress?slug=${series.slug}`)).json()) as Progress).data.find(
        (e) => e.episode === first,
      );
      return !!p && p.duration > 0 && p.position >= p.duration * 0.9;
    };
    await expect.poll(watched, { timeout: 10_000 }).toBe(true);
    expect(a.errors).toEqual([]);
    await a.context.close();

    // Phone B: nothing on it, signed in as the same member: ✓ on the first episode, and the button offers the second.
    const phone = await b.newPage(PHONE);
    await signInByTouch(phone.page, DEMO.user);
    await phone.page.goto(`/${series.slug}`);
    await phone.page.getByRole('button', { name: `Xem tập ${second}`, exact: true }).waitFor({ timeout: 15_000 });
    // ✓ on the first episode, said in words to a screen reader; the second has no mark.
    const episodeLink = (n: number) => phone.page.locator(`a.episode-link[href^="/xem-phim/${series.slug}/tap-${n}?"]`).first();
    await episodeLink(first!).locator('.episode-check').waitFor();
    expect(await episodeLink(first!).textContent()).toMatch(/✓ \(.+\) · Đã xem$/);
    expect(await phone.page.getByRole('link', { name: / · Đã xem$/ }).count()).toBeGreaterThan(0);
    expect(await episodeLink(second!).textContent()).not.toContain('Đã xem');
    await screenshot(phone.page, 'resume-next-other-device');

    // A new episode comes (the back office adds it): home's "Xem tiếp" card says "Tập mới" and offers the second.
    const admin = await apiToken(baseURL, DEMO.admin);
    const added = Math.max(...series.episodes) + 1;
    const create = await fetch(`${baseURL}/api/product/create_xemphim`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json' },
      body: JSON.stringify({ selectedTitle: series.slug, episode: added, linkfilm: `${baseURL}/demo-media/hls/clip.m3u8` }),
    });
    expect(create.status).toBeLessThan(300);
    await phone.page.goto('/');
    const card = phone.page.locator('.continue-item', { hasText: series.title });
    await card.getByText('Tập mới', { exact: true }).waitFor({ timeout: 15_000 });
    const link = card.getByRole('link', { name: new RegExp(`Xem tập ${second}`) });
    expect(await link.getAttribute('href')).toBe(`/xem-phim/${series.slug}/tap-${second}`);
    await screenshot(phone.page, 'resume-next-continue-new');
    // One tap on the card plays the next episode.
    await tap(phone.page, link);
    await phone.page.waitForURL((u) => u.pathname === `/xem-phim/${series.slug}/tap-${second}`);
    await expect
      .poll(() => phone.page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid="video"]')?.paused ?? true), {
        timeout: 15_000,
      })
      .toBe(false);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });
});
