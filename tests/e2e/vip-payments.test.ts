// VIP payments as a person makes them, on the built app with the local VNPay/MoMo stand-ins that
// `npm start` runs (demo/payment-gateways.ts): the stand-in pages call our IPN, then redirect back.
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { collectDialogs, DEMO } from './helpers/accounts';
import { expectVideoPlays, screenshot, setupBrowser } from './helpers/browser';

const b = setupBrowser();

/** A VIP-only film of the demo catalogue that has episodes. */
async function vipFilm(): Promise<string> {
  const all = (await (await fetch(`${b.baseURL()}/api/product?page=1`)).json()) as { data: { slug: string; VIP1: number }[] };
  const film = all.data.find((f) => f.VIP1 === 1);
  if (!film) throw new Error('no VIP-only film in the demo catalogue');
  return film.slug;
}

/** Registers a fresh account through /dang-ky and lands signed in on the home page. */
async function register(page: Page, label: string): Promise<string> {
  const email = `${label}-${Date.now()}@example.com`;
  await page.goto('/dang-ky');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Tên hiển thị').fill(`Khách ${label}`);
  await page.getByLabel('Mật khẩu', { exact: true }).fill('mat-khau-vip-1');
  await page.getByLabel('Nhập lại mật khẩu').fill('mat-khau-vip-1');
  await page.getByRole('checkbox', { name: /đồng ý với Chính sách bảo mật/ }).check();
  await page.getByLabel('Nhập lại mật khẩu').press('Enter');
  await page.waitForURL((url) => url.pathname === '/');
  await page.getByRole('link', { name: `Khách ${label}` }).waitFor();
  return email;
}

/** Plans → plan → duration and method → "Thanh toán" on our page. */
async function checkout(page: Page, plan: 'VIP 1' | 'VIP 2', months: number, method: RegExp) {
  await page.goto('/dang-ky-goi-vip');
  await page.getByRole('link', { name: `Chọn gói ${plan}` }).click();
  await page.getByRole('heading', { name: `Đăng ký gói ${plan}` }).waitFor();
  await page.locator('label.vip-option', { has: page.locator(`input[name="months"][value="${months}"]`) }).click();
  await page.locator('label.vip-option', { hasText: method }).click();
  expect(await page.locator(`input[name="months"][value="${months}"]`).isChecked()).toBe(true);
}

async function playVipFilm(page: Page, slug: string) {
  await page.goto(`/${slug}`);
  await page.locator('.tag-vip').waitFor();
  await page.getByRole('button', { name: /Xem phim|Xem tiếp/ }).click();
  await page.waitForURL(new RegExp(`/xem-phim/${slug}/tap-`));
  await expectVideoPlays(page);
}

