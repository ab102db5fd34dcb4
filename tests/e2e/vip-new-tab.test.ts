// Issue 25, section 3: a shared link to a VIP-only film opened in a new tab. "Back one page" after the
// spec's alert would leave the site for the tab's blank page: with no earlier page of ours, a visitor goes
// to /dang-nhap (and comes back to the film once signed in) and a member without VIP to /dang-ky-goi-vip.
// With an earlier page of ours in the tab, the spec's behaviour stays (docs/decisions/0401-vip-error-flags.md).
import type { Dialog, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { collectDialogs, DEMO } from './helpers/accounts';
import { setupBrowser } from './helpers/browser';
import { PHONE, signInByTouch, tap } from './helpers/phone';

const b = setupBrowser();

const ERROR1 = 'Bạn cần đăng nhập và mua gói xem VIP để có thể xem được phim này!';
const ERROR = 'Bạn cần mua gói xem VIP để có thể xem được phim này!';

type Card = { slug: string; title: string; VIP1: number };

/** A listing whose first page holds a VIP-only film with episodes, and that film. */
async function vipOnListing(): Promise<{ path: string; film: Card }> {
  for (const [path, endpoint] of [
    ['/phim-bo', 'product-phimbo'],
    ['/phim-le', 'product-phimle'],
    ['/phim-shows', 'product-phimshows'],
  ] as const) {
    const list = (await (await fetch(`${b.baseURL()}/api/product/${endpoint}`)).json()) as { data: Card[] };
    const film = list.data.find((f) => f.VIP1 === 1);
    if (film) return { path, film };
  }
  throw new Error('no VIP-only film on a listing page of the demo catalogue');
}

/**
 * A new tab as a browser opens one: its first entry is a page that is not ours (a new-tab page; here a
 * data: page), so `history.length` is above 1 once the shared link is opened and "back" would leave.
 * Frame.goto: the page's own goto waits for the app, which a data: page does not run.
 */
async function blankFirst(page: Page): Promise<void> {
  await page.mainFrame().goto('data:text/html,<title>Tab mới</title><p>Tab mới</p>');
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

describe('a VIP-only film opened in a new tab', () => {
  test('a visitor: the error1 alert, then /dang-nhap; signed in with VIP, back on the film (and on the episode)', async () => {
    const { film } = await vipOnListing();
    const { page, context, errors } = await b.newPage(PHONE);
    const dialogs = collectDialogs(page);
    await blankFirst(page);
    await page.goto(`/${film.slug}`);
    await page.waitForURL((u) => u.pathname === '/dang-nhap' && u.searchParams.get('redirect') === `/${film.slug}`);
    expect(dialogs).toEqual([ERROR1]);
    // What made the old rule leave the site: entries before ours.
    expect(await page.evaluate(() => history.length)).toBeGreaterThan(1);
    await page.getByLabel('Email').waitFor();

    await signInByTouch(page, DEMO.vip1);
    await page.waitForURL((u) => u.pathname === `/${film.slug}`);
    await page.locator('.tag-vip').waitFor();
    await page.getByRole('heading', { level: 1, name: film.title }).waitFor();
    expect(dialogs).toEqual([ERROR1]);
    // The refused page and the sign-in page were replaced: back leaves the tab as it came.
    await page.goBack();
    await expect.poll(() => page.url()).toMatch(/^data:/);
    expect(errors).toEqual([]);
    await context.close();

    // The watch page's link: the same, and the viewer comes back to that episode.
    const watch = await b.newPage(PHONE);
    const watchDialogs = collectDialogs(watch.page);
    await blankFirst(watch.page);
    await watch.page.goto(`/xem-phim/${film.slug}/tap-1`);
    await watch.page.waitForURL(
      (u) => u.pathname === '/dang-nhap' && (u.searchParams.get('redirect') ?? '').startsWith(`/xem-phim/${film.slug}/tap-1`),
    );
    expect(watchDialogs).toEqual([ERROR1]);
    await signInByTouch(watch.page, DEMO.vip1);
    await watch.page.waitForURL((u) => u.pathname === `/xem-phim/${film.slug}/tap-1`);
    await watch.page.getByTestId('video').waitFor();
    expect(watchDialogs).toEqual([ERROR1]);
    expect(watch.errors).toEqual([]);
    await watch.context.close();
  });

  test('a member without VIP: the error alert, then /dang-ky-goi-vip (signed in from that tab, or remembered in a new one)', async () => {
    const { film } = await vipOnListing();
    // Signed out in a new tab, signed in there as a member without VIP: back on the film, then the plans.
    const { page, context, errors } = await b.newPage(PHONE);
    const dialogs = collectDialogs(page);
    await blankFirst(page);
    await page.goto(`/${film.slug}`);
    await page.waitForURL((u) => u.pathname === '/dang-nhap');
    await signInByTouch(page, DEMO.user, { remember: true });
    await page.waitForURL((u) => u.pathname === '/dang-ky-goi-vip');
    expect(dialogs).toEqual([ERROR1, ERROR]);
    await page.getByRole('heading', { level: 1 }).waitFor();

    // The same member ("Ghi nhớ đăng nhập") opens the shared link in another new tab: signed in there, the
    // error alert (never error1), then the plans.
    const tab = await context.newPage();
    const tabDialogs = collectDialogs(tab);
    const tabErrors: string[] = [];
    tab.on('pageerror', (e) => tabErrors.push(e.message));
    await blankFirst(tab);
    await tab.goto(`/${film.slug}`);
    await tab.waitForURL((u) => u.pathname === '/dang-ky-goi-vip', { timeout: 30_000 });
    expect(tabDialogs).toEqual([ERROR]);
    await tab.goBack();
    await expect.poll(() => tab.url()).toMatch(/^data:/);
    expect([...errors, ...tabErrors]).toEqual([]);
    await context.close();
  });

  test('with an earlier page of ours in the tab (after a blank one), the spec stays: the alert, then back one page', async () => {
    const { path, film } = await vipOnListing();
    // A visitor: error1, back to the listing.
    const { page, context, errors } = await b.newPage(PHONE);
    const dialogs = collectDialogs(page);
    await blankFirst(page);
    await page.goto(path);
    await tap(page, page.locator(`.film-card a[href="/${film.slug}"]`).first());
    await expect.poll(() => dialogs).toEqual([ERROR1]);
    await page.waitForURL((u) => u.pathname === path);
    // A page of ours opened by its own URL after another of ours: back one page too (as the spec says).
    await page.goto(`/xem-phim/${film.slug}/tap-1`);
    await expect.poll(() => dialogs).toEqual([ERROR1, ERROR1]);
    await page.waitForURL((u) => u.pathname === path);
    expect(errors).toEqual([]);
    await context.close();

    // A member without VIP who declines the plans: back to the listing.
    const member = await b.newPage(PHONE);
    const seen: string[] = [];
    member.page.on('dialog', (dialog: Dialog) => {
      seen.push(dialog.message());
      void (dialog.type() === 'confirm' ? dialog.dismiss() : dialog.accept());
    });
    await blankFirst(member.page);
    await signInByTouch(member.page, DEMO.user);
    await member.page.goto(path);
    await tap(member.page, member.page.locator(`.film-card a[href="/${film.slug}"]`).first());
    await expect.poll(() => seen).toHaveLength(1);
    expect(seen[0]).toMatch(new RegExp(`^${ERROR}\\n\\nBấm OK để xem các gói VIP`));
    await member.page.waitForURL((u) => u.pathname === path);
    expect(pathOf(member.page)).toBe(path);
    expect(member.errors).toEqual([]);
    await member.context.close();
  });
});
