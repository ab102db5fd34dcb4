// Issue 39 on a phone: "Tải dữ liệu của tôi" saves one JSON file; "Xóa tài khoản" from /account signs the phone
// out; signing in again shows "Tài khoản đang chờ xóa"; "Khôi phục tài khoản" cancels it.
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { collectDialogs, DEMO, signIn } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, signInByTouch, tap } from './helpers/phone';

const b = setupBrowser();

describe('account data', () => {
  test('download the data file, request deletion, see the pending state on sign-in, restore', async () => {
    const { page } = await b.newPage({ ...PHONE, acceptDownloads: true });
    const account = { email: `xoa-${Date.now()}@example.com`, password: 'mat-khau-xoa-1', name: 'Người Thử Xóa' };
    await page.goto('/');
    const res = await page.request.post('/api/dang-ky', {
      data: { email: account.email, name: account.name, password: account.password, acceptPrivacy: true },
      headers: { 'x-forwarded-for': '198.51.100.77' },
    });
    expect(res.status()).toBeLessThan(300);
    await signInByTouch(page, account, { redirect: '/account' });
    await page.waitForURL(/\/account$/);

    const downloaded = page.waitForEvent('download');
    await tap(page, page.getByRole('button', { name: 'Tải dữ liệu của tôi' }));
    const file = await downloaded;
    const data = JSON.parse(readFileSync((await file.path())!, 'utf8')) as {
      format_version: number;
      account: { email: string };
      thisDevice: unknown;
    };
    expect(data.format_version).toBe(1);
    expect(data.account.email).toBe(account.email);
    expect(data.thisDevice).toBeTruthy();

    await tap(page, page.getByRole('checkbox', { name: /Tôi hiểu tài khoản sẽ bị xóa/ }));
    await screenshot(page, 'account-delete', true);
    await tap(page, page.getByRole('button', { name: 'Xóa tài khoản', exact: true }));
    await page.getByText('Mọi thiết bị đã được đăng xuất').waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();

    await page.goto('/xoa-tai-khoan');
    await tap(page, page.getByRole('link', { name: 'Đăng nhập để tiếp tục' }));
    await page.waitForURL(/\/dang-nhap/);
    await signInByTouch(page, account);
    await page.waitForURL(/\/xoa-tai-khoan$/);
    await page.getByRole('heading', { name: 'Tài khoản đang chờ xóa' }).waitFor();
    await screenshot(page, 'account-pending-deletion');
    await tap(page, page.getByRole('button', { name: 'Khôi phục tài khoản' }));
    await page.getByRole('heading', { name: 'Xóa tài khoản', exact: true, level: 2 }).waitFor();
    await page.goto('/account');
    await page.getByRole('button', { name: 'Xóa tài khoản', exact: true }).waitFor();
  });

  test('an admin sees the pending deletion on "Yêu cầu dữ liệu cá nhân" and erases it at once', async () => {
    const { page, context } = await b.newPage();
    const account = { email: `xoa-ngay-${Date.now()}@example.com`, password: 'mat-khau-xoa-2', name: 'Người Gọi Điện Xin Xóa' };
    await page.goto('/');
    expect(
      (
        await page.request.post('/api/dang-ky', {
          data: { ...account, acceptPrivacy: true },
          headers: { 'x-forwarded-for': '198.51.100.78' },
        })
      ).status(),
    ).toBeLessThan(300);
    const login = await page.request.post('/api/dang-nhap', { data: { email: account.email, password: account.password } });
    const { token } = (await login.json()) as { token: string };
    const asked = await page.request.post('/api/account/deletion', { data: {}, headers: { authorization: `Bearer ${token}` } });
    expect(asked.status()).toBe(200);

    const dialogs = collectDialogs(page);
    await signIn(page, DEMO.admin, '/admin/yeu-cau-du-lieu');
    const row = page.getByRole('row').filter({ hasText: account.email });
    await row.waitFor();
    await screenshot(page, 'admin-pending-deletions', true);
    await row.getByRole('button', { name: 'Xóa ngay' }).click();
    await expect.poll(() => row.count()).toBe(0);
    expect(dialogs).toEqual([`Xóa ngay tài khoản ${account.email}? Không thể hoàn tác.`]);
    // Gone: the address no longer signs in.
    expect((await page.request.post('/api/dang-nhap', { data: { email: account.email, password: account.password } })).status()).toBe(401);
    await context.close();
  });
});
