// Issue 34 on a phone: a forgotten password through the local inbox page (npm start's mail catcher on the
// stand-in port), a passkey added and used to sign in with Chromium's virtual authenticator (CDP WebAuthn),
// and a device signed out from another.
import type { Page } from 'playwright-core';
import { describe, expect, inject, test } from 'vitest';
import { collectDialogs } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, signInByTouch, tap, tapAndType } from './helpers/phone';

const b = setupBrowser();
const ANDROID_PHONE =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';
const WINDOWS_LAPTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';

let counter = 0;
/** A fresh member made through the API (each test its own: no shared rate limits or devices). */
async function newMember(): Promise<{ email: string; password: string; name: string }> {
  counter += 1;
  const member = {
    email: `khoi-phuc-${Date.now()}-${counter}@example.com`,
    password: `mat-khau-${counter}-cu`,
    name: `Khôi Phục ${counter}`,
  };
  const res = await fetch(`${b.baseURL()}/api/dang-ky`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...member, acceptPrivacy: true }),
  });
  expect(res.status).toBe(201);
  return member;
}

/** Polls the inbox's JSON until a mail to `to` whose subject matches has arrived (the product sends it after answering). */
async function waitForMail(to: string, subject: string): Promise<void> {
  await expect
    .poll(
      async () => {
        const res = await fetch(`${inject('mailURL')}/api/messages?to=${encodeURIComponent(to)}`);
        const { data } = (await res.json()) as { data: { subject: string }[] };
        return data.some((m) => m.subject === subject);
      },
      { timeout: 20_000, interval: 250 },
    )
    .toBe(true);
}

