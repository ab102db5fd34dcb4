import { describe, expect, test } from 'vitest';
import { collectDialogs, DEMO, freeFilms, signIn } from './helpers/accounts';
import { expectVideoPlays, screenshot, setupBrowser } from './helpers/browser';

const b = setupBrowser();

interface Detail {
  datafilm: { VIP1: number; slug: string };
  general_assessment: { totalRatings: number; averageRating: number | null };
}

const detail = async (slug: string) => (await (await fetch(`${b.baseURL()}/api/product/${slug}`)).json()) as Detail;

/** A VIP-only film of the demo catalogue that has episodes. */
async function vipFilm(): Promise<string> {
  const all = (await (await fetch(`${b.baseURL()}/api/product?page=1`)).json()) as { data: { slug: string; VIP1: number }[] };
  const film = all.data.find((f) => f.VIP1 === 1);
  if (!film) throw new Error('no VIP-only film in the demo catalogue');
  return film.slug;
}

describe('ratings and VIP-only films', () => {
  test('rating shows the new average at once; signed out it asks to sign in', async () => {
    const films = await freeFilms(b.baseURL(), 'product-phimle');
    const slug = films[2] ?? films[0]!;
    const { page, context, errors } = await b.newPage();
    const dialogs = collectDialogs(page);
    await page.goto(`/${slug}`);
    await page.getByRole('button', { name: '6 sao' }).click();
    await expect.poll(() => dialogs).toEqual(['Bạn cần đăng nhập để có thể đánh giá']);

    const before = (await detail(slug)).general_assessment;
    await signIn(page, DEMO.vip2, `/${slug}`);
    await page.waitForURL(new RegExp(`/${slug}$`));
    const rated = page.waitForResponse((r) => r.url().endsWith('/api/product/rating_star'));
    await page.getByRole('button', { name: '9 sao' }).click();
    expect((await rated).status()).toBe(200);
    const expected = (((before.averageRating ?? 0) * before.totalRatings + 9) / (before.totalRatings + 1)).toFixed(1);
    await page
      .getByTestId('rating-summary')
      .filter({ hasText: `${expected} điểm / ${before.totalRatings + 1} lượt đánh giá` })
      .waitFor();
    await page.getByTestId('own-rating').filter({ hasText: 'Bạn đã chấm 9/10' }).waitFor();
    expect(await page.getByRole('button', { name: '9 sao' }).getAttribute('aria-pressed')).toBe('true');
    await page.locator('.film-hero').screenshot({ path: `${import.meta.dirname}/screenshots/rating.png` });
    // The API agrees, and a reload shows the viewer's own stars (rating_star.rating, Bearer on the detail).
    expect((await detail(slug)).general_assessment.totalRatings).toBe(before.totalRatings + 1);
    await page.reload();
    await page.getByTestId('own-rating').filter({ hasText: 'Bạn đã chấm 9/10' }).waitFor();
    expect(dialogs).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('VIP-only film: anonymous viewers get the error1 alert and go back; the demo VIP1 account plays it', async () => {
    const slug = await vipFilm();
    const anon = await b.newPage();
    const dialogs = collectDialogs(anon.page);
    await anon.page.goto('/phim-bo');
    await anon.page
      .getByRole('heading', { name: /Phim bộ/i })
      .first()
      .waitFor();
    await anon.page.goto(`/${slug}`);
    await anon.page.waitForURL(/\/phim-bo$/);
    expect(dialogs).toEqual(['Bạn cần đăng nhập và mua gói xem VIP để có thể xem được phim này!']);
    // The watch page, straight from its URL: same alert, and home when there is no page to go back to... here, back.
    await anon.page.goto(`/xem-phim/${slug}/tap-1`);
    await anon.page.waitForURL(/\/phim-bo$/);
    expect(dialogs).toHaveLength(2);
    expect(dialogs[1]).toBe('Bạn cần đăng nhập và mua gói xem VIP để có thể xem được phim này!');
    expect(anon.errors).toEqual([]);
    await anon.context.close();

    const vip = await b.newPage();
    const vipDialogs = collectDialogs(vip.page);
    await signIn(vip.page, DEMO.vip1, `/${slug}`);
    await vip.page.waitForURL(new RegExp(`/${slug}$`));
    await vip.page.locator('.tag-vip').waitFor();
    await vip.page.getByRole('button', { name: /Xem phim|Xem tiếp/ }).click();
    await vip.page.waitForURL(new RegExp(`/xem-phim/${slug}/tap-`));
    await expectVideoPlays(vip.page);
    await screenshot(vip.page, 'vip-watch');
    expect(vipDialogs).toEqual([]);
    expect(vip.errors).toEqual([]);
    await vip.context.close();
  });
});
