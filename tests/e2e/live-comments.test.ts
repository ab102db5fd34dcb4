import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { collectDialogs, DEMO, freeFilms, signIn } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';

const b = setupBrowser();

/** Opens a film page and resolves once its live room is joined (the page asks for missed comments on every open). */
async function openWithRoom(page: Page, path: string): Promise<void> {
  const joined = page.waitForResponse((r) => /\/api\/product\/[^/]+\/comments\?since=\d+$/.test(r.url()), { timeout: 20_000 });
  await page.goto(path);
  await joined;
}

const commentCount = async (page: Page) =>
  Number(/\((\d+)\)/.exec(await page.getByRole('heading', { name: /^Bình luận \(\d+\)$/ }).innerText())?.[1]);

describe('live comments', () => {
  test('a comment posted in one browser shows in another within a second, without reload; a reply nests under its parent; also on the watch page', async () => {
    const [slug] = await freeFilms(b.baseURL(), 'product-phimbo');
    const poster = await b.newPage();
    const viewer = await b.newPage();
    const viewerDialogs = collectDialogs(viewer.page);
    await signIn(poster.page, DEMO.user);
    await Promise.all([openWithRoom(poster.page, `/${slug}`), openWithRoom(viewer.page, `/${slug}`)]);
    const start = await commentCount(viewer.page);
    let navigations = 0;
    viewer.page.on('framenavigated', (f) => {
      if (f === viewer.page.mainFrame()) navigations++;
    });

    // Text, never HTML.
    const text = `Phim <b>hay</b> & cảm động ${Date.now()}`;
    await poster.page.getByPlaceholder('Để lại bình luận ...').fill(text);
    const posted = poster.page.waitForResponse((r) => r.url().endsWith('/api/product/comment') && r.request().method() === 'POST');
    await poster.page.getByRole('button', { name: 'Bình luận' }).click();
    expect((await posted).status()).toBe(201);
    const postedAt = Date.now();
    await viewer.page.locator('.comment-text', { hasText: text }).waitFor({ timeout: 1000 });
    const delay = Date.now() - postedAt;
    expect(delay).toBeLessThan(1000);
    expect(navigations).toBe(0);
    expect(await commentCount(viewer.page)).toBe(start + 1);
    expect(await viewer.page.locator('.comment-text b').count()).toBe(0);
    // The poster sees it once (the POST answer and the room both bring it) and the box is cleared.
    await poster.page.locator('.comment-text', { hasText: text }).waitFor();
    await poster.page.waitForTimeout(500);
    expect(await poster.page.locator('.comment-text', { hasText: text }).count()).toBe(1);
    expect(await poster.page.getByPlaceholder('Để lại bình luận ...').inputValue()).toBe('');

    // A reply: the inline form closes, and the reply sits under its parent in both browsers.
    const parent = poster.page.locator('li.comment', { hasText: text }).first();
    await parent.getByRole('button', { name: 'Reply' }).first().click();
    const replyBox = parent.getByPlaceholder('Reply...');
    expect(await replyBox.getAttribute('required')).not.toBeNull();
    await replyBox.fill('Đồng ý, tập cuối rất hay!');
    await parent.locator('form').getByRole('button', { name: 'Reply' }).click();
    await parent.locator('.replies .comment-text', { hasText: 'Đồng ý, tập cuối rất hay!' }).waitFor();
    expect(await parent.getByPlaceholder('Reply...').count()).toBe(0);
    const viewerParent = viewer.page.locator('li.comment', { hasText: text }).first();
    await viewerParent.locator('.replies .comment-text', { hasText: 'Đồng ý, tập cuối rất hay!' }).waitFor({ timeout: 2000 });
    expect(await commentCount(viewer.page)).toBe(start + 2);
    await viewer.page.locator('.comments').screenshot({ path: `${import.meta.dirname}/screenshots/comments-live-viewer.png` });
    await screenshot(poster.page, 'comments-live-poster', true);

    // Signed out: the spec's alert and nothing is sent.
    const sent: string[] = [];
    viewer.page.on('request', (r) => {
      if (r.url().endsWith('/api/product/comment')) sent.push(r.method());
    });
    await viewer.page.getByPlaceholder('Để lại bình luận ...').fill('Khách chưa đăng nhập');
    await viewer.page.getByRole('button', { name: 'Bình luận' }).click();
    await expect.poll(() => viewerDialogs).toEqual(['Bạn cần đăng nhập để có thể bình luận']);
    expect(sent).toEqual([]);

    // The viewer moves to the watch page: it leaves the film page's room and joins again there.
    const joined = viewer.page.waitForResponse((r) => /\/comments\?since=\d+$/.test(r.url()));
    await viewer.page.getByRole('button', { name: /Xem phim|Xem tiếp/ }).click();
    await viewer.page.waitForURL(new RegExp(`/xem-phim/${slug}/tap-`));
    await joined;
    const onWatch = `Bình luận khi đang xem ${Date.now()}`;
    await poster.page.getByPlaceholder('Để lại bình luận ...').fill(onWatch);
    await poster.page.getByRole('button', { name: 'Bình luận' }).click();
    await viewer.page.locator('.comment-text', { hasText: onWatch }).waitFor({ timeout: 2000 });
    await screenshot(viewer.page, 'comments-live-watch', true);

    expect(poster.errors).toEqual([]);
    expect(viewer.errors).toEqual([]);
    await poster.context.close();
    await viewer.context.close();
  });

  test('comments posted while a viewer was offline arrive when it is back online', async () => {
    const [, slug] = await freeFilms(b.baseURL(), 'product-phimbo');
    const poster = await b.newPage();
    const viewer = await b.newPage();
    await signIn(poster.page, DEMO.vip1);
    await Promise.all([openWithRoom(poster.page, `/${slug}`), openWithRoom(viewer.page, `/${slug}`)]);
    await viewer.context.setOffline(true);
    const text = `Đăng lúc bạn mất mạng ${Date.now()}`;
    await poster.page.getByPlaceholder('Để lại bình luận ...').fill(text);
    await poster.page.getByRole('button', { name: 'Bình luận' }).click();
    await poster.page.locator('.comment-text', { hasText: text }).waitFor();
    await viewer.page.waitForTimeout(500);
    expect(await viewer.page.locator('.comment-text', { hasText: text }).count()).toBe(0);
    // Back online the page opens a fresh socket and asks for what it missed.
    const caughtUp = viewer.page.waitForResponse((r) => /\/comments\?since=\d+$/.test(r.url()), { timeout: 10_000 });
    await viewer.context.setOffline(false);
    await viewer.page.locator('.comment-text', { hasText: text }).waitFor({ timeout: 10_000 });
    expect((await caughtUp).status()).toBe(200);
    await viewer.page.waitForTimeout(300);
    expect(await viewer.page.locator('.comment-text', { hasText: text }).count()).toBe(1);
    await poster.context.close();
    await viewer.context.close();
  });
});
