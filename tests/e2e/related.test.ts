// "Phim tương tự" and "Vì bạn đã xem {phim}" (issue 40 §4), on a phone: the film page's related cards say why they
// are there; after this device watched a film, the home shows that film's related films, built in the browser.
import { describe, expect, test } from 'vitest';
import { setupBrowser } from './helpers/browser';
import { PHONE, tap } from './helpers/phone';

const b = setupBrowser();
const FILM = { slug: 'dat-rung-phuong-nam', title: 'Đất Rừng Phương Nam' };
const REASON = /^(Cùng diễn viên .+|Cùng đạo diễn|Người xem cũng xem|Cùng thể loại .+|Cùng quốc gia .+|Cùng thời)$/;

describe('related films that say why', () => {
  test('the film page shows "Phim tương tự" with reasons; the home shows "Vì bạn đã xem …" once the device watched it', async () => {
    const { page, context, errors } = await b.newPage(PHONE);
    // The scheduled job computes the lists after the demo crawl (a tick every few seconds in this suite).
    const related = page.getByRole('region', { name: 'Phim tương tự' });
    await expect
      .poll(
        async () => {
          await page.goto(`/${FILM.slug}`);
          await page.getByRole('heading', { level: 1, name: FILM.title }).waitFor();
          return related.count();
        },
        { timeout: 30_000, interval: 2_000 },
      )
      .toBe(1);
    const reasons = await related.locator('.film-card-reason').allTextContents();
    expect(reasons.length).toBeGreaterThan(0);
    for (const reason of reasons) expect(reason).toMatch(REASON);

    // This device watched the film (what the watch page records), then goes home by the logo.
    await page.evaluate(
      ({ slug, title }) =>
        localStorage.setItem(
          'phimviet:watch-history',
          JSON.stringify([{ slug, title, poster: '', episode: 1, server: '', time: 300, duration: 6000, updatedAt: Date.now() }]),
        ),
      FILM,
    );
    await page.reload();
    await page.getByRole('heading', { level: 1, name: FILM.title }).waitFor();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/related/')) asked.push(`${r.method()} ${new URL(r.url()).pathname} ${r.headers().authorization ?? ''}`);
    });
    await tap(page, page.getByRole('link', { name: 'PhimViet - Trang chủ' }).first());
    await page.waitForURL((url) => url.pathname === '/');
    const row = page.getByRole('region', { name: `Vì bạn đã xem ${FILM.title}` });
    await row.waitFor({ timeout: 20_000 });
    // Only the film's public list was asked: no history, no credentials.
    expect(asked).toEqual([`GET /api/related/${FILM.slug} `]);
    const cards = row.getByRole('article');
    expect(await cards.count()).toBe(reasons.length);
    expect(await row.locator('.film-card-reason').allTextContents()).toEqual(reasons);
    // A tap on a card opens that film.
    const first = row.locator('.film-card-link').first();
    const href = await first.getAttribute('href');
    await first.scrollIntoViewIfNeeded();
    await tap(page, first);
    await page.waitForURL((url) => url.pathname === href);
    expect(errors).toEqual([]);
    await context.close();
  });
});
