import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { collectDialogs, DEMO, signIn } from './helpers/accounts';
import { expectVideoPlays, screenshot, setupBrowser } from './helpers/browser';

const b = setupBrowser();

/** The demo admin's access token, for checking through the API what the pages did. */
async function adminToken(): Promise<string> {
  const res = await fetch(`${b.baseURL()}/api/dang-nhap`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: DEMO.admin.email, password: DEMO.admin.password }),
  });
  return ((await res.json()) as { token: string }).token;
}

async function adminGet<T>(path: string): Promise<T> {
  const res = await fetch(`${b.baseURL()}${path}`, { headers: { Authorization: `Bearer ${await adminToken()}` } });
  return (await res.json()) as T;
}

const sidebarLinks = (page: Page) => page.getByRole('navigation', { name: 'Quản trị' }).getByRole('link').allInnerTexts();

/** A sonner toast with this text. */
const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first();

/** Now + `seconds` as the schedule form's date and time in Asia/Ho_Chi_Minh (UTC+7), rounded down to the minute. */
function vietnamDateTime(seconds: number): { date: string; time: string } {
  const iso = new Date(Date.now() + seconds * 1000 + 7 * 3600_000).toISOString();
  return { date: iso.slice(0, 10), time: iso.slice(11, 16) };
}

