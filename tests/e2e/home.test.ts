import { describe, expect, test } from 'vitest';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, tap } from './helpers/phone';

const b = setupBrowser();

describe('home', () => {
  test('shows the hot carousel, the three tabs, the sections and the sidebar from the API', async () => {
    const { page, context, errors } = await b.newPage();
    await page.goto('/');
    await expect.poll(() => page.locator('.hot-slide a').count()).toBeGreaterThan(0);
    await page.locator('.swiper-initialized').waitFor();
    for (const text of ['Phim bộ mới cập nhật', 'Phim lẻ mới cập nhật', 'Phim đã hoàn thành']) {
      expect(await page.getByRole('tab', { name: text }).count()).toBe(1);
    }
    for (const heading of [
      'Phim hoạt hình',
      'Phim tâm lý tình cảm',
      'Phim viễn tưởng',
      'PHIM HÀNH ĐỘNG',
      'Trending',
      'NĂM PHÁT HÀNH',
      'PHIM SẮP CHIẾU',
    ]) {
      await expect.poll(() => page.getByRole('heading', { name: heading, exact: true }).count()).toBe(1);
    }
    // The tabs switch the list shown.
    const panelTitles = () => page.locator('[role="tabpanel"]:not([hidden]) .film-card-title').allInnerTexts();
    const series = await panelTitles();
    expect(series.length).toBeGreaterThan(0);
    await page.getByRole('tab', { name: 'Phim lẻ mới cập nhật' }).click();
    await expect.poll(panelTitles).not.toEqual(series);
    // Release years: current year downward, no duplicate.
    const years = await page.locator('.year-buttons a').allInnerTexts();
    expect(years).toHaveLength(7);
    expect(new Set(years).size).toBe(7);
    expect(Number(years[0])).toBe(new Date().getFullYear());
    // Trending tabs are real tabs.
    await page.getByRole('tab', { name: 'Tuần' }).click();
    expect(await page.getByRole('tab', { name: 'Tuần' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByTestId('trending-panel').locator('li').count()).toBeGreaterThan(0);
    expect(await page.title()).toContain('PhimViet');
    await screenshot(page, 'home-desktop');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('phone: when the rest of the home cannot load, its lists say so and a tap on Thử lại brings them', async () => {
    const { page, context } = await b.newPage(PHONE);
    // The first screen comes in the page; every other list of the home fails until the tap on Thử lại.
    let lifted = false;
    await context.route('**/api/product/product-home', (route) =>
      lifted ? route.continue() : route.fulfill({ status: 503, json: { error: { code: 'unavailable', message: 'x' } } }),
    );
    await page.goto('/');
    await expect.poll(() => page.locator('.hot-slide a').count()).toBeGreaterThan(0);
    const panel = page.locator('.home-tabs [role="tabpanel"]:not([hidden])');
    expect(await panel.locator('.film-card-title').count()).toBeGreaterThan(0);
    await tap(page, page.getByRole('tab', { name: 'Phim lẻ mới cập nhật' }));
    // After the query's own retries.
    await panel.getByText('Không tải được danh sách phim.').waitFor({ timeout: 20_000 });
    await panel.scrollIntoViewIfNeeded();
    await screenshot(page, 'home-rest-failed-mobile');
    // Sections scrolled into view ask again (and fail again) on their own: tap once the button has stayed put.
    const retry = panel.getByRole('button', { name: 'Thử lại' });
    let box = await retry.boundingBox();
    for (let steady = 0, i = 0; steady < 4 && i < 120; i++) {
      await page.waitForTimeout(250);
      const now = await retry.boundingBox();
      steady = now && box && now.x === box.x && now.y === box.y ? steady + 1 : 0;
      box = now;
    }
    lifted = true;
    await page.touchscreen.tap(box!.x + box!.width / 2, box!.y + box!.height / 2);
    await expect.poll(() => panel.locator('.film-card-title').count()).toBeGreaterThan(0);
    await context.close();
  });

  test("phone: the first load fetches the posters in view, not the carousel's hidden ones; a touch brings them", async () => {
    const { page, context, errors } = await b.newPage(PHONE);
    const images: string[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'image') images.push(new URL(r.url()).pathname);
    });
    await page.goto('/', { waitUntil: 'load' });
    await page.waitForTimeout(1000);
    const slides = page.locator('.hot-slide');
    expect(await slides.count()).toBeGreaterThan(4);
    // Two slides fit a phone's row; before Swiper takes over the others are not rendered and their posters wait (the
    // first three are the page's likely LCP, asked for eagerly). A poster another list shows is left out of the count.
    expect(await slides.nth(1).isVisible()).toBe(true);
    expect(await slides.nth(3).isVisible()).toBe(false);
    expect(images).toContain(
      await slides
        .nth(0)
        .locator('img')
        .evaluate((img: HTMLImageElement) => new URL(img.src).pathname),
    );
    const waiting = await page.evaluate(() => {
      const path = (img: HTMLImageElement | null | undefined) => (img ? new URL(img.src).pathname : '');
      const elsewhere = new Set([...document.images].filter((i) => !i.closest('.hot-carousel')).map(path));
      return [...document.querySelectorAll('.hot-slide')]
        .slice(3)
        .map((slide) => path(slide.querySelector('img')))
        .filter((src) => src && !elsewhere.has(src));
    });
    expect(waiting.length).toBeGreaterThan(0);
    for (const src of waiting) expect(images).not.toContain(src);
    // Every image fetched is one the page shows: the poster's placeholder is drawn, not fetched, and the tab's icon is
    // a PNG (an SVG one was an SVG document built on each navigation).
    const shown = await page.evaluate(() => [...document.images].map((i) => new URL(i.src).pathname));
    expect(images.filter((p) => !shown.includes(p) && p !== '/icons/favicon-48.png')).toEqual([]);
    const placeholder = await page
      .locator('.film-grid .poster')
      .first()
      .evaluate((el) => ({ before: getComputedStyle(el, '::before').borderTopWidth, image: getComputedStyle(el).backgroundImage }));
    expect(placeholder).toEqual({ before: '3px', image: 'none' });
    // The viewer reaches for the carousel: Swiper takes over, every slide is there, and the next posters come.
    await tap(page, page.getByRole('button', { name: 'Phim tiếp theo' }));
    await page.locator('.swiper-initialized').waitFor();
    await expect.poll(() => images.includes(waiting[0]!)).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the 404 page says Page Not Found and links home', async () => {
    const { page, context } = await b.newPage();
    await page.goto('/khong-co-phim-nay-dau');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.goto('/not-found');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.goto('/a/b/c');
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await screenshot(page, 'not-found');
    await page.getByRole('link', { name: 'Về trang chủ' }).click();
    await page.waitForURL((u) => u.pathname === '/');
    await context.close();
  });
});
