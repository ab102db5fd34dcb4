import { describe, expect, test } from 'vitest';
import { DEMO } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, signInByTouch, tap } from './helpers/phone';

const b = setupBrowser();

describe('mobile (390x844)', () => {
  test('the menu button toggles the navigation and nothing overflows sideways', async () => {
    const { page, context, errors } = await b.newPage(PHONE);
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

  test('after signing in, the welcome toast sits below the header: the menu button can be tapped at once', async () => {
    const { page, context, errors } = await b.newPage(PHONE);
    await page.goto('/dang-nhap');
    await signInByTouch(page, DEMO.user);
    const toast = page.locator('[data-sonner-toast]').first();
    await toast.waitFor({ state: 'visible' });
    const header = await page.locator('.site-header').boundingBox();
    // Once it has slid in (its box stops moving), its top is below the header's bottom.
    let settled = -1;
    await expect
      .poll(async () => {
        const y = (await toast.boundingBox())?.y ?? -1;
        const same = y === settled;
        settled = y;
        return same;
      })
      .toBe(true);
    expect(settled).toBeGreaterThanOrEqual(header!.y + header!.height);
    await screenshot(page, 'toast-below-header-mobile');
    // While the toast still shows, a finger on the menu button opens the menu.
    await tap(page, page.getByRole('button', { name: 'Mở menu' }));
    expect(await page.locator('#site-nav').isVisible()).toBe(true);
    expect(await toast.isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
