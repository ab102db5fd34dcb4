// Issue 40 §1–3 on the phone, against the demo catalogue: a director's name leads to their page and on to a film; the
// trailer loads nothing from YouTube until "Xem trailer" is tapped; the source's notice shows as text; an unknown
// person is a 404 page; the Top 10 row shows once ten films have three viewers today.
import { describe, expect, test } from 'vitest';
import { buildDemoCatalogue } from '../../demo/catalogue';
import { productDatabase, screenshot, setupBrowser } from './helpers/browser';
import { PHONE, tap } from './helpers/phone';

const b = setupBrowser();
const demo = buildDemoCatalogue();
const YOUTUBE = /^https:\/\/www\.youtube-nocookie\.com\//;

describe('people, the film page extras and the Top 10 on a phone', () => {
  test("a director's name opens their page, whose film opens the film", async () => {
    const { page, context, errors } = await b.newPage(PHONE);
    await page.goto('/dat-rung-phuong-nam');
    await tap(page, page.locator('.meta-list').getByRole('link', { name: 'Nguyễn Quang Dũng' }));
    await page.waitForURL('**/dao-dien/nguyen-quang-dung');
    await page.getByRole('heading', { level: 1, name: 'Nguyễn Quang Dũng' }).waitFor();
    // "N phim" and the N cards it counts (the demo's second source adds copies of some films).
    const count = /^Đạo diễn · (\d+) phim$/.exec(await page.locator('.person-count').innerText());
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(1);
    expect(await page.locator('.film-card').count()).toBe(Number(count?.[1]));
    await screenshot(page, 'person-page-mobile');
    await tap(page, page.locator('.film-card a', { hasText: 'Đất Rừng Phương Nam' }).first());
    await page.waitForURL((u) => u.pathname === '/dat-rung-phuong-nam');
    await page.getByRole('heading', { level: 1, name: 'Đất Rừng Phương Nam' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test('an unknown person is the not-found page with a 404 status', async () => {
    const { page, context } = await b.newPage(PHONE);
    const res = await page.goto('/dien-vien/khong-co-ai-ten-nay');
    expect(res?.status()).toBe(404);
    await page.getByText('Page Not Found').waitFor();
    await context.close();
  });

  test('"Xem trailer" asks YouTube for nothing until tapped; a notice sent as HTML shows as text', async () => {
    const film = demo.find((f) => f.trailer_url && f.notify && f.status === 'ongoing');
    expect(film).toBeDefined();
    const { page, context } = await b.newPage(PHONE);
    const asked: string[] = [];
    page.on('request', (r) => {
      if (YOUTUBE.test(r.url())) asked.push(r.url());
    });
    // No network in the test: the embed answers with an empty page.
    await context.route(YOUTUBE, (route) =>
      route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>yt</title>' }),
    );
    await page.goto(`/${film!.slug}`);
    await page.getByRole('button', { name: 'Xem trailer' }).waitFor();
    const note = page.locator('.film-note-notify');
    expect(await note.innerText()).toBe('Thông báo: Tuần này hoãn chiếu 1 tập, lịch cũ trở lại tuần sau.');
    expect(await note.locator('b').count()).toBe(0);
    expect(await page.locator('.film-note').first().innerText()).toBe(`Lịch chiếu: ${film!.showtimes}`);
    await page.waitForTimeout(1_500);
    expect(asked).toEqual([]);
    await tap(page, page.getByRole('button', { name: 'Xem trailer' }));
    await expect.poll(() => asked.length).toBeGreaterThan(0);
    expect(asked[0]).toMatch(/^https:\/\/www\.youtube-nocookie\.com\/embed\/[A-Za-z0-9_-]{11}\?autoplay=1/);
    await screenshot(page, 'trailer-open-mobile');
    await context.close();
  });

  test('"Các phần" shows the seasons of one show in order', async () => {
    const { page, context } = await b.newPage(PHONE);
    await page.goto('/tro-choi-con-muc-2');
    const seasons = page.getByRole('navigation', { name: 'Các phần' });
    await seasons.waitFor();
    expect(await seasons.locator('li').allInnerTexts()).toEqual(['Phần 1', 'Phần 2', 'Phần 3']);
    await tap(page, seasons.getByRole('link', { name: 'Phần 3' }));
    await page.waitForURL((u) => u.pathname === '/tro-choi-con-muc-3');
    await context.close();
  });

  test('the Top 10 row shows with seeded plays, with large ranks and "Mới"; the film page says "#1 phim bộ hôm nay"', async () => {
    // Ten series, each with 12 - i viewers today (Asia/Ho_Chi_Minh day), seeded as the play API would store them.
    const series = demo.filter((f) => f.type === 'series' && f.status !== 'trailer' && !f.is_vip).slice(0, 10);
    const db = await productDatabase();
    const now = Date.now();
    const day = Math.floor((now + 7 * 3_600_000) / 86_400_000);
    try {
      for (const [i, film] of series.entries())
        for (let d = 0; d < 12 - i; d++)
          await db.execute({
            sql: 'insert or ignore into plays (day, film_id, device, played_at) select ?, id, ?, ? from films where slug = ?',
            args: [day, `e2e-top10-${d}`, now, film.slug],
          });
    } finally {
      db.close();
    }
    const { page, context, errors } = await b.newPage(PHONE);
    const heading = page.getByRole('heading', { name: 'Top 10 phim bộ hôm nay' });
    // The home's public cache may hold an answer from before the plays: reload until it has moved on.
    await expect
      .poll(
        async () => {
          await page.goto('/');
          await page.waitForTimeout(1_000);
          return heading.count();
        },
        { timeout: 90_000, interval: 2_000 },
      )
      .toBe(1);
    const row = page.locator('.top10-row').first();
    await row.scrollIntoViewIfNeeded();
    expect(await row.locator('.top10-item').count()).toBe(10);
    expect(await row.locator('.top10-rank').first().textContent()).toBe('1');
    expect(await row.locator('.top10-change').first().textContent()).toBe('Mới');
    await screenshot(page, 'top10-row-mobile');
    await tap(page, row.locator('.top10-item a').first());
    await page.waitForURL((u) => u.pathname === `/${series[0]!.slug}`);
    await page.getByText('#1 phim bộ hôm nay').waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });
});
