// Issue 15, goal 7: offline, honestly. The page a visitor first landed on opens offline once the service
// worker runs; the banner claims saved content only when the page shows it; offline suggestions say so;
// the watch page says why in Vietnamese; pages recover by themselves when the network returns.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { freeFilms } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, tapAndType } from './helpers/phone';

const b = setupBrowser();
const SAVED = 'đang hiển thị nội dung đã lưu';

/** The worker takes control of the first page by itself (no reload), and keeps what that page read. */
async function landedPageKept(page: Page, apiPath: string): Promise<void> {
  await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 90_000 });
  await expect
    .poll(() => page.evaluate(async (path) => !!(await (await caches.open('api-catalogue')).match(path)), apiPath), { timeout: 30_000 })
    .toBe(true);
}

describe('offline, honestly (phone)', () => {
  test('the landing page opens offline; banner, suggestions and an unsaved page say the truth; back online it recovers', {
    timeout: 180_000,
  }, async () => {
    const { page, context, errors } = await b.newPage(PHONE);
    await page.goto('/');
    await landedPageKept(page, '/api/product/product-home');
    const titles = await page.locator('.film-card-title').allInnerTexts();
    expect(titles.length).toBeGreaterThan(0);

    await context.setOffline(true);
    await page.reload();
    await expect.poll(() => page.locator('.film-card-title').allInnerTexts()).toEqual(titles);
    expect(await page.getByTestId('offline-page').count()).toBe(0);
    await expect.poll(() => page.getByTestId('offline-banner').innerText()).toContain(SAVED);
    await screenshot(page, 'offline-landing-page');

    // A search the device never made: not "no match", but offline.
    await tapAndType(page, page.getByRole('combobox', { name: 'Tìm kiếm phim' }), 'phim chưa từng tìm');
    const empty = page.locator('.suggestion-empty');
    await empty.waitFor();
    expect(await empty.innerText()).toBe('Bạn đang ngoại tuyến');
    // The page under it is still the saved one.
    expect(await page.getByTestId('offline-banner').innerText()).toContain(SAVED);
    await screenshot(page, 'offline-suggestions');
    await page.keyboard.press('Escape');

    // A film never opened here: the offline page, and the banner claims nothing saved.
    const [unseen] = await freeFilms(b.baseURL());
    await page.goto(`/${unseen}`);
    await page.getByTestId('offline-page').waitFor();
    const banner = await page.getByTestId('offline-banner').innerText();
    expect(banner).toContain('Bạn đang ngoại tuyến');
    expect(banner).not.toContain(SAVED);
    await screenshot(page, 'offline-unsaved-page');

    // The network returns: the page loads by itself, no reload, no tap.
    await context.setOffline(false);
    await page.getByRole('heading', { level: 1 }).filter({ hasNotText: 'Bạn đang ngoại tuyến' }).waitFor({ timeout: 20_000 });
    expect(await page.getByTestId('offline-page').count()).toBe(0);
    expect(await page.getByTestId('offline-banner').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the watch page offline says why in Vietnamese, and loads the episode by itself when back online', {
    timeout: 180_000,
  }, async () => {
    const [slug] = (await freeFilms(b.baseURL())).slice(-1);
    const { page, context } = await b.newPage(PHONE);
    await page.goto(`/${slug}`);
    await landedPageKept(page, `/api/product/${slug}`);
    await context.setOffline(true);
    await page.goto(`/xem-phim/${slug}/tap-1`);
    const message = page.getByText('Bạn đang ngoại tuyến: cần kết nối mạng để phát video. Video sẽ tự tải lại khi có mạng.');
    await message.waitFor();
    expect(await page.getByText(/Failed to fetch|Error:/).count()).toBe(0);
    await screenshot(page, 'offline-watch-page');
    await context.setOffline(false);
    await message.waitFor({ state: 'hidden', timeout: 20_000 });
    await page.locator('.player-box video, .player-box iframe, video').first().waitFor({ timeout: 20_000 });
    await context.close();
  });
});
