// Issue 15, goal 5: VIP-only films are marked before the tap, and a visit the VIP rule refuses counts no view.
import type { Request } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { collectDialogs } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, tap, tapAndType } from './helpers/phone';

const b = setupBrowser();

type Card = { slug: string; title: string; VIP1: number };

/** A listing whose first page holds a VIP-only film, and that film. */
async function vipOnListing(): Promise<{ path: string; endpoint: string; film: Card }> {
  for (const [path, endpoint] of [
    ['/phim-le', 'product-phimle'],
    ['/phim-bo', 'product-phimbo'],
    ['/phim-shows', 'product-phimshows'],
  ] as const) {
    const list = (await (await fetch(`${b.baseURL()}/api/product/${endpoint}`)).json()) as { data: Card[] };
    const film = list.data.find((f) => f.VIP1 === 1);
    if (film) return { path, endpoint, film };
  }
  throw new Error('no VIP-only film on a listing page of the demo catalogue');
}

describe('VIP films are visible before the tap (phone)', () => {
  test('cards and search suggestions mark VIP-only films; free films carry no mark', async () => {
    const { path, endpoint, film } = await vipOnListing();
    const { page, context, errors } = await b.newPage(PHONE);
    await page.goto(path);
    const card = page.locator('.film-card', { has: page.locator(`a[href="/${film.slug}"]`) });
    await card.waitFor();
    expect(await card.getByTestId('vip-badge').innerText()).toBe('VIP');
    // Every badge on the page belongs to a VIP-only film.
    const list = (await (await fetch(`${b.baseURL()}/api/product/${endpoint}`)).json()) as { data: Card[] };
    const vipCount = list.data.filter((f) => f.VIP1 === 1).length;
    expect(await page.locator('.film-grid [data-testid="vip-badge"]').count()).toBe(vipCount);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'vip-badge-card-mobile');

    // The header search: typed on the phone keyboard, the suggestion says VIP too.
    const menu = page.getByRole('button', { name: 'Mở menu' });
    const search = page.getByRole('combobox', { name: 'Tìm kiếm phim' });
    if (!(await search.isVisible())) await tap(page, menu);
    await tapAndType(page, search, film.title);
    const option = page.getByRole('option', { name: new RegExp(film.title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')) }).first();
    await option.waitFor();
    expect(await option.getByTestId('vip-badge').innerText()).toBe('VIP');
    await screenshot(page, 'vip-badge-suggestion-mobile');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the home carousel and side lists mark exactly the VIP-only films they show', async () => {
    const home = (await (await fetch(`${b.baseURL()}/api/product/product-home`)).json()) as Record<string, unknown>;
    const vip = new Map<string, boolean>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) for (const f of value as Card[]) vip.set(f.slug, f.VIP1 === 1);
      else if (value && typeof value === 'object') for (const v of Object.values(value)) collect(v);
    };
    collect(home);
    const { page, context } = await b.newPage(PHONE);
    await page.goto('/');
    await expect.poll(() => page.locator('.hot-slide a').count()).toBeGreaterThan(0);
    // The sidebar mounts when the viewer scrolls down to it.
    await page.locator('.layout-with-sidebar aside, .home-sidebar').last().scrollIntoViewIfNeeded();
    await page.getByText('PHIM HÀNH ĐỘNG').scrollIntoViewIfNeeded();
    await expect.poll(() => page.locator('a.side-item').count()).toBeGreaterThan(10);
    const shown = async (item: string) =>
      page
        .locator(item)
        .evaluateAll((links) =>
          links.map((a) => ({ slug: (a.getAttribute('href') ?? '').slice(1), badge: !!a.querySelector('[data-testid="vip-badge"]') })),
        );
    const items = [...(await shown('.hot-slide a')), ...(await shown('a.side-item'))];
    expect(items.length).toBeGreaterThan(10);
    for (const { slug, badge } of items) expect(badge, slug).toBe(vip.get(slug) ?? false);
    // The demo catalogue's most watched week has VIP-only films in it: the check above saw some.
    expect(items.filter((i) => i.badge).length).toBeGreaterThan(0);
    await context.close();
  });

  test('tapping a VIP-only film signed out: the spec alert and return, and no view is sent or counted', async () => {
    const { path, film } = await vipOnListing();
    const { page, context } = await b.newPage(PHONE);
    const dialogs = collectDialogs(page);
    const viewPosts: string[] = [];
    page.on('request', (r: Request) => {
      if (r.url().endsWith('/api/product/update_view') && r.method() === 'POST') viewPosts.push(r.postData() ?? '');
    });
    await page.goto(path);
    await tap(page, page.locator(`.film-card a[href="/${film.slug}"]`).first());
    await expect.poll(() => dialogs).toEqual(['Bạn cần đăng nhập và mua gói xem VIP để có thể xem được phim này!']);
    await page.waitForURL((u) => u.pathname === path);
    expect(viewPosts).toEqual([]);
    // The server refuses to count it too, whoever asks (tests/api/catalogue.test.ts has the details).
    const refused = await fetch(`${b.baseURL()}/api/product/update_view`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: film.slug }),
    });
    expect(refused.status).toBe(401);
    await context.close();
  });
});
