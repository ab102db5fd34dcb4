// Premiere night on a phone (issue 38): a long thread shows its newest 50 threads and "Xem thêm bình luận" loads
// the older ones; in a film's slow mode a second comment too soon is refused and the comment box counts the wait down.
import { beforeAll, describe, expect, test } from 'vitest';
import { DEMO, freeFilms } from './helpers/accounts';
import { productDatabase, SCREENSHOTS, setupBrowser } from './helpers/browser';
import { PHONE, signInByTouch, tap, tapAndType } from './helpers/phone';

const b = setupBrowser();
const api = (path: string) => `${b.baseURL()}${path}`;
let slugs: string[] = [];

async function json<T>(res: Response): Promise<T> {
  if (!res.ok) throw new Error(`${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

const signInApi = async (account: { email: string; password: string }) =>
  json<{ token: string; id: number }>(
    await fetch(api('/api/dang-nhap'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: account.email, password: account.password }),
    }),
  );

beforeAll(async () => {
  // The last free films of the list: the other files take theirs from the front.
  slugs = (await freeFilms(b.baseURL(), 'product-phimle')).slice(-2);
});

/** `n` top-level comments by `userId` on the film, oldest first, written straight into the server's database. */
async function seedThread(slug: string, userId: number, n: number): Promise<void> {
  const db = await productDatabase();
  try {
    const film = await db.execute({ sql: 'select id from films where slug = ?', args: [slug] });
    const filmId = Number(film.rows[0]!.id);
    const at = Date.now() - 3_600_000;
    await db.batch(
      Array.from({ length: n }, (_, i) => ({
        sql: "insert into comments (film_id, user_id, body, created_at, status) values (?, ?, ?, ?, 'visible')",
        args: [filmId, userId, `Luồng số ${i + 1} của buổi công chiếu`, at + i],
      })),
      'write',
    );
  } finally {
    db.close();
  }
}

describe('the comment thread on a phone', () => {
  test('"Xem thêm bình luận" loads the older threads under the newest 50', async () => {
    const slug = slugs[0]!;
    const member = await signInApi(DEMO.user);
    await seedThread(slug, member.id, 60);
    const phone = await b.newPage(PHONE);
    await signInByTouch(phone.page, DEMO.user);
    const joined = phone.page.waitForResponse((r) => /\/api\/product\/[^/]+\/comments\?since=\d+$/.test(r.url()), { timeout: 45_000 });
    await phone.page.goto(`/${slug}`);
    await joined;
    const texts = phone.page.locator('.comments > .comment-list > li.comment > .comment-body > .comment-text');
    await phone.page.getByRole('heading', { name: 'Bình luận (60)' }).waitFor();
    expect(await texts.count()).toBe(50);
    // Newest first: the 60th on top, the 11th last before the button.
    expect(await texts.first().textContent()).toBe('Luồng số 60 của buổi công chiếu');
    expect(await texts.last().textContent()).toBe('Luồng số 11 của buổi công chiếu');

    const older = phone.page.waitForResponse((r) => /\/comments\?before=\d+$/.test(r.url()));
    await tap(phone.page, phone.page.getByRole('button', { name: 'Xem thêm bình luận' }));
    expect((await older).status()).toBe(200);
    await phone.page.locator('.comment-text', { hasText: 'Luồng số 1 của buổi công chiếu' }).waitFor();
    expect(await texts.count()).toBe(60);
    expect(await texts.last().textContent()).toBe('Luồng số 1 của buổi công chiếu');
    // The oldest thread is shown: no button any more.
    expect(await phone.page.getByRole('button', { name: 'Xem thêm bình luận' }).count()).toBe(0);
    await phone.page.locator('.comments').screenshot({ path: `${SCREENSHOTS}/comments-older-threads-phone.png` });
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  }, 180_000);

  test('in slow mode a second comment too soon is refused and the box counts the wait down', async () => {
    const slug = slugs[1]!;
    const admin = await signInApi(DEMO.admin);
    const on = await fetch(api(`/api/admin/comments/slow-mode/${slug}`), {
      method: 'PUT',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ mode: 'on' }),
    });
    expect(on.status).toBe(200);
    try {
      const phone = await b.newPage(PHONE);
      await signInByTouch(phone.page, DEMO.vip1);
      const joined = phone.page.waitForResponse((r) => /\/api\/product\/[^/]+\/comments\?since=\d+$/.test(r.url()), { timeout: 45_000 });
      await phone.page.goto(`/${slug}`);
      await joined;
      const box = phone.page.getByPlaceholder('Để lại bình luận ...');
      const send = phone.page.getByRole('button', { name: 'Bình luận', exact: true });

      await tapAndType(phone.page, box, `Bình luận đầu tiên ${Date.now()}`);
      const first = phone.page.waitForResponse((r) => r.url().endsWith('/api/product/comment'));
      await tap(phone.page, send);
      expect((await first).status()).toBe(201);

      // Another tab of the same member (or a page that had not heard of slow mode yet) posts at once: 429.
      await phone.page.reload();
      await phone.page.getByRole('heading', { name: /^Bình luận \(/ }).waitFor();
      await tapAndType(phone.page, box, 'Thêm một câu nữa');
      const second = phone.page.waitForResponse((r) => r.url().endsWith('/api/product/comment'));
      await tap(phone.page, send);
      const refused = await second;
      expect(refused.status()).toBe(429);
      expect(refused.headers()['retry-after']).toMatch(/^\d+$/);
      const timer = phone.page.getByRole('timer');
      await timer.waitFor();
      const before = Number(/(\d+) giây/.exec((await timer.textContent()) ?? '')?.[1]);
      expect(before).toBeGreaterThan(0);
      expect(before).toBeLessThanOrEqual(10);
      expect(await send.isDisabled()).toBe(true);
      await phone.page.waitForFunction(
        (start) => Number(/(\d+) giây/.exec(document.querySelector('[role="timer"]')?.textContent ?? '')?.[1] ?? 0) < start,
        before,
        { timeout: 5_000 },
      );
      await phone.page.locator('.comments').screenshot({ path: `${SCREENSHOTS}/comments-slow-mode-phone.png` });
      // The wait ends: the box takes a comment again, and the text the member typed is still there.
      await timer.waitFor({ state: 'detached', timeout: 15_000 });
      expect(await box.inputValue()).toBe('Thêm một câu nữa');
      const third = phone.page.waitForResponse((r) => r.url().endsWith('/api/product/comment'));
      await tap(phone.page, send);
      expect((await third).status()).toBe(201);
      expect(phone.errors).toEqual([]);
      await phone.context.close();
    } finally {
      await fetch(api(`/api/admin/comments/slow-mode/${slug}`), {
        method: 'PUT',
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ mode: 'auto' }),
      });
    }
  }, 180_000);
});
