// Comment moderation in the browser (issue 33): two members on phones and an admin on a desktop. A report hides a
// comment on both phones live; the admin removes one and its author sees why; a held link is seen only by its
// author until approved; a spoiler is blurred until tapped; a muted member is told why; a banned one cannot sign in.
// Members are fresh accounts (the demo accounts are shared with the other files); the admin is the demo admin.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEMO, freeFilms, signIn } from './helpers/accounts';
import { SCREENSHOTS, screenshot, setupBrowser } from './helpers/browser';
import { PHONE, signInByTouch, tap, tapAndType } from './helpers/phone';

const b = setupBrowser();
const api = (path: string) => `${b.baseURL()}${path}`;
let adminToken = '';
let slugs: string[] = [];

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}
const authed = (token: string) => ({ authorization: `Bearer ${token}`, 'content-type': 'application/json' });

/** A new member, registered and signed in through the API (for the accounts that act off screen). */
async function newMember(name: string): Promise<{ email: string; password: string; name: string; token: string; id: number }> {
  const email = `${name.toLowerCase().replace(/\W+/g, '-')}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
  const password = 'mat-khau-thu-nghiem';
  await json(
    await fetch(api('/api/dang-ky'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, name, password, acceptPrivacy: true }),
    }),
  );
  const session = await json<{ token: string; id: number }>(
    await fetch(api('/api/dang-nhap'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password }),
    }),
  );
  return { email, password, name, token: session.token, id: session.id };
}

const setThreshold = (n: number) =>
  fetch(api('/api/admin/settings'), { method: 'PUT', headers: authed(adminToken), body: JSON.stringify({ commentReportThreshold: n }) });

beforeAll(async () => {
  slugs = await freeFilms(b.baseURL(), 'product-phimle');
  adminToken = (
    await json<{ token: string }>(
      await fetch(api('/api/dang-nhap'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: DEMO.admin.email, password: DEMO.admin.password }),
      }),
    )
  ).token;
});

afterAll(async () => {
  await setThreshold(3);
});

/** A member on a 390×844 touch phone, signed in with the keyboard and taps, on a film page with its room joined. */
async function phoneOn(member: { email: string; password: string }, slug: string) {
  const phone = await b.newPage(PHONE);
  await signInByTouch(phone.page, member);
  await openFilm(phone.page, slug);
  return phone;
}

async function openFilm(page: Page, slug: string): Promise<void> {
  // The page asks for what it missed each time its room opens: then it is live.
  const joined = page.waitForResponse((r) => /\/api\/product\/[^/]+\/comments\?since=\d+$/.test(r.url()), { timeout: 45_000 });
  await page.goto(`/${slug}`);
  await joined;
}

const commentText = (page: Page, text: string) => page.locator('.comment-text', { hasText: text });
const commentItem = (page: Page, text: string) =>
  page.locator('li.comment', { has: page.locator('.comment-text', { hasText: text }) }).first();

async function postByTouch(page: Page, text: string, spoiler = false): Promise<void> {
  await tapAndType(page, page.getByPlaceholder('Để lại bình luận ...'), text);
  if (spoiler) await tap(page, page.getByRole('checkbox', { name: 'Có tiết lộ nội dung' }));
  const posted = page.waitForResponse((r) => r.url().endsWith('/api/product/comment') && r.request().method() === 'POST');
  await tap(page, page.getByRole('button', { name: 'Bình luận', exact: true }));
  expect((await posted).status()).toBe(201);
}

describe('comment moderation on phones and a desktop', () => {
  test('a report hides a comment on both phones live', async () => {
    const slug = slugs[0]!;
    const [lan, minh, author, other] = [
      await newMember('Lan'),
      await newMember('Minh'),
      await newMember('Tác giả'),
      await newMember('Người khác'),
    ];
    expect((await setThreshold(2)).status).toBe(200);
    const text = `Tập cuối nhân vật chính chết ${Date.now()}`;
    const comment = await json<{ id: number }>(
      await fetch(api('/api/product/comment'), {
        method: 'POST',
        headers: authed(author.token),
        body: JSON.stringify({ titlefilm: slug, contentcomment: text }),
      }),
    );
    const [a, c] = [await phoneOn(lan, slug), await phoneOn(minh, slug)];
    await commentText(a.page, text).waitFor();
    await commentText(c.page, text).waitFor();
    // One report from elsewhere: below the threshold, still shown.
    await json(
      await fetch(api(`/api/comments/${comment.id}/report`), {
        method: 'POST',
        headers: authed(other.token),
        body: JSON.stringify({ reason: 'spam' }),
      }),
    );

    // Minh reports it from his phone: the second report hides it on both phones, without a reload.
    const item = commentItem(c.page, text);
    await tap(c.page, item.getByRole('button', { name: 'Báo cáo' }));
    for (const reason of ['Spam / quảng cáo', 'Nội dung phản cảm', 'Tiết lộ nội dung (spoiler)', 'Quấy rối', 'Khác'])
      await item.getByRole('radio', { name: reason }).waitFor();
    await tap(c.page, item.getByRole('radio', { name: 'Tiết lộ nội dung (spoiler)' }));
    const reported = c.page.waitForResponse((r) => r.url().endsWith(`/api/comments/${comment.id}/report`));
    await tap(c.page, item.getByRole('button', { name: 'Gửi báo cáo' }));
    expect((await reported).status()).toBe(201);
    await commentText(c.page, text).waitFor({ state: 'detached' });
    await commentText(a.page, text).waitFor({ state: 'detached' });
    await a.page.locator('.comments').screenshot({ path: `${SCREENSHOTS}/moderation-report-hidden-phone.png` });
    for (const p of [a, c]) {
      expect(p.errors).toEqual([]);
      await p.context.close();
    }
  }, 240_000);

  test('the admin removes a comment on a desktop and its author sees why; a muted member is told until when', async () => {
    const slug = slugs[1]!;
    const [lan, minh] = [await newMember('Lan'), await newMember('Minh')];
    const [a, c] = [await phoneOn(lan, slug), await phoneOn(minh, slug)];
    const text = `Bình luận gây hấn ${Date.now()}`;
    await postByTouch(a.page, text);
    await commentText(c.page, text).waitFor();
    // Minh reports it (one report: it stays, and enters the queue).
    const item = commentItem(c.page, text);
    await tap(c.page, item.getByRole('button', { name: 'Báo cáo' }));
    await tap(c.page, item.getByRole('radio', { name: 'Quấy rối' }));
    await tap(c.page, item.getByRole('button', { name: 'Gửi báo cáo' }));
    await item.getByRole('button', { name: 'Đã báo cáo' }).waitFor();

    const desk = await b.newPage();
    await signIn(desk.page, DEMO.admin, '/admin/binh-luan');
    await desk.page.goto('/admin/binh-luan');
    const card = desk.page.getByRole('article').filter({ hasText: text });
    await card.waitFor();
    await expect.poll(() => card.innerText()).toMatch(/1 báo cáo: Quấy rối/);
    await card.getByLabel('Lý do (người viết sẽ thấy)').fill('Ngôn từ xúc phạm người khác');
    await card.getByRole('button', { name: 'Gỡ bình luận' }).click();
    await card.waitFor({ state: 'detached' });

    // Live on both phones: the author sees why; the other member no longer sees it.
    await a.page.getByText('Bình luận của bạn đã bị gỡ: Ngôn từ xúc phạm người khác').waitFor();
    await commentText(c.page, text).waitFor({ state: 'detached' });
    await a.page.locator('.comments').screenshot({ path: `${SCREENSHOTS}/moderation-removed-author-phone.png` });

    // The admin mutes Lan for a day from the queue (her next comment is held: a link from a new account).
    const held = `Xem thêm ở phimlau.com ${Date.now()}`;
    await postByTouch(a.page, held);
    await desk.page.reload();
    const heldCard = desk.page.getByRole('article').filter({ hasText: held });
    await heldCard.getByLabel('Lý do (người viết sẽ thấy)').fill('Spam quảng cáo');
    await heldCard.getByLabel('Thời hạn khóa bình luận').selectOption('1d');
    await heldCard.getByRole('button', { name: 'Khóa bình luận' }).click();
    const notice = a.page.getByRole('alert').filter({ hasText: /^Bạn bị tạm khóa bình luận đến \d\d\/\d\d\/\d{4}: Spam quảng cáo$/ });
    await notice.waitFor();
    expect(await a.page.getByPlaceholder('Để lại bình luận ...').count()).toBe(0);
    await a.page.locator('.comments').screenshot({ path: `${SCREENSHOTS}/moderation-muted-phone.png` });
    // After a reload too (and she still reads the thread).
    await a.page.reload();
    await notice.waitFor();
    await commentText(a.page, held).waitFor();
    await screenshot(desk.page, 'moderation-queue-desktop');
    for (const p of [a, c, desk]) await p.context.close();
  }, 240_000);

  test('a held link is seen only by its author until the admin approves it; a spoiler is blurred until tapped', async () => {
    const slug = slugs[2]!;
    const [lan, minh] = [await newMember('Lan'), await newMember('Minh')];
    const [a, c] = [await phoneOn(lan, slug), await phoneOn(minh, slug)];
    const link = `Bản đẹp hơn: https://phim-khac.example/xem ${Date.now()}`;
    await postByTouch(a.page, link);
    const mine = commentItem(a.page, link);
    await mine.getByText('Đang chờ duyệt', { exact: true }).waitFor();
    // A comment after it reaches the other phone through the room; the held one, which never went to the room, is not there.
    const after = `Bình luận bình thường ${Date.now()}`;
    await postByTouch(a.page, after);
    await commentText(c.page, after).waitFor();
    expect(await commentText(c.page, link).count()).toBe(0);
    await c.page.reload();
    await commentText(c.page, after).waitFor();
    expect(await commentText(c.page, link).count()).toBe(0);

    const desk = await b.newPage();
    await signIn(desk.page, DEMO.admin, '/admin/binh-luan');
    await desk.page.goto('/admin/binh-luan');
    await desk.page.getByRole('tab', { name: 'Đang giữ lại' }).click();
    const card = desk.page.getByRole('article').filter({ hasText: link });
    await card.getByText(/Đang giữ lại: Có liên kết/).waitFor();
    await card.getByRole('button', { name: 'Duyệt', exact: true }).click();
    await card.waitFor({ state: 'detached' });
    await commentText(c.page, link).waitFor();
    await mine.getByText('Đang chờ duyệt', { exact: true }).waitFor({ state: 'detached' });

    // A spoiler: blurred on the other phone, with "Hiện"; a tap shows it.
    const spoiler = `Cuối phim hai người chia tay ${Date.now()}`;
    await postByTouch(a.page, spoiler, true);
    const blurred = c.page.locator('.spoiler-text', { hasText: spoiler });
    await blurred.waitFor();
    expect(await blurred.evaluate((el) => getComputedStyle(el).filter)).toMatch(/blur/);
    await c.page.locator('.comments').screenshot({ path: `${SCREENSHOTS}/moderation-spoiler-phone.png` });
    const item = commentItem(c.page, spoiler);
    await tap(c.page, item.getByRole('button', { name: /^Hiện/ }));
    const shown = item.locator('.comment-text', { hasText: spoiler });
    await shown.waitFor();
    expect(await shown.evaluate((el) => getComputedStyle(el).filter)).toBe('none');
    for (const p of [a, c, desk]) {
      expect(p.errors).toEqual([]);
      await p.context.close();
    }
  }, 240_000);

  test('a banned member is told so in Vietnamese when signing in', async () => {
    const banned = await newMember('Bị khóa');
    await json(
      await fetch(api(`/api/admin/users/${banned.id}/ban`), {
        method: 'POST',
        headers: authed(adminToken),
        body: JSON.stringify({ reason: 'Lừa đảo' }),
      }),
    );
    const phone = await b.newPage(PHONE);
    await phone.page.goto('/dang-nhap');
    await tapAndType(phone.page, phone.page.getByLabel('Email'), banned.email);
    await tapAndType(phone.page, phone.page.getByLabel('Mật khẩu'), banned.password);
    await tap(phone.page, phone.page.getByRole('button', { name: 'Đăng nhập', exact: true }));
    await phone.page.getByRole('alert').filter({ hasText: 'Tài khoản của bạn đã bị khóa: Lừa đảo' }).waitFor();
    expect(new URL(phone.page.url()).pathname).toBe('/dang-nhap');
    await phone.context.close();
  }, 120_000);
});
