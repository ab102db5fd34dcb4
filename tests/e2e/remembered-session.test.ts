// Issue 15, goal 6: "Ghi nhớ đăng nhập". Ticked, the session survives new tabs and relaunches with its
// refresh token in an HttpOnly cookie; unticked, today's per-tab session; guarded pages opened signed
// out go to /dang-nhap and come back after sign-in, never to a 404; sign-out clears the cookie.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { collectDialogs, DEMO } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, signInByTouch, tap } from './helpers/phone';

const b = setupBrowser();
const COOKIE = 'phimviet_refresh';

/** A new tab of the same browser, opened at `path`, once the app has started there. */
async function newTab(context: BrowserContext, path: string): Promise<Page> {
  const tab = await context.newPage();
  await tab.goto(path);
  await tab.waitForFunction(() => 'appReady' in document.documentElement.dataset, null, { timeout: 30_000 });
  return tab;
}

const refreshCookie = async (context: BrowserContext) => (await context.cookies()).find((c) => c.name === COOKIE);

describe('"Ghi nhớ đăng nhập" (phone)', () => {
  test('ticked: an HttpOnly cookie script cannot read; a new tab opens /admin/orders signed in; a relaunch is signed in', async () => {
    const { page, context, errors } = await b.newPage(PHONE);
    await signInByTouch(page, DEMO.admin, { remember: true });
    const cookie = await refreshCookie(context);
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/refresh_token' });
    expect(cookie!.expires * 1000 - Date.now()).toBeGreaterThan(29 * 24 * 3600_000);
    // Nothing on the page can read the refresh token.
    const visible = await page.evaluate(() => ({ cookie: document.cookie, session: { ...sessionStorage }, local: { ...localStorage } }));
    expect(visible.cookie).not.toContain(COOKIE);
    expect(visible.session.refreshToken).toBeUndefined();
    expect(JSON.stringify(visible)).not.toContain(cookie!.value);

    // The admin opens the orders page in a new tab: signed in there too, not a 404.
    const tab = await newTab(context, '/admin/orders');
    await tab.getByRole('heading', { name: 'Đơn hàng' }).waitFor();
    expect(new URL(tab.url()).pathname).toBe('/admin/orders');
    await screenshot(tab, 'remembered-new-tab-admin-orders');
    // The new tab renewed through the cookie: rotated, still HttpOnly.
    expect((await refreshCookie(context))!.value).not.toBe(cookie!.value);

    // Relaunch: a new browser session with what the device kept (cookies and local storage).
    const kept = await context.storageState();
    await context.close();
    const relaunched = await b.newPage({ ...PHONE, storageState: kept });
    await relaunched.page.goto('/');
    await expect.poll(() => relaunched.page.evaluate(() => sessionStorage.getItem('name'))).toBe(DEMO.admin.name);
    await tap(relaunched.page, relaunched.page.getByRole('button', { name: 'Mở menu' }));
    await relaunched.page.getByRole('link', { name: DEMO.admin.name }).waitFor();
    await screenshot(relaunched.page, 'remembered-relaunch');
    expect([...errors, ...relaunched.errors]).toEqual([]);
    await relaunched.context.close();
  });

  test('unticked: no cookie and a new tab is signed out; /admin/orders signed out → /dang-nhap → back to /admin/orders', async () => {
    const { page, context } = await b.newPage(PHONE);
    await signInByTouch(page, DEMO.admin);
    expect(await refreshCookie(context)).toBeUndefined();
    expect(await page.evaluate(() => sessionStorage.getItem('refreshToken'))).toBeTruthy();
    const tab = await newTab(context, '/admin/orders');
    await tab.waitForURL((u) => u.pathname === '/dang-nhap');
    expect(new URL(tab.url()).searchParams.get('redirect')).toBe('/admin/orders');
    await screenshot(tab, 'guarded-page-signed-out');
    await signInByTouch(tab, DEMO.admin);
    await tab.getByRole('heading', { name: 'Đơn hàng' }).waitFor();
    expect(new URL(tab.url()).pathname).toBe('/admin/orders');
    await context.close();
  });

  test('signing out of a remembered session clears the cookie and revokes it', async () => {
    const { page, context } = await b.newPage(PHONE);
    const dialogs = collectDialogs(page);
    await signInByTouch(page, DEMO.user, { remember: true });
    const spent = (await refreshCookie(context))!.value;
    // The welcome toast covers the phone's header for a few seconds: a person waits until it has gone.
    const welcome = page.getByText(`Xin chào, ${DEMO.user.name}!`);
    await welcome.waitFor();
    await welcome.waitFor({ state: 'hidden', timeout: 15_000 });
    await tap(page, page.getByRole('button', { name: 'Mở menu' }));
    await page.locator('#site-nav').waitFor({ state: 'visible' });
    const signedOut = page.waitForResponse((r) => r.url().endsWith('/api/refresh_token') && r.request().method() === 'DELETE');
    await tap(page, page.getByRole('button', { name: 'Đăng xuất', exact: true }));
    expect((await signedOut).status()).toBe(200);
    expect(dialogs).toEqual(['Bạn có chắc chắn muốn đăng xuất?']);
    expect(await refreshCookie(context)).toBeUndefined();
    const tab = await newTab(context, '/account');
    await tab.waitForURL((u) => u.pathname === '/dang-nhap');
    // The token the cookie held is revoked on the server, not only forgotten by the browser.
    const replay = await fetch(`${b.baseURL()}/api/refresh_token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: `${COOKIE}=${spent}`, origin: b.baseURL() },
      body: '{}',
    });
    expect(replay.status).toBe(401);
    await context.close();
  });
});
