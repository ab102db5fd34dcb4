import { describe, expect, test } from 'vitest';
import { screenshot, setupBrowser } from './helpers/browser';

const b = setupBrowser();

describe('listing pages', () => {
  test('breadcrumb, heading, 25 cards and the per-page title', async () => {
    const { page, context, errors } = await b.newPage();
    await page.goto('/phim-bo');
    await page.getByRole('heading', { level: 1, name: 'Phim Bộ' }).waitFor();
    await expect.poll(() => page.locator('.film-grid .film-card').count()).toBe(25);
    expect(await page.locator('.breadcrumb').innerText()).toMatch(/PhimViet\s*>\s*Phim Bộ/);
    expect(await page.title()).toBe('Phim Bộ | PhimViet - Xem phim online');
    expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(/\/phim-bo$/);
    const card = page.locator('.film-card').first();
    expect(await card.locator('.badge-status').innerText()).toMatch(/-/);
    expect(await card.locator('.badge-episodes').innerText()).toMatch(/Tập/);
    const img = card.locator('img');
    expect(await img.getAttribute('width')).toBe('175');
    expect(await img.getAttribute('height')).toBe('245');
    await screenshot(page, 'listing-desktop');
    // The sidebar's lists are not in the page the host sent: the page asks for them and shows them when scrolled to.
    const action = page.getByRole('region', { name: 'PHIM HÀNH ĐỘNG' });
    await action.scrollIntoViewIfNeeded();
    await expect.poll(() => action.locator('a.side-item').count()).toBeGreaterThan(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test("'Lọc phim' writes the filters into the query string; reload and back/forward keep them", async () => {
    const { page, context } = await b.newPage();
    await page.goto('/phim-bo');
    await expect.poll(() => page.locator('.film-grid .film-card').count()).toBe(25);
    const before = await page.locator('.film-card-title').allInnerTexts();
    await page.getByLabel('Sắp xếp').selectOption('views');
    await page.getByLabel('Quốc gia').selectOption('han-quoc');
    await page.getByRole('button', { name: 'Lọc phim' }).click();
    await page.waitForURL((u) => u.searchParams.get('sort') === 'views' && u.searchParams.get('country') === 'han-quoc');
    await expect.poll(() => page.locator('.film-card-title').allInnerTexts()).not.toEqual(before);
    const filtered = await page.locator('.film-card-title').allInnerTexts();
    await page.reload();
    await expect.poll(() => page.locator('.film-card-title').allInnerTexts()).toEqual(filtered);
    expect(await page.getByLabel('Sắp xếp').inputValue()).toBe('views');
    expect(await page.getByLabel('Quốc gia').inputValue()).toBe('han-quoc');
    await page.goBack();
    await page.waitForURL((u) => u.pathname === '/phim-bo' && u.search === '');
    await expect.poll(() => page.getByLabel('Quốc gia').inputValue()).toBe('');
    await expect.poll(() => page.locator('.film-card-title').allInnerTexts()).toEqual(before);
    await page.goForward();
    await expect.poll(() => page.getByLabel('Quốc gia').inputValue()).toBe('han-quoc');
    await context.close();
  });

  test('pagination: five page links, next > moves to page 2 and back restores page 1', async () => {
    const { page, context } = await b.newPage();
    await page.goto('/phim-bo');
    await expect.poll(() => page.locator('.film-grid .film-card').count()).toBe(25);
    const first = await page.locator('.film-card-title').allInnerTexts();
    const pager = page.getByRole('navigation', { name: 'Phân trang' });
    expect(await pager.getByText('< previous').count()).toBe(1);
    expect(await pager.locator('a[aria-label^="Trang "]').count()).toBe(5);
    await pager.getByRole('link', { name: 'next >' }).click();
    await page.waitForURL((u) => u.searchParams.get('page') === '2');
    await expect.poll(() => page.locator('.film-card-title').allInnerTexts()).not.toEqual(first);
    expect(await pager.locator('[aria-current="page"]').innerText()).toBe('2');
    expect(await page.title()).toContain('Trang 2');
    await page.goBack();
    await expect.poll(() => page.locator('.film-card-title').allInnerTexts()).toEqual(first);
    await context.close();
  });

  test('genre and country pages use their own labels', async () => {
    const { page, context } = await b.newPage();
    await page.goto('/the-loai/khoa-hoc');
    await page.getByRole('heading', { level: 1, name: 'Phim Khoa Học' }).waitFor();
    await page.goto('/han-quoc');
    await page.getByRole('heading', { level: 1, name: 'Phim Hàn Quốc' }).waitFor();
    await expect.poll(() => page.locator('.film-grid .film-card, .empty').count()).toBeGreaterThan(0);
    await context.close();
  });
});
