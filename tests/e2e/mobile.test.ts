import { describe, expect, test } from 'vitest';
import { screenshot, setupBrowser } from './helpers/browser';

const b = setupBrowser();
const phone = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

describe('mobile (390x844)', () => {
  test('the menu button toggles the navigation and nothing overflows sideways', async () => {
    const { page, context, errors } = await b.newPage(phone);
    await page.goto('/');
    await expect.poll(() => page.locator('.hot-slide a').count()).toBeGreaterThan(0);
    const nav = page.locator('#site-nav');
    const toggle = page.getByRole('button', { name: 'Mở menu' });
    expect(await toggle.isVisible()).toBe(true);
    expect(await nav.isVisible()).toBe(false);
    await screenshot(page, 'home-mobile');
    await toggle.click();
    expect(await nav.isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Thể loại' }).click();
    await page.getByRole('link', { name: 'Hành Động' }).first().waitFor();
    await screenshot(page, 'menu-mobile');
    await page.getByRole('link', { name: 'Hành Động' }).first().click();
    await page.waitForURL((u) => u.pathname === '/the-loai/hanh-dong');
    expect(await nav.isVisible()).toBe(false);
    await page.getByRole('heading', { level: 1, name: 'Phim Hành Động' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'listing-mobile');
    await page.goto('/dat-rung-phuong-nam');
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, 'film-mobile');
    expect(errors).toEqual([]);
    await context.close();
  });
});
