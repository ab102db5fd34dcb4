import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { collectDialogs, DEMO, freeFilms, sessionStorageOf } from './helpers/accounts';
import { screenshot, setupBrowser, waitForServiceWorker } from './helpers/browser';
import { PHONE, signInByTouch, tap } from './helpers/phone';

const b = setupBrowser();

/** On a phone the header's links are in the menu: open it, tap "Tủ phim". */
async function openListFromMenu(page: Page): Promise<void> {
  await tap(page, page.getByRole('button', { name: 'Mở menu' }));
  await tap(page, page.getByRole('link', { name: 'Tủ phim' }));
  await page.getByRole('heading', { level: 1, name: 'Tủ phim' }).waitFor();
}

/** The account's state, asked of the server with the page's own token. */
async function serverGet<T>(baseURL: string, page: Page, path: string): Promise<T> {
  const { token } = await sessionStorageOf(page);
  const res = await fetch(`${baseURL}${path}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status).toBe(200);
  return (await res.json()) as T;
}

async function serverSend(baseURL: string, page: Page, method: string, path: string, json?: unknown): Promise<void> {
  const { token } = await sessionStorageOf(page);
  const res = await fetch(`${baseURL}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  expect(res.status).toBe(200);
}

const listSlugs = async (baseURL: string, page: Page) =>
  (await serverGet<{ data: { slug: string; notify: boolean }[] }>(baseURL, page, '/api/me/watchlist')).data;

async function emptyLibrary(baseURL: string, page: Page) {
  for (const { slug } of await listSlugs(baseURL, page)) await serverSend(baseURL, page, 'DELETE', `/api/me/watchlist/${slug}`);
  await serverSend(baseURL, page, 'DELETE', '/api/me/history');
}

describe("the member's library", () => {
  test('progress made on one device is the resume point on a phone signed in as the same member', async () => {
    const baseURL = b.baseURL();
    const [slug] = await freeFilms(baseURL);
    // The laptop: signs in with the keyboard, plays and pauses with a click on the picture.
    const laptop = await b.newPage();
    await laptop.page.goto('/dang-nhap');
    await laptop.page.getByLabel('Email').click();
    await laptop.page.keyboard.type(DEMO.user.email);
    await laptop.page.getByLabel('Mật khẩu').click();
    await laptop.page.keyboard.type(DEMO.user.password);
    await laptop.page.keyboard.press('Enter');
    await laptop.page.getByRole('link', { name: DEMO.user.name }).waitFor();
    await emptyLibrary(baseURL, laptop.page);

    await laptop.page.goto(`/xem-phim/${slug}/tap-1`);
    const video = laptop.page.getByTestId('video');
    // The big play button, over the picture, plays.
    await laptop.page.getByRole('button', { name: 'Phát' }).click();
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(1.5);
    await video.click({ position: { x: 40, y: 40 } });
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    // Paused (or the clip ended): the account hears the position at once.
    type Progress = { data: { episode: number; position: number }[] };
    const progress = () => serverGet<Progress>(baseURL, laptop.page, `/api/me/progress?slug=${slug}`);
    await expect.poll(async () => (await progress()).data[0]?.position ?? 0, { timeout: 10_000 }).toBeGreaterThan(1);
    const saved = (await progress()).data[0]!;

    // The phone: nothing on it, signed in as the same member.
    const phoneB = await b.newPage(PHONE);
    await signInByTouch(phoneB.page, DEMO.user);
    await phoneB.page.goto(`/${slug}`);
    const seconds = Math.floor(saved.position);
    const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    const resume = phoneB.page.getByRole('button', { name: new RegExp(`Xem tiếp tập ${saved.episode} từ 0?${clock}`) });
    await resume.waitFor({ timeout: 15_000 });
    await screenshot(phoneB.page, 'library-resume-other-device');
    // Home's "Xem tiếp" comes from the account too.
    await phoneB.page.goto('/');
    const continueRow = phoneB.page.locator('.continue-row');
    await continueRow.getByRole('link').first().waitFor();
    expect(await continueRow.locator(`a[href="/xem-phim/${slug}/tap-${saved.episode}"]`).count()).toBe(1);
    // The resume button opens the episode.
    await phoneB.page.goto(`/${slug}`);
    await tap(phoneB.page, resume);
    await phoneB.page.waitForURL((u) => u.pathname === `/xem-phim/${slug}/tap-${saved.episode}`);
    expect(laptop.errors).toEqual([]);
    expect(phoneB.errors).toEqual([]);
    await laptop.context.close();
    await phoneB.context.close();
  });

  test('a heart tapped offline reaches the account after reconnecting; a visitor’s list merges at sign-in', {
    timeout: 120_000,
  }, async () => {
    const baseURL = b.baseURL();
    const { page, context, errors } = await b.newPage(PHONE);
    // A visitor hearts a film: kept on the device.
    await page.goto('/phim-le');
    const firstCard = page.locator('.film-card').first();
    await firstCard.waitFor();
    const visitorSlug = (await firstCard.locator('a').first().getAttribute('href'))!.slice(1);
    const visitorHeart = firstCard.getByRole('button', { name: /vào Tủ phim/ });
    await tap(page, visitorHeart);
    await expect.poll(() => firstCard.getByRole('button', { name: /khỏi Tủ phim/ }).getAttribute('aria-pressed')).toBe('true');
    await screenshot(page, 'library-heart-mobile');

    await signInByTouch(page, DEMO.vip1);
    await expect.poll(async () => (await listSlugs(baseURL, page)).map((i) => i.slug), { timeout: 15_000 }).toContain(visitorSlug);
    await emptyLibrary(baseURL, page);

    await page.goto('/phim-bo');
    const card = page.locator('.film-card').nth(1);
    await card.waitFor();
    const slug = (await card.locator('a').first().getAttribute('href'))!.slice(1);
    await expect.poll(() => card.getByRole('button', { name: /vào Tủ phim/ }).isVisible()).toBe(true);

    // The installed app: its worker holds the pages' code, so the list page opens without a network.
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await tap(page, card.getByRole('button', { name: /vào Tủ phim/ }));
    await expect.poll(() => card.getByRole('button', { name: /khỏi Tủ phim/ }).getAttribute('aria-pressed')).toBe('true');
    // Offline: the account has not heard it; the list page shows it waiting.
    expect((await listSlugs(baseURL, page)).map((i) => i.slug)).not.toContain(slug);
    await openListFromMenu(page);
    await page.getByText('1 thay đổi đang chờ gửi khi có mạng.').waitFor();
    await screenshot(page, 'library-offline-pending');

    await context.setOffline(false);
    await expect.poll(async () => (await listSlugs(baseURL, page)).map((i) => i.slug), { timeout: 15_000 }).toContain(slug);
    await expect.poll(() => page.getByText('thay đổi đang chờ gửi').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the list page: new films first, notify bell, remove; it opens offline from the last copy', { timeout: 150_000 }, async () => {
    const baseURL = b.baseURL();
    const { page, context, errors } = await b.newPage(PHONE);
    await signInByTouch(page, DEMO.vip2);
    await emptyLibrary(baseURL, page);
    const slugs = (await freeFilms(baseURL, 'product-phimbo')).slice(0, 2);
    for (const slug of slugs) {
      await page.goto(`/${slug}`);
      await tap(page, page.locator('.watchlist-btn-page'));
      await expect.poll(async () => (await listSlugs(baseURL, page)).map((i) => i.slug)).toContain(slug);
    }
    await page.goto('/');
    await openListFromMenu(page);
    const items = page.locator('.library-item');
    await expect.poll(() => items.count()).toBe(2);
    // Newest first.
    expect(await items.first().getAttribute('data-slug')).toBe(slugs[1]);
    await page.getByRole('switch').waitFor();
    await screenshot(page, 'library-list-mobile');

    await tap(page, items.first().getByRole('button', { name: /Tắt thông báo tập mới/ }));
    await expect.poll(async () => (await listSlugs(baseURL, page)).find((i) => i.slug === slugs[1])?.notify).toBe(false);
    await tap(page, items.last().getByRole('button', { name: /khỏi Tủ phim/ }));
    await expect.poll(() => items.count()).toBe(1);
    await expect.poll(async () => (await listSlugs(baseURL, page)).map((i) => i.slug)).toEqual([slugs[1]]);

    // Offline, the page opens from the copy kept on the device (the installed app's shell).
    await waitForServiceWorker(page);
    await context.setOffline(true);
    await page.reload();
    await page.getByText('Bạn đang ngoại tuyến: đây là bản Tủ phim lưu lần trước.').waitFor();
    expect(await items.count()).toBe(1);
    await screenshot(page, 'library-list-offline');
    await context.setOffline(false);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the history page lists what was watched, newest first, with remove one and clear all', async () => {
    const baseURL = b.baseURL();
    const { page, context, errors } = await b.newPage(PHONE);
    const dialogs = collectDialogs(page);
    await signInByTouch(page, DEMO.admin);
    await emptyLibrary(baseURL, page);
    const [older, newer] = (await freeFilms(baseURL, 'product-phimbo')).slice(2, 4);
    const now = Date.now();
    await serverSend(baseURL, page, 'PUT', '/api/me/progress', {
      items: [
        { slug: older, episode: 1, position: 65, duration: 300, updatedAt: now - 60_000 },
        { slug: newer, episode: 2, position: 30, duration: 300, updatedAt: now - 1000 },
      ],
    });
    await page.goto('/lich-su');
    await page.getByRole('heading', { level: 1, name: 'Lịch sử xem' }).waitFor();
    const items = page.locator('.library-item');
    await expect.poll(() => items.evaluateAll((els) => els.map((e) => e.getAttribute('data-slug')))).toEqual([newer, older]);
    expect(await items.last().textContent()).toContain('Tập 1 · 1:05');
    await screenshot(page, 'library-history-mobile');
    await tap(page, items.first().getByRole('button', { name: /khỏi lịch sử xem/ }));
    await expect.poll(() => items.count()).toBe(1);
    type History = { data: { slug: string }[] };
    expect((await serverGet<History>(baseURL, page, '/api/me/history')).data.map((h) => h.slug)).toEqual([older]);
    await tap(page, page.getByRole('button', { name: 'Xoá tất cả' }));
    await page.getByText('Bạn chưa xem phim nào.').waitFor();
    expect(dialogs).toContain('Xoá toàn bộ lịch sử xem?');
    expect((await serverGet<History>(baseURL, page, '/api/me/history')).data).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});
