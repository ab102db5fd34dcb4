import { describe, expect, test } from 'vitest';
import { screenshot, setupBrowser, waitForServiceWorker } from './helpers/browser';

const b = setupBrowser();

describe('installable offline PWA', () => {
  test('the manifest is served with the install fields', async () => {
    const res = await fetch(`${b.baseURL()}/manifest.webmanifest`);
    expect(res.ok).toBe(true);
    const manifest = (await res.json()) as {
      lang: string;
      name: string;
      short_name: string;
      display: string;
      theme_color: string;
      icons: { sizes: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({ lang: 'vi', display: 'standalone' });
    expect(manifest.name).toBeTruthy();
    expect(manifest.short_name).toBeTruthy();
    expect(manifest.theme_color).toMatch(/^#/);
    expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(manifest.icons.some((i) => i.purpose === 'maskable')).toBe(true);
    for (const icon of manifest.icons as unknown as { src: string }[]) expect((await fetch(`${b.baseURL()}${icon.src}`)).ok).toBe(true);
  });

  test('Chromium finds the app installable once the service worker runs', { timeout: 120_000 }, async () => {
    const { page, context } = await b.newPage();
    await page.goto('/');
    await waitForServiceWorker(page);
    // Test contexts are incognito, which alone blocks installing; nothing else may be missing.
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
    expect(installabilityErrors.filter((e) => e.errorId !== 'in-incognito')).toEqual([]);
    const { errors: manifestErrors } = await cdp.send('Page.getAppManifest');
    expect(manifestErrors).toEqual([]);
    await context.close();
  });

  test('offline: pages seen before render from cache, an unseen page shows the offline page', { timeout: 150_000 }, async () => {
    const { page, context } = await b.newPage();
    await page.goto('/');
    // The service worker installs, claims the page and then controls it.
    await waitForServiceWorker(page);
    expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toMatch(/\/sw\.js$/);
    // Visit home and a listing while online (now through the worker, which caches what they read).
    await page.reload();
    await expect.poll(() => page.locator('.film-card').count()).toBeGreaterThan(0);
    await page.goto('/phim-le');
    await expect.poll(() => page.locator('.film-grid .film-card').count()).toBe(25);
    const listingTitles = await page.locator('.film-card-title').allInnerTexts();

    await context.setOffline(true);
    await page.goto('/');
    await page.getByTestId('offline-banner').waitFor();
    expect(await page.getByTestId('offline-banner').innerText()).toContain('Bạn đang ngoại tuyến');
    await expect.poll(() => page.locator('.film-card').count()).toBeGreaterThan(0);
    await screenshot(page, 'offline-home');
    await page.goto('/phim-le');
    await expect.poll(() => page.locator('.film-card-title').allInnerTexts()).toEqual(listingTitles);
    await page.reload();
    await expect.poll(() => page.locator('.film-card-title').allInnerTexts()).toEqual(listingTitles);
    await screenshot(page, 'offline-listing');

    await page.goto('/mat-biec');
    await page.getByTestId('offline-page').waitFor();
    expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe('Bạn đang ngoại tuyến');
    await screenshot(page, 'offline-unvisited');
    await context.setOffline(false);
    await context.close();
  });
});
