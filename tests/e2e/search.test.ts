import { describe, expect, test } from 'vitest';
import { screenshot, setupBrowser } from './helpers/browser';

const b = setupBrowser();

describe('search', () => {
  test("typing 'dat rung' suggests 'Đất Rừng…' and Enter lands on the results", async () => {
    const { page, context, errors } = await b.newPage();
    await page.goto('/');
    const box = page.getByRole('combobox', { name: 'Tìm kiếm phim' });
    await box.click();
    await box.pressSequentially('dat rung', { delay: 30 });
    const options = page.getByRole('option');
    // Typing is slower than the debounce on a busy machine: 'dat' may show its own suggestions first.
    await expect.poll(() => options.first().innerText(), { timeout: 20_000 }).toMatch(/^Đất Rừng/);
    expect(await options.count()).toBeLessThanOrEqual(5);
    await screenshot(page, 'search-suggestions');
    await box.press('Enter');
    await page.waitForURL(/\/tim-kiem\/dat(%20| )rung$/);
    await page.getByRole('heading', { name: /Kết quả tìm kiếm/ }).waitFor();
    await expect.poll(() => page.locator('.film-card-title').first().innerText()).toMatch(/^Đất Rừng/);
    await screenshot(page, 'search-results');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('arrow keys pick a suggestion and Enter opens that film; Escape closes the list', async () => {
    const { page, context } = await b.newPage();
    await page.goto('/');
    const box = page.getByRole('combobox', { name: 'Tìm kiếm phim' });
    await box.fill('dat rung');
    await page.getByRole('option').first().waitFor();
    await box.press('Escape');
    await expect.poll(() => page.getByRole('listbox').isVisible()).toBe(false);
    await box.press('ArrowDown');
    await page.getByRole('option', { selected: true }).waitFor();
    await box.press('Enter');
    await page.waitForURL((u) => u.pathname === '/dat-rung-phuong-nam');
    await page.getByRole('heading', { level: 1, name: 'Đất Rừng Phương Nam' }).waitFor();
    await context.close();
  });

  test('a shared results link works on a direct visit', async () => {
    const { page, context } = await b.newPage();
    await page.goto('/tim-kiem/dat%20rung');
    await expect.poll(() => page.locator('.film-card-title').first().innerText()).toMatch(/^Đất Rừng/);
    await page.reload();
    await expect.poll(() => page.locator('.film-card-title').first().innerText()).toMatch(/^Đất Rừng/);
    await context.close();
  });
});
