// Issue 27: a bank transfer that confirms itself, on a phone. Checkout → the transfer page with the order's
// payment code → the "bank" (npm start's stand-in, which posts SePay's notification to our webhook) where
// the member transfers the amount with the code as the note → the waiting page turns to success by itself.
import { describe, expect, inject, test } from 'vitest';
import { DEMO_PAYMENT_SECRETS } from '../../worker/config';
import type { BankTransferResponse } from '../../worker/schemas/vip';
import { DEMO, signIn } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, signInByTouch, tap, tapAndType } from './helpers/phone';

const b = setupBrowser();

/** A fresh member, so the VIP this test buys touches no other test's account. */
async function registerMember(): Promise<{ email: string; password: string }> {
  const account = { email: `chuyen-khoan-${Date.now()}@example.com`, password: 'mat-khau-ck-27' };
  const res = await fetch(`${b.baseURL()}/api/dang-ky`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...account, name: 'Khách Chuyển Khoản', acceptPrivacy: true }),
  });
  expect(res.status).toBeLessThan(300);
  return account;
}

describe('bank transfer confirmed by the bank notification (phone)', () => {
  test('checkout → transfer on the bank stand-in with the code as the note → success without an admin', { timeout: 120_000 }, async () => {
    const member = await registerMember();
    const { page, context, errors } = await b.newPage(PHONE);
    await signInByTouch(page, member, { redirect: '/dang-ky-goi-vip' });
    await tap(page, page.getByRole('link', { name: 'Chọn gói VIP 1' }));
    await page.getByRole('heading', { name: 'Đăng ký gói VIP 1' }).waitFor();
    await tap(page, page.locator('label.vip-option', { has: page.locator('input[name="months"][value="3"]') }));
    await tap(page, page.locator('label.vip-option', { hasText: 'Chuyển khoản ngân hàng' }));
    await tap(page, page.getByRole('button', { name: 'Thanh toán' }));
    await page.waitForURL(/\/dang-ky-goi-vip\/VIP1\/bank_transfer\?order=[0-9a-f]{32}$/);

    const code = (await page.getByTestId('bank-note').innerText()).trim();
    expect(code).toMatch(/^PV[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
    const account = (await page.getByTestId('bank-account').innerText()).trim();
    const text = await page.locator('main').innerText();
    expect(text).toContain(member.email);
    expect(text).toContain(`mã thanh toán ${code}`);
    expect(await page.getByTestId('bank-confirmation').innerText()).toMatch(/tự kích hoạt/);
    await screenshot(page, 'bank-transfer-code-mobile');

    // The member's banking app: the stand-in bank, in another tab, with the account, amount and note typed in.
    const bank = await context.newPage();
    await bank.goto(`${inject('paymentURL')}/bank`);
    const accountField = bank.getByLabel('Số tài khoản nhận');
    expect(await accountField.inputValue()).toBe(account);
    await tapAndType(bank, bank.getByLabel('Số tiền (VND)'), '207000');
    await tapAndType(bank, bank.getByLabel('Nội dung chuyển khoản'), code.toLowerCase());
    await tap(bank, bank.getByRole('button', { name: 'Chuyển khoản' }));
    await bank.getByTestId('bank-done').waitFor();
    expect(await bank.getByTestId('bank-webhook').innerText()).toBe('HTTP 200');
    await bank.close();

    // The waiting page, untouched, polls its order and turns to success.
    await page.getByTestId('payment-success').waitFor({ timeout: 15_000 });
    expect(await page.getByTestId('payment-success').innerText()).toMatch(/Gói VIP 1 của bạn có hiệu lực đến \d{1,2}\/\d{1,2}\/\d{4}/);
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('permissions'))).toBe('VIP1');
    await screenshot(page, 'bank-transfer-success-mobile');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('"Giao dịch chưa khớp" on /admin/orders: a short transfer is attached to its order, a stray one dismissed', {
    timeout: 90_000,
  }, async () => {
    const member = await registerMember();
    const login = (await (
      await fetch(`${b.baseURL()}/api/dang-nhap`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(member),
      })
    ).json()) as { token: string };
    const transfer = (await (
      await fetch(`${b.baseURL()}/api/product/bank_transfer`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${login.token}` },
        body: JSON.stringify({ plan: 'VIP1', months: 1 }),
      })
    ).json()) as BankTransferResponse;
    // SePay's notifications, as SePay sends them: 1.000 VND short, and one with no code at all.
    const id = Date.now();
    const notify = (n: number, content: string, amount: number) =>
      fetch(`${b.baseURL()}/api/payment/sepay-webhook`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Apikey ${DEMO_PAYMENT_SECRETS.SEPAY_API_KEY}` },
        body: JSON.stringify({
          id: n,
          gateway: 'Vietcombank',
          transactionDate: '2026-01-15 12:05:00',
          accountNumber: transfer.bank.accountNumber,
          code: null,
          content,
          transferType: 'in',
          transferAmount: amount,
          accumulated: 0,
          subAccount: null,
          referenceCode: `FT${n}`,
          description: '',
        }),
      });
    expect((await notify(id, `${transfer.paymentCode} chuyen khoan`, transfer.amount - 1_000)).status).toBe(200);
    expect((await notify(id + 1, `tien an trua ${id}`, 50_000)).status).toBe(200);

    const { page, context, errors } = await b.newPage();
    const prompts: string[] = [];
    const answers = ['', 'Không phải tiền mua gói'];
    page.on('dialog', (dialog) => {
      prompts.push(dialog.message());
      // The attach prompt comes prefilled with the order's payment code: accepted as it is.
      void dialog.accept(answers.shift() || dialog.defaultValue());
    });
    await signIn(page, DEMO.admin, '/admin/orders');
    const unmatched = page.getByRole('table', { name: 'Giao dịch chưa khớp' });
    const short = unmatched.locator(`tr[data-transaction="${id}"]`);
    const stray = unmatched.locator(`tr[data-transaction="${id + 1}"]`);
    await short.waitFor();
    expect(await short.innerText()).toContain('Số tiền không khớp với đơn hàng');
    expect(await stray.innerText()).toContain('Nội dung không có mã thanh toán');
    await screenshot(page, 'admin-unmatched-transactions');

    await short.getByRole('button', { name: 'Gắn vào đơn' }).click();
    await page
      .locator('[data-sonner-toast]')
      .filter({ hasText: `Đã gắn giao dịch vào đơn ${transfer.paymentCode}` })
      .first()
      .waitFor();
    await expect.poll(() => short.count()).toBe(0);
    await stray.getByRole('button', { name: 'Bỏ qua' }).click();
    await page.locator('[data-sonner-toast]').filter({ hasText: 'Đã bỏ qua giao dịch' }).first().waitFor();
    await expect.poll(() => stray.count()).toBe(0);
    expect(prompts).toEqual(['Gắn giao dịch vào đơn (mã đơn hoặc mã thanh toán):', 'Lý do bỏ qua giao dịch này:']);

    const order = (await (
      await fetch(`${b.baseURL()}/api/vip/orders/${transfer.orderId}`, { headers: { authorization: `Bearer ${login.token}` } })
    ).json()) as { status: string };
    expect(order.status).toBe('paid');
    expect(errors).toEqual([]);
    await context.close();
  });
});
