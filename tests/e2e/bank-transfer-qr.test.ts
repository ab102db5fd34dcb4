// Issue 15, goal 8: a bank transfer a Vietnamese payer makes in one step: a VietQR code with bank,
// account, exact amount and note; copy buttons; no wording that implies auto-renewal.
import { describe, expect, test } from 'vitest';
import { crc16CcittFalse, vietQrPayload } from '../../web/src/features/vip/vietqr';
import { DEMO } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, signInByTouch, tap } from './helpers/phone';

const b = setupBrowser();

describe('bank transfer in one step (phone)', () => {
  test('VietQR with the exact amount and note, copy buttons with a toast, nothing renews', { timeout: 90_000 }, async () => {
    const { page, context, errors } = await b.newPage(PHONE);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: b.baseURL() });
    await signInByTouch(page, DEMO.user, { redirect: '/dang-ky-goi-vip' });
    await tap(page, page.getByRole('link', { name: 'Chọn gói VIP 1' }));
    await page.getByRole('heading', { name: 'Đăng ký gói VIP 1' }).waitFor();
    const checkout = await page.locator('main').innerText();
    // Every purchase is one-off: no "next payment date", no "until you cancel".
    expect(checkout).not.toMatch(/thanh toán tiếp theo|cho đến khi bạn hủy|tự động gia hạn hàng|gia hạn tự động/i);
    expect(checkout).toContain('Thanh toán một lần, không tự động gia hạn');
    await tap(page, page.locator('label.vip-option', { has: page.locator('input[name="months"][value="3"]') }));
    await tap(page, page.locator('label.vip-option', { hasText: 'Chuyển khoản ngân hàng' }));
    await tap(page, page.getByRole('button', { name: 'Thanh toán' }));
    await page.waitForURL(/\/dang-ky-goi-vip\/VIP1\/bank_transfer\?order=[0-9a-f]{32}$/);

    const qr = page.getByTestId('vietqr');
    const code = qr.getByRole('img', { name: /Mã VietQR chuyển 207\.000/ });
    await code.waitFor();
    const account = (await page.getByTestId('bank-account').innerText()).trim();
    const payload = await qr.getAttribute('data-payload');
    // The demo bank (Vietcombank, BIN 970436), the order's exact amount and its note: the order's short
    // payment code (issue 27), while the page still shows the member's email.
    const note = (await page.getByTestId('bank-note').innerText()).trim();
    expect(note).toMatch(/^PV[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    expect(await page.locator('main').innerText()).toContain(DEMO.user.email);
    expect(payload).toBe(vietQrPayload({ bin: '970436', accountNumber: account, amount: 207_000, note }));
    expect(payload!.slice(-4)).toBe(crc16CcittFalse(payload!.slice(0, -4)));
    // A real code: a square of modules, drawn (not an empty box), big enough to scan on a phone.
    const box = await code.boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(200);
    expect(Math.abs(box!.width - box!.height)).toBeLessThan(1);
    expect(((await code.locator('path').getAttribute('d')) ?? '').split('M').length).toBeGreaterThan(300);
    await screenshot(page, 'bank-transfer-qr-mobile', true);

    const copies = [
      ['Sao chép số tài khoản', account, 'Đã sao chép số tài khoản'],
      ['Sao chép số tiền', '207000', 'Đã sao chép số tiền'],
      ['Sao chép nội dung chuyển khoản', note, 'Đã sao chép nội dung chuyển khoản'],
    ] as const;
    for (const [button, text, told] of copies) {
      await tap(page, page.getByRole('button', { name: button }));
      await page.getByText(told).first().waitFor();
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(text);
    }
    await screenshot(page, 'bank-transfer-copied-mobile');
    expect(await page.locator('main').innerText()).not.toMatch(/thanh toán tiếp theo|cho đến khi bạn hủy/i);
    expect(errors).toEqual([]);
    await context.close();
  });
});