describe('admin area', () => {
  test('a visitor opening /admin/users is asked to sign in; a plain user lands on /not-found', async () => {
    const { page, context, errors } = await b.newPage();
    await page.goto('/admin/users');
    await page.waitForURL((u) => u.pathname === '/dang-nhap' && u.searchParams.get('redirect') === '/admin/users');
    await signIn(page, DEMO.user);
    await page.goto('/admin/users');
    await page.waitForURL(/\/not-found$/);
    await page.getByRole('heading', { name: 'Page Not Found' }).waitFor();
    await page.goto('/admin/dashboard');
    await page.waitForURL(/\/not-found$/);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the period and state tabs switch what the lists show; Làm mới asks the server again', async () => {
    const { page, context, errors } = await b.newPage();
    await signIn(page, DEMO.admin);
    await page.goto('/admin/analytics');
    const periods = page.getByRole('tablist', { name: 'Khoảng thời gian' });
    await expect.poll(() => periods.getByRole('tab', { name: '7 ngày' }).getAttribute('aria-selected')).toBe('true');
    await periods.getByRole('tab', { name: '30 ngày' }).click();
    await expect.poll(() => periods.getByRole('tab', { name: '30 ngày' }).getAttribute('aria-selected')).toBe('true');
    expect(await periods.getByRole('tab', { name: '7 ngày' }).getAttribute('aria-selected')).toBe('false');

    await page.goto('/admin/error-reports');
    const states = page.getByRole('tablist', { name: 'Trạng thái' });
    const all = page.waitForRequest((r) => r.url().includes('/api/admin/error-reports') && r.url().includes('state=all'));
    await states.getByRole('tab', { name: 'Tất cả' }).click();
    await all;
    await expect.poll(() => states.getByRole('tab', { name: 'Tất cả' }).getAttribute('aria-selected')).toBe('true');

    await page.goto('/admin/dashboard');
    await page.getByRole('heading', { name: 'Tổng quan' }).waitFor();
    const again = page.waitForRequest((r) => r.url().includes('/api/admin/stats'));
    await page.getByRole('button', { name: 'Làm mới' }).click();
    await again;
    expect(errors).toEqual([]);
    await context.close();
  });

  test('a VIP2 holder sees only its pages: dashboard, add film, add episode; no public header', async () => {
    const { page, context, errors } = await b.newPage();
    await signIn(page, DEMO.vip2);
    await page.goto('/admin/dashboard');
    // Their own uploads: films, episodes, views; never the site's revenue, users or members.
    await page.getByRole('heading', { name: 'Phim của bạn' }).waitFor();
    await expect.poll(() => sidebarLinks(page)).toEqual(['Tổng quan', 'Thêm phim', 'Thêm tập phim', 'Bình luận']);
    // The public header (its search box and nav) is not part of the back office.
    expect(await page.locator('header.site-header').count()).toBe(0);
    await page.locator('.stat-card').first().waitFor();
    expect(await page.locator('.stat-grid').textContent()).toContain('Phim bạn đã đăng');
    expect(await page.locator('.admin-main').textContent()).not.toMatch(/Doanh thu|Người dùng|Thành viên VIP/);
    await screenshot(page, 'admin-vip2-dashboard');
    await page.getByRole('link', { name: 'Thêm phim' }).click();
    await page.getByRole('heading', { name: 'Thêm phim mới' }).waitFor();
    for (const path of ['/admin/users', '/admin/products', '/admin/auto_crawlphim']) {
      await page.goto(path);
      await page.waitForURL(/\/not-found$/);
    }
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the admin changes a user permission and role, saved on change', async () => {
    const email = `quan-tri-thu-${Date.now()}@example.com`;
    const registered = await fetch(`${b.baseURL()}/api/dang-ky`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ email, password: 'mat-khau-123', name: 'Người thử quyền', acceptPrivacy: true }),
    });
    expect(registered.status).toBe(201);
    const { page, context, errors } = await b.newPage();
    await signIn(page, DEMO.admin);
    await page.goto('/admin/users');
    await expect
      .poll(() => sidebarLinks(page))
      .toEqual([
        'Tổng quan',
        'Người dùng',
        'Phim',
        'Thêm phim',
        'Thêm tập phim',
        'Phim đã xóa',
        'Thu thập tự động',
        'Nguồn phim',
        'Gộp phim',
        'Đơn hàng',
        'Báo lỗi',
        'Yêu cầu dữ liệu',
        'Bình luận',
        'Thống kê',
        'Cài đặt',
        'Nhật ký',
      ]);
    await page.getByLabel('Tìm người dùng').fill(email);
    await page.waitForURL(/q=/);
    // The previous page stays on screen until the filtered one arrives.
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await page.getByRole('cell', { name: email, exact: true }).waitFor();
    // No password anywhere on the page.
    expect(await page.locator('input[type="password"]').count()).toBe(0);

    const saved = page.waitForResponse((r) => r.url().endsWith('/api/update_permissions'));
    await page.getByLabel(`VIP1 của ${email}`).click();
    await expect.poll(() => page.getByLabel(`VIP1 của ${email}`).isChecked()).toBe(true);
    expect((await saved).status()).toBe(200);
    await toast(page, `Đã cập nhật quyền của ${email}: VIP1`).waitFor();
    const roleSaved = page.waitForResponse((r) => r.url().endsWith('/api/update_roles'));
    await page.getByLabel(`Vai trò của ${email}`).selectOption('admin');
    expect((await roleSaved).status()).toBe(200);
    await toast(page, `Đã cập nhật vai trò của ${email} thành admin`).waitFor();
    await screenshot(page, 'admin-users');

    const list = await adminGet<{ data: { email: string; permissions: string[]; roles: string[] }[] }>(
      `/api/getalluser?q=${encodeURIComponent(email)}`,
    );
    expect(list.data).toMatchObject([{ email, permissions: ['VIP1'], roles: ['admin'] }]);
    // In place: still one row, checkbox checked, after a reload too.
    await page.reload();
    expect(await page.getByLabel(`VIP1 của ${email}`).isChecked()).toBe(true);
    expect(await page.getByLabel(`Vai trò của ${email}`).inputValue()).toBe('admin');

    // Both writes are in the audit log an admin reads.
    await page.getByRole('link', { name: 'Nhật ký' }).click();
    await page.getByLabel('Lọc theo thao tác').selectOption('user.permissions');
    // Field by field: what changed, before → after.
    await page.getByRole('row').filter({ hasText: 'user.permissions' }).filter({ hasText: '— → VIP1' }).first().waitFor();
    await page.getByLabel('Lọc theo thao tác').selectOption('user.roles');
    await page.getByRole('row').filter({ hasText: 'user.roles' }).filter({ hasText: 'user → admin' }).first().waitFor();
    // The list before the filter stays on screen until the filtered one arrives (it may hold both actions).
    await expect.poll(() => page.getByRole('row').filter({ hasText: 'user.permissions' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the admin adds a film and an episode that play on the public site, then edits and deletes the film', async () => {
    const title = `Phim Thử Quản Trị ${Date.now()}`;
    const { page, context, errors } = await b.newPage();
    const dialogs = collectDialogs(page);
    await signIn(page, DEMO.admin);
    await page.goto('/admin/products/add_phim');

    // Validation: the field says what is wrong, nothing is sent.
    await page.getByLabel('Năm phát hành').fill('20x4');
    await page.getByRole('button', { name: 'Thêm phim' }).click();
    await page.getByText('Vui lòng nhập tên phim.').waitFor();
    await page.getByText('Năm phát hành phải là năm từ 1900 đến 2100.').waitFor();
    await page.getByText('Vui lòng chọn danh mục phim.').waitFor();
    expect(await page.getByLabel('Quốc gia').locator('option').count()).toBe(36); // 35 countries + the prompt

    await page.getByLabel('Tên phim *').fill(title);
    await page.getByLabel('Tên tiếng Anh').fill('Admin Test Film');
    await page.getByLabel('Năm phát hành').fill('2024');
    await page.getByLabel('Số tập').fill('1');
    await page.getByLabel('Chất lượng (HD, FHD…)').fill('HD');
    await page.getByLabel('Quốc gia').selectOption('Hàn Quốc');
    await page.getByLabel('Danh mục *').selectOption({ label: 'Phim Lẻ' });
    await page.getByLabel('Hành Động').check();
    await page.getByLabel('Mô tả').fill('Phim thêm bởi bài kiểm thử trang quản trị.');
    await page.getByRole('button', { name: 'Thêm phim' }).click();
    await toast(page, 'Thêm mới phim thành công!').waitFor();
    await page.getByRole('link', { name: 'Thêm tập cho phim này' }).click();
    await page.waitForURL(/\/admin\/products\/add_episode\?film=/);
    const slug = new URL(page.url()).searchParams.get('film')!;
    await page.getByRole('link', { name: title }).waitFor();
    await page.getByText('Phim chưa có tập nào.').waitFor();

    await page.getByLabel('Link phim *').fill('not a link');
    await page.getByLabel('Tập số *').fill('1');
    await page.getByRole('button', { name: 'Thêm tập' }).click();
    await page.getByText('Link phải là một địa chỉ http(s) (ví dụ .m3u8).').waitFor();
    await page.getByLabel('Link phim *').fill(`${b.baseURL()}/demo-media/hls/clip.m3u8`);
    await page.getByRole('button', { name: 'Thêm tập' }).click();
    await toast(page, 'Thêm tập phim mới thành công').waitFor();
    await page.getByRole('cell', { name: 'Vietsub #1' }).waitFor();
    await screenshot(page, 'admin-add-episode');

    // The public site plays it.
    await page.goto(`/xem-phim/${slug}/tap-1`);
    await expectVideoPlays(page);

    // Edit in the list: one row at a time, save.
    await page.goto('/admin/products');
    await page.getByLabel('Lọc theo tên phim').fill(title);
    await page.waitForURL(/q=/);
    const row = page.locator(`tr[data-slug="${slug}"]`);
    await row.waitFor();
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    await row.getByRole('button', { name: `Sửa ${title}` }).click();
    await row.getByLabel('Tên phim').fill(`${title} (bản sửa)`);
    await row.getByLabel('Chất lượng').fill('FHD');
    const edited = page.waitForResponse((r) => r.url().endsWith('/api/product/edit_productphim'));
    await row.getByRole('button', { name: 'Lưu' }).click();
    expect((await edited).status()).toBe(200);
    await row.getByRole('link', { name: `${title} (bản sửa)` }).waitFor();
    const detail = (await (await fetch(`${b.baseURL()}/api/product/${slug}`)).json()) as { datafilm: { title: string; chatluong: string } };
    expect(detail.datafilm).toMatchObject({ title: `${title} (bản sửa)`, chatluong: 'FHD' });

    // VIP1 flips at once; a failed save puts it back with an error toast; a good one keeps it.
    await page.route(
      '**/api/product/edit_packageVIP1',
      (route) => route.fulfill({ status: 500, json: { error: { code: 'x', message: 'hỏng' } } }),
      {
        times: 1,
      },
    );
    // click(), not check(): the mocked failure answers at once and check() would click again on seeing it unchecked.
    await row.getByLabel(/^VIP1 của /).click();
    await toast(page, 'Không lưu được VIP1').waitFor();
    await expect.poll(() => row.getByLabel(/^VIP1 của /).isChecked()).toBe(false);
    const vip = page.waitForResponse((r) => r.url().endsWith('/api/product/edit_packageVIP1'));
    await row.getByLabel(/^VIP1 của /).click();
    await expect.poll(() => row.getByLabel(/^VIP1 của /).isChecked()).toBe(true);
    expect((await vip).status()).toBe(200);
    expect(await row.getByLabel(/^VIP1 của /).isChecked()).toBe(true);
    expect(((await (await fetch(`${b.baseURL()}/api/product/${slug}`)).json()) as { datafilm: { VIP1: number } }).datafilm.VIP1).toBe(1);
    await screenshot(page, 'admin-products');

    // Select and delete, after a confirmation.
    await row.getByLabel(/^Chọn /).check();
    const deleted = page.waitForResponse((r) => r.url().endsWith('/api/product/delete_products'));
    await page.getByRole('button', { name: 'Xoá đã chọn (1)' }).click();
    expect((await deleted).status()).toBe(200);
    expect(dialogs.at(-1)).toMatch(/^Xoá phim ".+"\? Các tập, bình luận và đánh giá của phim cũng bị xoá\.$/);
    await page.getByText('Không có phim nào.').waitFor();
    expect((await fetch(`${b.baseURL()}/api/product/${slug}`)).status).toBe(404);
    expect(errors).toEqual([]);
    await context.close();
  });

  test('the admin crawls one genre from the demo source; the progress bar reaches the end', async () => {
    const { page, context, errors } = await b.newPage();
    await signIn(page, DEMO.admin);
    await page.goto('/admin/auto_crawlphim');
    await page.getByLabel('Thể loại cần thu thập').selectOption('Hành Động');
    // No duplicates: the chosen one is disabled in the list.
    expect(await page.getByLabel('Thể loại cần thu thập').locator('option[value="Hành Động"]').isDisabled()).toBe(true);
    const chosen = page.getByRole('list', { name: 'Thể loại đã chọn' });
    expect(await chosen.getByRole('listitem').allInnerTexts()).toEqual([expect.stringContaining('Hành Động')]);
    const started = page.waitForResponse((r) => r.url().endsWith('/api/crawl'));
    await page.getByRole('button', { name: 'Thu thập ngay' }).click();
    expect((await started).status()).toBe(202);
    // The choices went with that crawl: the schedule form does not inherit them.
    await chosen.getByText('Chưa chọn thể loại nào.').waitFor();
    const bar = page.getByRole('progressbar', { name: 'Tiến độ thu thập' });
    await bar.waitFor();
    await expect.poll(() => bar.getAttribute('aria-valuenow'), { timeout: 60_000 }).toBe('100');
    await page.locator('.crawl-progress[data-state="done"]').waitFor();
    await toast(page, 'Thu thập xong').waitFor();
    await screenshot(page, 'admin-crawl-done');
    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);

  test('the admin schedules a crawl a minute ahead and sees it marked done', async () => {
    const { page, context, errors } = await b.newPage();
    await signIn(page, DEMO.admin);
    await page.goto('/admin/auto_crawlphim');
    // Incomplete, then in the past: the spec's texts.
    await page.getByRole('button', { name: 'Đặt lịch' }).click();
    await page.getByText('Vui lòng chọn thể loại, ngày, và thời gian để đặt lịch.').waitFor();
    await page.getByRole('button', { name: 'Chọn tất cả' }).click();
    expect(await page.getByRole('list', { name: 'Thể loại đã chọn' }).getByRole('listitem').count()).toBe(27);
    await page.getByRole('button', { name: 'Bỏ Hành Động' }).click();
    expect(await page.getByRole('list', { name: 'Thể loại đã chọn' }).getByRole('listitem').count()).toBe(26);
    await page.getByRole('button', { name: 'Bỏ chọn hết' }).click();
    await page.getByLabel('Thể loại cần thu thập').selectOption('Phim Lẻ');
    const past = vietnamDateTime(-3600);
    await page.getByLabel('Ngày').fill(past.date);
    await page.getByLabel('Giờ').fill(past.time);
    await page.getByRole('button', { name: 'Đặt lịch' }).click();
    await page.getByText('Thời gian đã chọn không hợp lệ. Vui lòng chọn thời gian trong tương lai.').waitFor();

    // The next whole minute at least 15 s away (the form takes a few seconds to send).
    const soon = vietnamDateTime(75);
    await page.getByLabel('Ngày').fill(soon.date);
    await page.getByLabel('Giờ').fill(soon.time);
    const created = page.waitForResponse((r) => r.url().endsWith('/api/create_scheduled_crawls'));
    await page.getByRole('button', { name: 'Đặt lịch' }).click();
    const body = (await (await created).json()) as { status: number; data: { id: number } };
    expect(body.status).toBe(200);
    await toast(page, 'Bạn đã đặt lịch hẹn thành công!').waitFor();
    const row = page.locator(`tr[data-schedule="${body.data.id}"]`);
    await row.getByText('chưa thực hiện').waitFor();
    expect(await row.innerText()).toContain(soon.time);
    // The scheduler (the Node host's minute ticker) runs it; the list refreshes in place.
    await row.getByText('đã hoàn thành').waitFor({ timeout: 170_000 });
    await screenshot(page, 'admin-schedule-done');
    expect(errors).toEqual([]);
    await context.close();
  }, 200_000);
});
