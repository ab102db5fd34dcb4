// Issue 39 §3 on a phone: sign-up refuses to go on until the privacy policy's box is ticked (taps only), and the
// privacy page shows what is kept, why, how long (the scheduler's own figures), who processes it and each right.
import { describe, expect, test } from 'vitest';
import { PRIVACY_PROCESSORS } from '../../worker/schemas/privacy';
import { RETENTION_DAYS } from '../../worker/schemas/retention';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, tap, tapAndType } from './helpers/phone';

const b = setupBrowser();

describe('consent and the privacy page on a phone', () => {
  test('sign-up needs the privacy box ticked; ticked, the account is made', async () => {
    const { page } = await b.newPage(PHONE);
    const email = `dong-y-${Date.now()}@example.com`;
    await page.goto('/dang-ky');
    await tapAndType(page, page.getByLabel('Email'), email);
    await tapAndType(page, page.getByLabel('Tên hiển thị'), 'Người Đồng Ý');
    await page.getByLabel('Mật khẩu', { exact: true }).fill('mat-khau-dong-y');
    await page.getByLabel('Nhập lại mật khẩu').fill('mat-khau-dong-y');
    const box = page.getByRole('checkbox', { name: /đồng ý với Chính sách bảo mật/ });
    expect(await box.isChecked()).toBe(false);
    // The policy is one tap away from the form.
    expect(await page.getByRole('link', { name: 'Chính sách bảo mật' }).first().getAttribute('href')).toBe('/bao-mat');

    await tap(page, page.getByRole('button', { name: 'Đăng ký' }));
    await page.getByText('Bạn cần đồng ý với Chính sách bảo mật để tạo tài khoản').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dang-ky');
    await screenshot(page, 'register-consent-required', true);

    await tap(page, box);
    expect(await box.isChecked()).toBe(true);
    await tap(page, page.getByRole('button', { name: 'Đăng ký' }));
    await page.waitForURL((url) => url.pathname === '/');
    // Registered and signed in.
    expect(await page.evaluate(() => sessionStorage.getItem('email'))).toBe(email);
  });

  test("/bao-mat lists the data kept with the scheduler's figures, every processor and each right", async () => {
    const { page } = await b.newPage(PHONE);
    await page.goto('/bao-mat');
    await page.getByRole('heading', { name: 'Chính sách bảo mật', level: 1 }).waitFor();
    await page.getByRole('heading', { name: 'Dữ liệu chúng tôi lưu' }).waitFor();
    const dataTable = page.getByRole('table', { name: 'Dữ liệu chúng tôi lưu' });
    const history = dataTable.getByRole('row').filter({ hasText: 'Lịch sử xem và vị trí đang xem' });
    expect(await history.textContent()).toContain(`${RETENTION_DAYS.watchHistory} ngày`);
    const mail = dataTable.getByRole('row').filter({ hasText: 'Thư gửi cho bạn' });
    expect(await mail.textContent()).toContain(`${RETENTION_DAYS.mailSent} ngày`);
    const processors = page.getByRole('table', { name: 'Bên xử lý dữ liệu' });
    // One row per processor, its name in the first cell.
    const firstCells = await processors.locator('tbody tr td:first-child').allTextContents();
    expect(firstCells).toEqual(PRIVACY_PROCESSORS.map((p) => p.name));
    const rights = page.getByRole('table', { name: 'Quyền của bạn' });
    expect(await rights.getByRole('link', { name: 'Xóa tài khoản' }).getAttribute('href')).toBe('/xoa-tai-khoan');
    expect(await rights.getByRole('link', { name: 'Tải dữ liệu của tôi' }).getAttribute('href')).toBe('/account');
    await screenshot(page, 'privacy-page-phone', true);

    // The request form, signed out: the email and the text, then the acknowledgement date.
    await tapAndType(page, page.getByLabel('Email liên hệ'), 'khach-bao-mat@example.com');
    await tapAndType(page, page.getByLabel('Nội dung yêu cầu'), 'Xin hạn chế dùng email của tôi.');
    await tap(page, page.getByRole('button', { name: 'Gửi yêu cầu' }));
    await page.getByText(/Đã nhận yêu cầu\. Chúng tôi sẽ xác nhận trước ngày/).waitFor();
  });
});