describe('account recovery (phone)', () => {
  test('forgotten password: "Quên mật khẩu?" → the mail in the inbox page → a new password → signed in with it', async () => {
    const member = await newMember();
    const { page, context, errors } = await b.newPage(PHONE);
    await page.goto('/dang-nhap');
    await tap(page, page.getByRole('link', { name: 'Quên mật khẩu?' }));
    await page.waitForURL((u) => u.pathname === '/quen-mat-khau');
    await tapAndType(page, page.getByLabel('Email'), 'khong-phai-email');
    await tap(page, page.getByRole('button', { name: 'Gửi liên kết đặt lại mật khẩu' }));
    // The field says what is wrong, tied to the input.
    const emailField = page.getByLabel('Email');
    await page.locator('#forgot-email-error', { hasText: 'Địa chỉ email không hợp lệ' }).waitFor();
    expect(await emailField.getAttribute('aria-describedby')).toContain('forgot-email-error');
    expect(await emailField.getAttribute('aria-invalid')).toBe('true');
    await emailField.fill('');
    await tapAndType(page, emailField, member.email);
    await tap(page, page.getByRole('button', { name: 'Gửi liên kết đặt lại mật khẩu' }));
    await page.getByTestId('reset-sent').waitFor();
    await screenshot(page, 'forgot-password-sent');

    await waitForMail(member.email, 'Đặt lại mật khẩu PhimViet');
    const inbox = await context.newPage();
    await inbox.goto(inject('mailURL'));
    await tap(inbox, inbox.getByTestId('mail-item').filter({ hasText: member.email }).filter({ hasText: 'Đặt lại mật khẩu' }).first());
    await screenshot(inbox, 'mail-inbox-reset');
    await tap(inbox, inbox.getByTestId('mail-link').filter({ hasText: '/dat-lai-mat-khau' }));
    await inbox.waitForURL((u) => u.pathname === '/dat-lai-mat-khau');
    const link = inbox.url();
    await inbox.waitForFunction(() => 'appReady' in document.documentElement.dataset, null, { timeout: 30_000 });
    await inbox.getByTestId('reset-email').filter({ hasText: member.email }).waitFor();
    const fresh = 'mat-khau-moi-that-dai';
    await tapAndType(inbox, inbox.getByLabel('Mật khẩu mới', { exact: true }), fresh);
    await tapAndType(inbox, inbox.getByLabel('Nhập lại mật khẩu mới'), fresh);
    await tap(inbox, inbox.getByRole('button', { name: 'Đặt mật khẩu mới' }));
    await inbox.waitForURL((u) => u.pathname === '/dang-nhap');
    await inbox.getByText('Đặt lại mật khẩu thành công').waitFor();
    // The same link again: used, said so before any form.
    await inbox.goto(link);
    await inbox.waitForFunction(() => 'appReady' in document.documentElement.dataset, null, { timeout: 30_000 });
    await inbox.getByTestId('reset-link-error').filter({ hasText: 'đã được sử dụng' }).waitFor();

    // The old password no longer works; the new one does.
    await page.goto('/dang-nhap');
    await tapAndType(page, page.getByLabel('Email'), member.email);
    await tapAndType(page, page.getByLabel('Mật khẩu'), member.password);
    await tap(page, page.getByRole('button', { name: 'Đăng nhập', exact: true }));
    await page.getByRole('alert').filter({ hasText: 'Thông tin đăng nhập không chính xác !!!' }).waitFor();
    await page.goto('/dang-nhap');
    await signInByTouch(page, { email: member.email, password: fresh });
    await waitForMail(member.email, 'Mật khẩu của bạn đã được thay đổi');
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a passkey: added on /account with the virtual authenticator, then used to sign in on /dang-nhap', async () => {
    const member = await newMember();
    const { page, context } = await b.newPage(PHONE);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await signInByTouch(page, member);
    await page.goto('/account');
    // The address typed at sign-up is not verified yet.
    await page.getByTestId('email-unverified').filter({ hasText: 'Chưa xác minh' }).waitFor();
    await tapAndType(page, page.getByLabel('Tên khóa (không bắt buộc)'), 'Điện thoại thử');
    await tap(page, page.getByRole('button', { name: 'Thêm khóa đăng nhập' }));
    await page.getByTestId('passkey').filter({ hasText: 'Điện thoại thử' }).waitFor();
    await screenshot(page, 'passkey-added');

    // Signed out, then back in with the passkey alone.
    await signOutHere(page);
    await page.goto('/dang-nhap');
    await tap(page, page.getByRole('button', { name: 'Đăng nhập bằng khóa đăng nhập' }));
    await page.waitForURL((u) => u.pathname === '/');
    await expect.poll(() => page.evaluate(() => sessionStorage.getItem('email'))).toBe(member.email);
    await page.goto('/account');
    await page.getByTestId('passkey').filter({ hasText: 'dùng lần cuối' }).waitFor();

    // Removed, it signs nobody in any more: the server's sentence on the form.
    const confirms = collectDialogs(page);
    await tap(page, page.getByRole('button', { name: 'Xóa khóa đăng nhập Điện thoại thử' }));
    await page.getByText('Chưa có khóa đăng nhập nào.').waitFor();
    expect(confirms).toHaveLength(1);
    await signOutHere(page);
    await page.goto('/dang-nhap');
    await tap(page, page.getByRole('button', { name: 'Đăng nhập bằng khóa đăng nhập' }));
    await page.locator('#login-error', { hasText: 'Khóa đăng nhập này không còn thuộc tài khoản nào' }).waitFor();
    await context.close();
  });

  test('the site opened by its IP address: adding or using a passkey says to open it by its name, in Vietnamese', async () => {
    const member = await newMember();
    // Browsers take only a domain as the relying party: on http://127.0.0.1 no passkey can work at all.
    const byIp = b.baseURL().replace('//localhost:', '//127.0.0.1:');
    const { page, context, errors } = await b.newPage({ ...PHONE, baseURL: byIp });
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
    });
    await signInByTouch(page, member);
    await page.goto('/account');
    await tap(page, page.getByRole('button', { name: 'Thêm khóa đăng nhập' }));
    await page.locator('#passkey-error', { hasText: 'không dùng được khi mở trang bằng địa chỉ 127.0.0.1' }).waitFor();
    await signOutHere(page);
    await page.goto('/dang-nhap');
    await tap(page, page.getByRole('button', { name: 'Đăng nhập bằng khóa đăng nhập' }));
    await page.locator('#login-error', { hasText: 'hãy mở trang bằng tên miền của trang' }).waitFor();
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a device signed out from another stops at once; "Đăng xuất khỏi các thiết bị khác" keeps only this one', async () => {
    const member = await newMember();
    // Three browsers the device list tells apart by their User-Agents; the laptop has a touch screen, so the
    // same taps sign it in.
    const phone = await b.newPage({ ...PHONE, userAgent: ANDROID_PHONE });
    const laptop = await b.newPage({ hasTouch: true, userAgent: WINDOWS_LAPTOP });
    const tablet = await b.newPage({ ...PHONE, userAgent: IPAD });
    await signInByTouch(laptop.page, member);
    await signInByTouch(tablet.page, member);
    await signInByTouch(phone.page, member);
    await phone.page.goto('/account');
    const devices = phone.page.getByTestId('device');
    await expect.poll(() => devices.count()).toBe(3);
    await devices.filter({ hasText: 'Thiết bị này' }).waitFor();
    await screenshot(phone.page, 'devices');

    // The laptop is signed out from the phone.
    const laptopRow = devices.filter({ hasText: 'Windows' });
    expect(await devices.filter({ hasText: 'Thiết bị này' }).innerText()).toContain('Android');
    await tap(phone.page, laptopRow.getByRole('button', { name: /^Đăng xuất/ }));
    await expect.poll(() => devices.count()).toBe(2);
    // The laptop's next call is refused: its session is over, it is sent to sign in again.
    const alerts = collectDialogs(laptop.page);
    await laptop.page.goto('/account');
    await laptop.page.waitForURL((u) => u.pathname === '/dang-nhap', { timeout: 20_000 });
    expect(alerts.join(' ')).toContain('Phiên đăng nhập đã hết hạn');

    await tap(phone.page, phone.page.getByRole('button', { name: 'Đăng xuất khỏi các thiết bị khác' }));
    await expect.poll(() => devices.count()).toBe(1);
    await tablet.page.goto('/account');
    await tablet.page.waitForURL((u) => u.pathname === '/dang-nhap', { timeout: 20_000 });
    // The phone goes on.
    await phone.page.reload();
    await phone.page.getByTestId('device').filter({ hasText: 'Thiết bị này' }).waitFor();
    for (const d of [phone, laptop, tablet]) await d.context.close();
  });
});

/** The header's "Đăng xuất" (in the menu on a phone), confirmed. */
async function signOutHere(page: Page): Promise<void> {
  page.once('dialog', (d) => void d.accept().catch(() => undefined));
  await page.evaluate(() => window.scrollTo(0, 0));
  const menu = page.getByRole('button', { name: 'Mở menu' });
  if (await menu.isVisible()) await tap(page, menu);
  await tap(page, page.getByRole('button', { name: 'Đăng xuất', exact: true }));
  await expect.poll(() => page.evaluate(() => sessionStorage.getItem('token'))).toBeNull();
}
