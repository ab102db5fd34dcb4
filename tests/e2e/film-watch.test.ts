import type { Request } from 'playwright-core';
import { freeSeries } from './helpers/accounts';
import { describe, expect, test } from 'vitest';
import { expectVideoPlays, screenshot, setupBrowser } from './helpers/browser';

const b = setupBrowser();

describe('film and watch pages', () => {
  test('film page shows metadata, episodes by server, rating, comments and records one view', async () => {
    const { page, context, errors } = await b.newPage();
    // One POST /api/product/update_view per visit (the API's detail may cache the count briefly).
    const isViewPost = (r: Request) => r.url().endsWith('/api/product/update_view') && r.method() === 'POST';
    const viewPosts: number[] = [];
    const viewRequests: string[] = [];
    page.on('request', (r) => {
      if (isViewPost(r)) viewRequests.push(r.url());
    });
    page.on('response', (r) => {
      if (isViewPost(r.request())) viewPosts.push(r.status());
    });
    await page.goto('/dat-rung-phuong-nam');
    await page.getByRole('heading', { level: 1, name: 'Đất Rừng Phương Nam' }).waitFor();
    await page.getByRole('tab', { name: 'Danh sách tập' }).waitFor();
    expect(await page.locator('.episode-server-name').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('rating-summary').innerText()).toMatch(/(N\/A|\d+\.\d) điểm \/ \d+ lượt đánh giá/);
    await page.getByRole('heading', { name: /^Bình luận \(\d+\)$/ }).waitFor();
    expect(await page.getByPlaceholder('Để lại bình luận ...').count()).toBe(1);
    await page.getByRole('tab', { name: 'Thông tin phim' }).click();
    await page.getByRole('heading', { name: 'Nội dung phim' }).waitFor();
    expect(await page.title()).toContain('Đất Rừng Phương Nam');
    await expect.poll(() => viewPosts).toEqual([200]);
    // A second view POST would come from the page's mount, long before this request the test makes
    // the page send now; request events arrive in the order the page sends them.
    const marker = page.waitForRequest((r) => r.url().endsWith('/api/health'));
    await page.evaluate(() => fetch('/api/health').then((r) => r.status));
    await marker;
    expect(viewRequests).toHaveLength(1);
    expect(viewPosts).toEqual([200]);
    await screenshot(page, 'film-desktop', true);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('film page → watch page plays (currentTime advances) and next episode works', async () => {
    const { slug, episodes } = await freeSeries(b.baseURL());
    const { page, context, errors } = await b.newPage();
    await page.goto(`/${slug}`);
    await page.getByRole('button', { name: /Xem phim|Xem tiếp/ }).click();
    await page.waitForURL(new RegExp(`/xem-phim/${slug}/tap-${episodes[0]}`));
    await expect.poll(() => page.title()).toMatch(new RegExp(`^Xem phim .+ - Tập ${episodes[0]}$`));
    const video = page.getByTestId('video');
    await video.waitFor();
    await page.locator('.episode-link.current').first().waitFor();
    await expectVideoPlays(page);
    await screenshot(page, 'watch-desktop');
    // Keyboard: m mutes/unmutes, space pauses.
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    const muted = await video.evaluate((v: HTMLVideoElement) => v.muted);
    await page.keyboard.press('m');
    expect(await video.evaluate((v: HTMLVideoElement) => v.muted)).toBe(!muted);
    await page.keyboard.press(' ');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.paused)).toBe(true);
    // Next episode.
    await page.getByTestId('next-episode').click();
    await page.waitForURL(new RegExp(`/xem-phim/${slug}/tap-${episodes[1]}`));
    await expect.poll(() => page.locator('.episode-link.current').first().innerText()).toContain(String(episodes[1]));
    // At the last episode the button is greyed.
    await page.goto(`/xem-phim/${slug}/tap-${episodes.at(-1)}`);
    await page.getByTestId('next-episode').waitFor();
    expect(await page.getByTestId('next-episode').isDisabled()).toBe(true);
    // Lights off and back on.
    await page.getByRole('button', { name: 'Tắt đèn' }).click();
    expect(await page.locator('body.lights-off').count()).toBe(1);
    await page.getByRole('button', { name: 'Bật đèn' }).click();
    expect(await page.locator('body.lights-off').count()).toBe(0);
    // Report an error: stored by the API (201), thanked with a toast.
    const reported = page.waitForResponse((r) => r.url().endsWith('/api/product/report_error'));
    await page.getByRole('button', { name: 'Báo lỗi' }).click();
    await page.getByRole('dialog').getByLabel('Sai tập phim').check();
    await page
      .getByRole('dialog')
      .getByLabel(/Mô tả thêm/)
      .fill('Tập này phát nhầm nội dung tập trước.');
    await page.getByRole('button', { name: 'Gửi báo lỗi' }).click();
    expect((await reported).status()).toBe(201);
    await page.getByText('Cảm ơn bạn! Báo lỗi đã được gửi tới quản trị viên.').waitFor();
    expect(errors).toEqual([]);
    // This device's history now offers "Xem tiếp" on home.
    await page.goto('/');
    await page.getByRole('heading', { name: 'Xem tiếp' }).waitFor();
    await context.close();
  });

  test("unknown episode shows 'Error: …'", async () => {
    const { page, context } = await b.newPage();
    await page.goto('/xem-phim/dat-rung-phuong-nam/tap-999');
    await page.getByText(/^Error: /).waitFor();
    await context.close();
  });
});
