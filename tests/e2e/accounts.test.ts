import { describe, expect, test } from 'vitest';
import { collectDialogs, DEMO, freeFilms, sessionStorageOf, signIn } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';

const b = setupBrowser();

describe('accounts', () => {
  test('register in the UI (mismatch caught, duplicate refused), account page, logout with confirm and toast, sign in again', async () => {
    const { page, context, errors } = await b.newPage();
    const dialogs = collectDialogs(page);
    const email = `nguoi-moi-${Date.now()}@example.com`;
    const name = 'Người Mới Đăng Ký';

    await page.goto('/');
    await page.getByRole('link', { name: 'Đăng nhập' }).click();
    await page.waitForURL(/\/dang-nhap$/);
    await page.getByRole('link', { name: 'Đăng ký ngay' }).click();
    await page.waitForURL(/\/dang-ky$/);
    // The URL changes as the navigation starts; the sign-in form stays until the register page (its own
    // chunk) renders, so wait for a field only the register form has.
    await page.getByLabel('Tên hiển thị').waitFor();
    expect(await page.getByLabel('Email').getAttribute('type')).toBe('email');
    expect(await page.getByLabel('Mật khẩu', { exact: true }).getAttribute('autocomplete')).toBe('new-password');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Tên hiển thị').fill(name);
    await page.getByLabel('Mật khẩu', { exact: true }).fill('mat-khau-moi-1');
    await page.getByLabel('Nhập lại mật khẩu').fill('mat-khau-khac-2');
    await page.getByRole('checkbox', { name: /đồng ý với Chính sách bảo mật/ }).check();
    await page.getByRole('button', { name: 'Đăng ký' }).click();
    await page.getByRole('alert').filter({ hasText: 'Passwords do not match. Please check your inputs.' }).waitFor();
    await screenshot(page, 'register-mismatch');
    await page.getByLabel('Nhập lại mật khẩu').fill('mat-khau-moi-1');
    await page.getByLabel('Nhập lại mật khẩu').press('Enter');

    // Registered and signed in: home, the name in the header, the session keys in session storage (web/src/lib/session.ts).
    await page.waitForURL((url) => url.pathname === '/');
    await page.getByRole('link', { name }).waitFor();
    const stored = await sessionStorageOf(page);
    expect(Object.keys(stored).sort()).toEqual(['email', 'id', 'name', 'permissions', 'refreshToken', 'roles', 'token']);
    expect(stored).toMatchObject({ email, name, roles: 'user', permissions: '' });
    // Role user: the VIP link, no admin link.
    expect(await page.getByRole('link', { name: 'Đăng ký VIP' }).getAttribute('href')).toBe('/dang-ky-goi-vip');
    expect(await page.getByRole('link', { name: 'Quản trị', exact: true }).count()).toBe(0);

    // Account page.
    await page.getByRole('link', { name }).click();
    await page.waitForURL(/\/account$/);
    await page.getByTestId('account-email').filter({ hasText: email }).waitFor();
    expect(await page.getByTestId('account-roles').innerText()).toBe('Thành viên');
    expect(await page.getByTestId('account-permissions').innerText()).toBe('Không có');

    // Change the password: the API answers a fresh session for this tab.
    const before = await sessionStorageOf(page);
    await page.getByLabel('Mật khẩu hiện tại').fill('mat-khau-moi-1');
    await page.getByLabel('Mật khẩu mới', { exact: true }).fill('mat-khau-doi-3');
    await page.getByLabel('Nhập lại mật khẩu mới').fill('mat-khau-doi-3');
    await page.getByRole('button', { name: 'Đổi mật khẩu' }).click();
    await page.getByText('Đổi mật khẩu thành công').waitFor();
    const after = await sessionStorageOf(page);
    expect(after.token).not.toBe(before.token);
    expect(after.refreshToken).not.toBe(before.refreshToken);
    await screenshot(page, 'account', true);

    // Logout: cancelled first, then confirmed.
    page.removeAllListeners('dialog');
    const logoutRequests: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/api/dang-xuat')) logoutRequests.push(r.url());
    });
    const dismissed = new Promise<void>((done) => page.once('dialog', (d) => void d.dismiss().then(done)));
    await page.getByRole('button', { name: 'Đăng xuất', exact: true }).click();
    await dismissed;
    // The click handler was blocked in confirm() and runs on at once when it returns: by the time the
    // page answers this evaluate, it has finished, and any request it made has been sent.
    expect((await sessionStorageOf(page)).token).toBeTruthy();
    expect(logoutRequests).toEqual([]);
    const confirms = collectDialogs(page);
    const logoutCall = page.waitForResponse((r) => r.url().endsWith('/api/dang-xuat'));
    await page.getByRole('button', { name: 'Đăng xuất', exact: true }).click();
    await page.getByText('Bạn đã đăng xuất thành công!').waitFor();
    expect(confirms).toEqual(['Bạn có chắc chắn muốn đăng xuất?']);
    expect((await logoutCall).status()).toBe(200);
    expect(await sessionStorageOf(page)).toEqual({});
    await page.getByRole('link', { name: 'Đăng nhập' }).waitFor();
    // Leaving /account when signed out.
    await page.waitForURL((url) => url.pathname === '/');
    await screenshot(page, 'logout-toast');

    // The same email again: the server's message.
    await page.goto('/dang-ky');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Tên hiển thị').fill(name);
    await page.getByLabel('Mật khẩu', { exact: true }).fill('mat-khau-moi-1');
    await page.getByLabel('Nhập lại mật khẩu').fill('mat-khau-moi-1');
    await page.getByRole('checkbox', { name: /đồng ý với Chính sách bảo mật/ }).check();
    await page.getByRole('button', { name: 'Đăng ký' }).click();
    await page.getByRole('alert').filter({ hasText: 'Email này đã được đăng ký' }).waitFor();

    // Sign in: wrong password, then the changed one (Enter submits).
    await page.goto('/dang-nhap');
    expect(await page.getByLabel('Mật khẩu').getAttribute('autocomplete')).toBe('current-password');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Mật khẩu').fill('mat-khau-moi-1');
    await page.getByLabel('Mật khẩu').press('Enter');
    await page.getByRole('alert').filter({ hasText: 'Thông tin đăng nhập không chính xác !!!' }).waitFor();
    await screenshot(page, 'login-failed');
    await page.getByLabel('Mật khẩu').fill('mat-khau-doi-3');
    await page.getByLabel('Mật khẩu').press('Enter');
    await page.getByRole('link', { name }).waitFor();
    // Signed in, /dang-nhap sends home.
    await page.goto('/dang-nhap');
    await page.waitForURL((url) => url.pathname === '/');
    expect(dialogs).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('header links by role: VIP2 sees the admin link and the VIP link; an admin the admin link only', async () => {
    const { page, context } = await b.newPage();
    await signIn(page, DEMO.vip2);
    expect(await page.getByRole('link', { name: 'Quản trị', exact: true }).getAttribute('href')).toBe('/admin/dashboard');
    expect(await page.getByRole('link', { name: 'Đăng ký VIP' }).count()).toBe(1);
    await screenshot(page, 'header-vip2');
    await context.close();

    const admin = await b.newPage();
    await signIn(admin.page, DEMO.admin);
    expect(await admin.page.getByRole('link', { name: 'Quản trị', exact: true }).count()).toBe(1);
    expect(await admin.page.getByRole('link', { name: 'Đăng ký VIP' }).count()).toBe(0);
    await admin.context.close();

    // /account is for signed-in viewers only.
    const anon = await b.newPage();
    await anon.page.goto('/account');
    await anon.page.waitForURL(/\/dang-nhap\?redirect=%2Faccount$/);
    await anon.context.close();
  });

  test('a stale token is renewed once for calls made together and each call retried; a dead refresh token ends the session', async () => {
    const [slug] = await freeFilms(b.baseURL(), 'product-phimshows');
    const { page, context, errors } = await b.newPage();
    const dialogs = collectDialogs(page);
    const refreshes: number[] = [];
    page.on('response', (r) => {
      if (r.url().endsWith('/api/refresh_token')) refreshes.push(r.status());
    });
    await signIn(page, DEMO.user, `/${slug}`);
    await page.waitForURL(new RegExp(`/${slug}$`));
    await page.getByPlaceholder('Để lại bình luận ...').waitFor();

    // The access token goes bad (as after 15 minutes); a comment and a rating leave at the same moment.
    await page.evaluate(() => sessionStorage.setItem('token', 'not-a-valid-token'));
    const text = `Bình luận sau khi làm mới phiên ${Date.now()}`;
    await page.getByPlaceholder('Để lại bình luận ...').fill(text);
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/product/comment') && r.status() === 201);
    const rated = page.waitForResponse((r) => r.url().endsWith('/api/product/rating_star') && r.status() === 200);
    await page.evaluate(() => {
      (document.querySelector('button[aria-label="7 sao"]') as HTMLButtonElement).click();
      (document.querySelector('.comments form button[type="submit"]') as HTMLButtonElement).click();
    });
    await Promise.all([posted, rated]);
    await page.locator('.comment-text', { hasText: text }).waitFor();
    expect(refreshes).toEqual([200]);
    expect((await sessionStorageOf(page)).token).not.toBe('not-a-valid-token');

    // The refresh token is refused too: the spec's alert, the session cleared, /dang-nhap.
    await page.evaluate(() => {
      sessionStorage.setItem('token', 'not-a-valid-token');
      sessionStorage.setItem('refreshToken', 'revoked-refresh-token');
    });
    await page.getByPlaceholder('Để lại bình luận ...').fill('Không gửi được');
    await page.getByRole('button', { name: 'Bình luận' }).click();
    await page.waitForURL(/\/dang-nhap$/);
    expect(dialogs).toEqual(['Phiên đăng nhập đã hết hạn. Vui lòng đăng nhập lại.']);
    expect(await sessionStorageOf(page)).toEqual({});
    expect(errors).toEqual([]);
    await context.close();
  });
});