describe('VIP plans and payments', () => {
  test('register → VIP 1 for 3 months with VNPay → success on the return page → a VIP-only film plays', async () => {
    const slug = await vipFilm();
    const { page, context, errors } = await b.newPage();
    const dialogs = collectDialogs(page);
    await register(page, 'vnpay');

    // Without VIP the film says "buy" (error), not "sign in" (error1), and offers the plans.
    await page.goto(`/${slug}`);
    await page.waitForURL(/\/dang-ky-goi-vip$/);
    expect(dialogs[0]).toMatch(/^Bạn cần mua gói xem VIP để có thể xem được phim này!/);
    await page.getByRole('heading', { name: 'Đăng ký gói VIP' }).waitFor();
    await screenshot(page, 'vip-plans');

    await checkout(page, 'VIP 1', 3, /VNPay/);
    expect(await page.getByTestId('vip-total').textContent()).toBe('207.000 VND');
    await screenshot(page, 'vip-checkout', true);
    await page.getByRole('button', { name: 'Thanh toán' }).click();

    // The VNPay stand-in: its own origin, the true amount (VND, not × 10).
    await page.waitForURL(/\/vnpay\/paymentv2\/vpcpay\.html\?/);
    expect(await page.getByTestId('amount').textContent()).toBe('207.000 VND');
    await page.getByRole('button', { name: 'Thanh toán' }).click();

    await page.waitForURL(/\/dang-ky-goi-vip\/VIP1\/payment\/vnpay-return\?/);
    await page.getByTestId('payment-success').waitFor();
    expect(await page.getByTestId('payment-success').textContent()).toMatch(/Gói VIP 1 của bạn có hiệu lực đến \d{1,2}\/\d{1,2}\/\d{4}/);
    await screenshot(page, 'vip-return-success');
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('permissions'))).toBe('VIP1');

    await playVipFilm(page, slug);
    await page.goto('/account');
    await page.getByTestId('vip-subscription').filter({ hasText: 'VIP 1' }).waitFor();
    await page.getByTestId('payment-history').filter({ hasText: 'Đã thanh toán' }).waitFor();
    await screenshot(page, 'vip-account', true);
    expect(dialogs).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('MoMo cancelled on the wallet page → failure shown, no VIP', async () => {
    const { page, context, errors } = await b.newPage();
    await register(page, 'momo');
    await checkout(page, 'VIP 2', 1, /MoMo/);
    await page.getByRole('button', { name: 'Thanh toán' }).click();
    await page.waitForURL(/\/momo\/pay\//);
    await page.getByRole('button', { name: 'Hủy' }).click();
    await page.waitForURL(/\/dang-ky-goi-vip\/VIP2\/payment\/momo-return\?/);
    const failed = page.getByTestId('payment-failed');
    await failed.waitFor();
    expect(await failed.textContent()).toContain('Payment verification failed');
    expect(await failed.textContent()).toContain('Giao dịch bị từ chối bởi người dùng.');
    await screenshot(page, 'vip-return-failed');
    await page.goto('/account');
    await page.getByTestId('payment-history').filter({ hasText: 'Thất bại' }).waitFor();
    expect(await page.getByTestId('vip-subscription').textContent()).toBe('Bạn chưa có gói VIP đang hoạt động.');
    expect(await page.evaluate(() => sessionStorage.getItem('permissions'))).toBe('');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('bank transfer shows the instructions; once an admin confirms, VIP applies', async () => {
    const slug = await vipFilm();
    const { page, context, errors } = await b.newPage();
    const email = await register(page, 'bank');
    await checkout(page, 'VIP 1', 6, /Chuyển khoản/);
    await page.getByRole('button', { name: 'Thanh toán' }).click();
    await page.waitForURL(/\/dang-ky-goi-vip\/VIP1\/bank_transfer\?order=/);
    const details = page.getByTestId('bank-transfer');
    await details.waitFor();
    // The note is the order's payment code (issue 27); the page still shows the member's email.
    expect(await page.getByTestId('bank-note').textContent()).toMatch(/^PV[2-9A-Z]{8}$/);
    expect(await details.textContent()).toContain(email);
    expect(await details.textContent()).toContain('414.000 VND');
    expect(await page.getByTestId('hotline').textContent()).toMatch(/\d/);
    await screenshot(page, 'vip-bank-transfer', true);
    const orderId = new URL(page.url()).searchParams.get('order');

    // The admin confirms through the API (the admin page comes with the admin issue).
    const login = await fetch(`${b.baseURL()}/api/dang-nhap`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: DEMO.admin.email, password: DEMO.admin.password }),
    });
    const { token } = (await login.json()) as { token: string };
    const confirm = await fetch(`${b.baseURL()}/api/admin/orders/${orderId}/confirm`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(confirm.status).toBe(200);
    // The waiting page polls its order: an admin's confirmation turns it to success too.
    await page.getByTestId('payment-success').waitFor();

    await page.goto('/account');
    await page.getByTestId('vip-subscription').filter({ hasText: 'VIP 1' }).waitFor();
    await playVipFilm(page, slug);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('plans and checkout on a 390 px phone; signed out, subscribing asks to sign in', async () => {
    const { page, context, errors } = await b.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const dialogs = collectDialogs(page);
    await page.goto('/dang-ky-goi-vip');
    await page.getByText('Bạn cần đăng nhập để có thể đăng ký gói cao cấp').waitFor();
    await screenshot(page, 'vip-plans-mobile', true);
    await page.getByRole('link', { name: 'Chọn gói VIP 2' }).click();
    await page.getByRole('button', { name: 'Thanh toán' }).click();
    await expect.poll(() => dialogs).toEqual(['Bạn cần đăng nhập để có thể đăng ký gói cao cấp']);
    await screenshot(page, 'vip-checkout-mobile', true);
    expect(errors).toEqual([]);
    await context.close();
  });
});
