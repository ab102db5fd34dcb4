// The back office an operator can trust (issue 16), in Chromium against `npm start`: the orders page
// filters and pages on the server and offers "Xác nhận đã nhận tiền" only on pending bank transfers;
// the film editor changes the whole film and each server's episode links; a deleted film is listed with
// "Khôi phục"; the footer's pages are real and an admin edits their text in settings.
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AdminOrdersResponse } from '../../worker/schemas/vip';
import { vnpaySign } from '../../worker/services/payments/vnpay';
import { collectDialogs, DEMO, signIn } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';

const b = setupBrowser();

const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first();

/** The signed-in admin's access token (from the page's session), for checking through the API what the pages did. */
let adminToken = '';

/**
 * One admin session for the back-office tests: sign-ins are rate limited per address (30 in 10 minutes)
 * and every browser test signs in from this one.
 */
let admin: { page: Page; context: BrowserContext; errors: string[]; dialogs: string[] };

async function api<T>(path: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${b.baseURL()}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json', ...init.headers },
  });
  expect(res.status, `${path}: ${await res.clone().text()}`).toBeLessThan(300);
  return (await res.json()) as T;
}

/** Opens an order as a buyer through the API (the checkout pages have their own tests). */
async function order(token: string, method: 'vnpay' | 'bank_transfer'): Promise<string> {
  const res = await fetch(`${b.baseURL()}/api/product/${method}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ plan: 'VIP1', months: 1 }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { orderId: string }).orderId;
}

describe('back office', () => {
  beforeAll(async () => {
    const opened = await b.newPage();
    admin = { ...opened, dialogs: collectDialogs(opened.page) };
    await signIn(admin.page, DEMO.admin);
    adminToken = await admin.page.evaluate(() => sessionStorage.getItem('token') ?? '');
  });
  afterAll(async () => {
    await admin?.context.close();
  });

  test('orders: filter by method and status on the server, page, and confirm only a pending bank transfer', async () => {
    const { page, errors, dialogs } = admin;
    // The admin's session doubles as the buyer's (an admin may buy VIP like anyone).
    const transfer = await order(adminToken, 'bank_transfer');
    const gateway = await order(adminToken, 'vnpay');
    await page.goto('/admin/orders');
    await page.getByRole('heading', { name: 'Đơn hàng' }).waitFor();
    // The orders table (above it, "Giao dịch chưa khớp" has a table of its own).
    const orders = page.getByRole('table', { name: 'Đơn hàng' });
    const rows = orders.locator('tbody tr');
    await rows.first().waitFor();

    // Every method, newest first: a VNPay order offers no confirmation; the pager shows the server's count
    // (paging past 50 is covered by tests/api/admin-trust.test.ts).
    const all = await api<AdminOrdersResponse>('/api/admin/orders');
    await page.getByText(`${all.pagination.totalItems} mục · trang 1/${all.pagination.totalPages}`).waitFor();
    expect(await rows.count()).toBe(Math.min(all.pagination.totalItems, 50));
    const gatewayRow = page.locator(`tr[data-order="${gateway}"]`);
    await gatewayRow.waitFor();
    expect(await gatewayRow.textContent()).toContain('VNPay');
    expect(await gatewayRow.getByRole('button').count()).toBe(0);
    await page.locator(`tr[data-order="${transfer}"]`).getByRole('button', { name: 'Xác nhận đã nhận tiền' }).waitFor();
    // A bank transfer carries its payment code, the note the payer writes (issue 27).
    expect(await page.locator(`tr[data-order="${transfer}"]`).getByTestId('order-payment-code').innerText()).toMatch(/^PV[2-9A-Z]{8}$/);

    // Method and status filters: the request carries them and the list holds only pending bank transfers.
    const filtered = page.waitForRequest((r) => r.url().includes('method=bank_transfer') && r.url().includes('status=pending'));
    await page.getByLabel('Phương thức thanh toán').selectOption('bank_transfer');
    await page.getByLabel('Trạng thái đơn').selectOption('pending');
    await filtered;
    await page.waitForURL(/method=bank_transfer/);
    await expect.poll(() => rows.locator('td:nth-child(6)').allInnerTexts()).not.toContain('VNPay');
    const methods = await rows.locator('td:nth-child(6)').allInnerTexts();
    expect(new Set(methods)).toEqual(new Set(['Chuyển khoản']));
    const buttons = await page.getByRole('button', { name: 'Xác nhận đã nhận tiền' }).count();
    expect(buttons).toBe(await rows.count());
    await screenshot(page, 'admin-orders-filtered');

    // Confirm one: after the confirmation dialog, the order is paid and shows who confirmed it.
    const row = page.locator(`tr[data-order="${transfer}"]`);
    const confirmed = page.waitForResponse((r) => r.url().endsWith(`/api/admin/orders/${transfer}/confirm`));
    await row.getByRole('button', { name: 'Xác nhận đã nhận tiền' }).click();
    expect((await confirmed).status()).toBe(200);
    expect(dialogs.at(-1)).toContain(`Xác nhận đã nhận tiền cho đơn ${transfer}`);
    await toast(page, `Đã xác nhận đơn ${transfer}`).waitFor();
    await expect.poll(() => row.count()).toBe(0); // no longer pending
    await page.getByLabel('Trạng thái đơn').selectOption('paid');
    const paidRow = page.locator(`tr[data-order="${transfer}"]`);
    await paidRow.locator('td').last().getByText(DEMO.admin.email).waitFor();
    expect(await paidRow.getByRole('button').count()).toBe(0);
    await screenshot(page, 'admin-orders-confirmed');
    const paid = await api<AdminOrdersResponse>('/api/admin/orders?status=paid&method=bank_transfer');
    expect(paid.data.find((o) => o.orderId === transfer)?.confirmedBy?.email).toBe(DEMO.admin.email);
    expect(errors).toEqual([]);
  });

  test('the film editor changes the whole film and each server’s episode links; a deleted film comes back with Khôi phục', async () => {
    const title = `Phim Sửa Toàn Bộ ${Date.now()}`;
    const { page, errors, dialogs } = admin;
    const added = await api<{ slug: string }>('/api/admin/addphim', {
      method: 'POST',
      body: JSON.stringify({ title, category_id: 24, chatluong: 'HD', theloai: 'Hành Động', quocgia: 'Hàn Quốc' }),
    });
    const slug = added.slug;
    for (const [server, episode] of [
      ['Vietsub #1', 1],
      ['Vietsub #1', 2],
      ['Thuyết Minh', 1],
    ] as const) {
      await api('/api/product/create_xemphim', {
        method: 'POST',
        body: JSON.stringify({ selectedTitle: slug, episode, server, linkfilm: `${b.baseURL()}/demo-media/hls/clip.m3u8?s=${episode}` }),
      });
    }

    await page.goto('/admin/products');
    await page.getByLabel('Lọc theo tên phim').fill(title);
    await page.waitForURL(/q=/);
    await page.locator(`tr[data-slug="${slug}"]`).getByRole('link', { name: 'Sửa toàn bộ', exact: true }).click();
    await page.waitForURL(/\/admin\/products\/edit\?film=/);
    await page.getByRole('heading', { name: `Sửa phim: ${title}` }).waitFor();

    // The whole film: description, poster, genres, countries, cast, director, status, quality, language, year, VIP.
    const form = page.getByRole('form', { name: 'Sửa phim' });
    await form.getByLabel('Mô tả').fill('Mô tả mới do quản trị viên viết.');
    await form.getByLabel('Ảnh poster (URL)').fill(`${b.baseURL()}/images/poster-error.svg`);
    await form.getByLabel('Đạo diễn').fill('Trần Anh Hùng');
    await form.getByLabel('Diễn viên').fill('Diễn viên A, Diễn viên B');
    await form.getByLabel('Trạng thái').fill('Hoàn Tất (2/2)');
    await form.getByLabel('Chất lượng').fill('FHD');
    await form.getByLabel('Ngôn ngữ').fill('Vietsub');
    await form.getByLabel('Năm phát hành').fill('2023');
    await form.getByLabel('Danh mục').selectOption({ label: 'Phim Lẻ' });
    await form.getByLabel('Tâm Lý').check();
    await form.getByLabel('Nhật Bản').check();
    await form.getByLabel('Chỉ dành cho thành viên VIP (VIP1)').check();
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/product/edit_productphim'));
    await form.getByRole('button', { name: 'Lưu phim' }).click();
    expect((await saved).status()).toBe(200);
    await toast(page, 'Cập nhật phim thành công').waitFor();
    const film = await api<Record<string, unknown>>(`/api/admin/film?slug=${slug}`);
    expect(film).toMatchObject({
      descripts: 'Mô tả mới do quản trị viên viết.',
      hinhanh: `${b.baseURL()}/images/poster-error.svg`,
      daodien: 'Trần Anh Hùng',
      dienvien: 'Diễn viên A, Diễn viên B',
      trangthai: 'Hoàn Tất (2/2)',
      chatluong: 'FHD',
      ngonngu: 'Vietsub',
      namphathanh: 2023,
      category_id: 25,
      theloai: ['Hành Động', 'Tâm Lý'],
      quocgia: ['Hàn Quốc', 'Nhật Bản'],
      VIP1: 1,
    });

    // Episodes per server: change one link, delete another.
    await page.getByRole('table', { name: 'Tập trên máy chủ Thuyết Minh' }).waitFor();
    const vietsub = page.getByRole('table', { name: 'Tập trên máy chủ Vietsub #1' });
    const newLink = `${b.baseURL()}/demo-media/hls/clip.m3u8?sua=1`;
    await vietsub.getByLabel('Link của tập 2 (Vietsub #1)').fill(newLink);
    const edited = page.waitForResponse((r) => r.url().endsWith('/api/product/edit_xemphim'));
    await vietsub
      .locator('tr', { has: page.getByLabel('Link của tập 2 (Vietsub #1)') })
      .getByRole('button', { name: 'Lưu' })
      .click();
    expect((await edited).status()).toBe(200);
    await toast(page, 'Cập nhật tập phim thành công').waitFor();
    const removed = page.waitForResponse((r) => r.url().includes('/api/product/delete_xemphim'));
    await page.getByRole('table', { name: 'Tập trên máy chủ Thuyết Minh' }).getByRole('button', { name: 'Xoá' }).click();
    expect((await removed).status()).toBe(200);
    expect(dialogs.at(-1)).toBe('Xoá tập 1 (Thuyết Minh)?');
    await expect.poll(() => page.getByRole('table', { name: 'Tập trên máy chủ Thuyết Minh' }).count()).toBe(0);
    const episodes = await api<{ data: { server: string; episode: number; linkfilm: string }[] }>(
      `/api/product/admin_episodes?title=${slug}`,
    );
    expect(episodes.data.map((e) => [e.server, e.episode, e.linkfilm])).toEqual([
      ['Vietsub #1', 1, `${b.baseURL()}/demo-media/hls/clip.m3u8?s=1`],
      ['Vietsub #1', 2, newLink],
    ]);
    await screenshot(page, 'admin-film-editor', true);

    // The audit log shows the edit field by field.
    await page.goto('/admin/audit');
    await page.getByLabel('Lọc theo thao tác').selectOption('film.update');
    const entry = page.getByRole('row').filter({ hasText: slug }).first();
    await entry.getByText('daodien:').waitFor();
    expect(await entry.textContent()).toContain('Trần Anh Hùng');
    expect(await entry.textContent()).toContain('HD → FHD');
    await screenshot(page, 'admin-audit-changes');

    // Delete it, then restore it from "Phim đã xóa".
    await api('/api/product/delete_products', { method: 'DELETE', body: JSON.stringify({ titles: [slug] }) });
    await page.goto('/admin/products/deleted');
    const restore = page.getByRole('button', { name: `Khôi phục ${title}` });
    await restore.waitFor();
    await screenshot(page, 'admin-deleted-films');
    const restored = page.waitForResponse((r) => r.url().includes('/restore'));
    await restore.click();
    expect((await restored).status()).toBe(200);
    await toast(page, `Đã khôi phục phim: ${title}`).waitFor();
    expect((await fetch(`${b.baseURL()}/api/product/${slug}`)).status).not.toBe(404);
    expect(errors).toEqual([]);
  });

  test('the footer pages are real pages; an admin edits their text in settings', async () => {
    // A visitor about to register reads the rules first, on a phone.
    const phone = await b.newPage({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.page.goto('/dang-ky');
    const link = phone.page.getByRole('navigation', { name: 'Thông tin' }).getByRole('link', { name: 'Quy định' });
    await link.scrollIntoViewIfNeeded();
    const box = (await link.boundingBox())!;
    await phone.page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    await phone.page.waitForURL(/\/quy-dinh$/);
    await phone.page.getByRole('heading', { name: 'Quy định', level: 1 }).waitFor();
    await phone.page.getByText('Khi sử dụng PhimViet, bạn đồng ý tuân thủ các quy định dưới đây.').waitFor();
    await screenshot(phone.page, 'footer-page-quy-dinh-phone', true);
    for (const [path, heading] of [
      ['/dieu-khoan', 'Điều khoản sử dụng'],
      ['/bao-mat', 'Chính sách bảo mật'],
      ['/gioi-thieu', 'Giới thiệu'],
    ] as const) {
      const res = await phone.page.goto(path);
      expect(res?.status()).toBe(200);
      await phone.page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    }
    expect(phone.errors).toEqual([]);

    const { page, errors } = admin;
    await page.goto('/admin/settings');
    const form = page.getByRole('form', { name: 'Trang Giới thiệu' });
    const text = `PhimViet do một nhóm yêu phim Việt làm ra (${Date.now()}).\n\nLiên hệ: hotline ở trang thanh toán.`;
    await form.getByLabel(/^Nội dung/).fill(text);
    const saved = page.waitForResponse((r) => r.url().endsWith('/api/admin/pages/gioi-thieu'));
    await form.getByRole('button', { name: 'Lưu trang' }).click();
    expect((await saved).status()).toBe(200);
    await toast(page, 'Đã lưu trang Giới thiệu').waitFor();

    await phone.page.goto('/gioi-thieu');
    await phone.page.getByText(text.split('\n\n')[0]!).waitFor();
    await phone.page.getByText('Liên hệ: hotline ở trang thanh toán.').waitFor();
    expect(errors).toEqual([]);
    await phone.context.close();
  });

  test('the VietQR bank BIN is set beside the account in settings: a wrong one is named under its field', async () => {
    const { page, errors } = admin;
    await page.goto('/admin/settings');
    const form = page.getByRole('form', { name: 'Cài đặt' });
    const bin = form.getByLabel(/^Mã BIN ngân hàng/);
    expect(await bin.inputValue()).toBe('970436');
    await bin.fill('97041');
    await form.getByRole('button', { name: 'Lưu cài đặt' }).click();
    await form.getByText('Mã BIN gồm đúng 6 chữ số (hoặc để trống).').waitFor();
    expect(await bin.getAttribute('aria-invalid')).toBe('true');
    expect((await api<{ data: { bankBin: string } }>('/api/admin/settings')).data.bankBin).toBe('970436');

    await bin.fill('970415');
    await form.getByRole('button', { name: 'Lưu cài đặt' }).click();
    await toast(page, 'Đã lưu cài đặt').waitFor();
    expect((await api<{ data: { bankBin: string } }>('/api/admin/settings')).data.bankBin).toBe('970415');
    const details = await api<{ bank: { bin: string | null } }>('/api/product/bank_transfer', {
      method: 'POST',
      body: JSON.stringify({ plan: 'VIP1', months: 1 }),
    });
    expect(details.bank.bin).toBe('970415');

    // The demo's bank again, for the other tests of the run.
    await api('/api/admin/settings', { method: 'PUT', body: JSON.stringify({ bankBin: '970436' }) });
    expect(errors).toEqual([]);
  });
});

describe('loose ends seen from the outside', () => {
  test('pages that are not films ask for no film; refusals are shown, not dumped to the console; a pending payment’s page gives up', async () => {
    const { page, context, errors } = await b.newPage();
    const asked: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/product/')) asked.push(new URL(r.url()).pathname);
    });
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      // The browser's own network line for a refused request is not the app's logging.
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) consoleErrors.push(m.text());
    });
    for (const path of ['/dang-ky-goi-vip', '/admin', '/quy-dinh']) await page.goto(path);
    await page.goto('/dang-ky-goi-vip');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    expect(asked.filter((p) => /\/api\/product\/(dang-ky-goi-vip|admin|quy-dinh|not-found)$/.test(p))).toEqual([]);

    // "PHIM SẮP CHIẾU" with nothing upcoming says so instead of 'Loading...' for ever.
    await page.route('**/api/product/product-home', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...(await response.json()), phimsapchieu: [] } });
    });
    await page
      .locator('header')
      .getByRole('link', { name: /PhimViet/ })
      .first()
      .click();
    await page.waitForURL(/\/$/);
    const upcoming = page.getByRole('region', { name: 'PHIM SẮP CHIẾU' });
    await upcoming.getByText('Chưa có phim sắp chiếu.').waitFor();
    expect(await upcoming.getByText('Loading...').count()).toBe(0);
    await page.unroute('**/api/product/product-home');

    // Registering a taken email (409): the form says so; the console holds no stack trace for it.
    await page.goto('/dang-ky');
    await page.getByLabel('Email').fill(DEMO.user.email);
    await page.getByLabel('Tên hiển thị').fill('Người trùng email');
    await page.getByLabel('Mật khẩu', { exact: true }).fill('mat-khau-trung-1');
    await page.getByLabel('Nhập lại mật khẩu').fill('mat-khau-trung-1');
    await page.getByRole('checkbox', { name: /đồng ý với Chính sách bảo mật/ }).check();
    await page.getByLabel('Nhập lại mật khẩu').press('Enter');
    await page.getByText('Email này đã được đăng ký. Vui lòng đăng nhập hoặc dùng email khác.').waitFor();
    expect(consoleErrors).toEqual([]);

    // Commenting too fast: the server's message reaches the viewer.
    const films = (await (await fetch(`${b.baseURL()}/api/product/product-phimbo`)).json()) as { data: { slug: string; VIP1: number }[] };
    const slug = films.data.filter((f) => f.VIP1 === 0).at(-1)!.slug;
    await signIn(page, DEMO.vip2, `/${slug}`);
    await page.waitForURL(new RegExp(`/${slug}$`));
    const box = page.getByPlaceholder('Để lại bình luận ...');
    let refused = false;
    for (let i = 1; i <= 7 && !refused; i++) {
      await box.fill(`Bình luận nhanh số ${i}`);
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/product/comment'));
      await page.getByRole('button', { name: 'Bình luận', exact: true }).click();
      refused = (await answer).status() === 429;
    }
    expect(refused).toBe(true);
    await toast(page, 'Bạn bình luận quá nhanh').waitFor();
    await screenshot(page, 'comment-too-fast');
    expect(consoleErrors).toEqual([]);

    // A payment left pending: after 3 minutes the return page stops asking and says so.
    const token = await page.evaluate(() => sessionStorage.getItem('token') ?? '');
    const orderId = await order(token, 'vnpay');
    // The gateway's redirect, signed as the demo VNPay stand-in signs it; its IPN never comes, so the order
    // stays pending.
    const params: Record<string, string> = {
      vnp_Amount: String(69_000 * 100),
      vnp_ResponseCode: '00',
      vnp_TransactionStatus: '00',
      vnp_TxnRef: orderId,
      vnp_TransactionNo: '14000001',
      vnp_TmnCode: 'DEMOTMN1',
    };
    const query = new URLSearchParams({ ...params, vnp_SecureHash: await vnpaySign('demo-vnpay-hash-secret-0123456789', params) });
    const polls: number[] = [];
    page.on('request', (r) => {
      if (r.url().includes(`/api/vip/orders/${orderId}`)) polls.push(Date.now());
    });
    await page.clock.install();
    await page.goto(`/dang-ky-goi-vip/VIP1/payment/vnpay-return?${query}`);
    await page.getByText('Verifying payment...').waitFor();
    await expect.poll(() => polls.length).toBeGreaterThan(0);
    await page.clock.fastForward('03:01');
    await page.getByTestId('payment-timeout').waitFor();
    await screenshot(page, 'payment-return-timeout');
    // Polling has stopped: another minute of the page's clock asks nothing more.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(r)));
    const pollsSoFar = polls.length;
    await page.clock.fastForward('01:00');
    await page.clock.runFor(5_000);
    await page.evaluate(() => new Promise((r) => setTimeout(r, 0)));
    expect(polls.length).toBe(pollsSoFar);
    expect(errors).toEqual([]);
    await context.close();
  });
});
