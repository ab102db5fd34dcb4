// "Lịch chiếu" (issue 40 §5) on a phone, as a person uses it: the week's tabs from today, a series' predicted next
// episode, the bell, and the film page behind the title. `npm start` gives the demo's ongoing series weeks of arrivals.
import { describe, expect, test } from 'vitest';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, tap } from './helpers/phone';

const b = setupBrowser();

describe('Lịch chiếu', () => {
  test('from the menu: seven tabs from today, a series with "Tập N · khoảng HH:MM", the bell, the film', async () => {
    const { page, context, errors } = await b.newPage(PHONE);
    await page.goto('/');
    await tap(page, page.getByRole('button', { name: 'Mở menu' }));
    await tap(page, page.getByRole('link', { name: 'Lịch chiếu' }));
    await page.getByRole('heading', { level: 1, name: 'Lịch chiếu' }).waitFor();
    const tabs = page.getByRole('tab');
    await expect.poll(() => tabs.count()).toBe(7);
    expect(await tabs.first().textContent()).toMatch(/^Hôm nay · \d\d\/\d\d/);
    expect(await tabs.first().getAttribute('aria-selected')).toBe('true');
    // The demo's series come on several weekdays: find the first tab with one, by tapping through the week.
    const items = page.locator('.schedule-item');
    let found = -1;
    for (let i = 0; i < 7 && found < 0; i++) {
      await tap(page, tabs.nth(i));
      await expect.poll(() => tabs.nth(i).getAttribute('aria-selected')).toBe('true');
      if ((await items.count()) > 0) found = i;
    }
    expect(found).toBeGreaterThanOrEqual(0);
    const first = items.first();
    expect(await first.textContent()).toMatch(/Tập \d+ · khoảng \d\d:\d\d|Đã có tập \d+ · \d\d:\d\d|Trễ lịch · Tập \d+/);
    await screenshot(page, 'schedule-phone');
    // The bell: a visitor's tap keeps the film on the device and says notifications need an account.
    const bell = first.getByRole('button', { name: /^Báo khi .+ có tập mới$/ });
    await tap(page, bell);
    await page.getByText('Đã thêm vào Tủ phim. Đăng nhập để nhận thông báo khi có tập mới.').waitFor();
    // The title opens the film page.
    const title = (await first.locator('.schedule-title').textContent())!;
    await tap(page, first.locator('.schedule-title'));
    await page.getByRole('heading', { level: 1, name: title }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
