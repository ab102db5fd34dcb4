import type { Locator, Page } from 'playwright-core';

/** A 390x844 touch phone (the viewport held-out checks use). */
export const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true } as const;

/**
 * A finger on the middle of what the locator shows, as a person taps: scrolled to the middle of the screen
 * first, clear of the sticky header and of a banner along the bottom.
 */
export async function tap(page: Page, target: Locator): Promise<void> {
  await target.waitFor({ state: 'visible' });
  await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = await settledBox(target);
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * Where the element is once the page has stopped moving it (rows above it that load late, a carousel that sets
 * itself up): the same box over two animation frames, as a person waits for the screen to settle before tapping.
 */
async function settledBox(target: Locator): Promise<{ x: number; y: number; width: number; height: number }> {
  const deadline = Date.now() + 5_000;
  let box = await target.boundingBox();
  for (;;) {
    if (!box) throw new Error('nothing to tap: the element has no box');
    await target.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    const again = await target.boundingBox();
    if (!again) throw new Error('nothing to tap: the element has no box');
    const still = again.x === box.x && again.y === box.y && again.width === box.width && again.height === box.height;
    if (still || Date.now() > deadline) return again;
    await target.evaluate((el) => el.scrollIntoView({ block: 'center' }));
    box = await target.boundingBox();
  }
}

/** Taps a field and types into it with the keyboard. */
export async function tapAndType(page: Page, field: Locator, text: string): Promise<void> {
  await tap(page, field);
  await page.keyboard.type(text);
}

/**
 * Signs in on /dang-nhap with the phone's keyboard and taps, ticking "Ghi nhớ đăng nhập" when asked, and
 * waits for the page it returns to (the header's account link is in the menu on a phone).
 */
export async function signInByTouch(
  page: Page,
  account: { email: string; password: string },
  options: { remember?: boolean; redirect?: string } = {},
): Promise<void> {
  if (!new URL(page.url()).pathname.startsWith('/dang-nhap'))
    await page.goto(options.redirect ? `/dang-nhap?redirect=${encodeURIComponent(options.redirect)}` : '/dang-nhap');
  await tapAndType(page, page.getByLabel('Email'), account.email);
  await tapAndType(page, page.getByLabel('Mật khẩu'), account.password);
  const remember = page.getByRole('checkbox', { name: 'Ghi nhớ đăng nhập' });
  if (options.remember) {
    await tap(page, remember);
    if (!(await remember.isChecked())) throw new Error('"Ghi nhớ đăng nhập" did not tick');
  }
  await tap(page, page.getByRole('button', { name: 'Đăng nhập', exact: true }));
  await page.waitForURL((u) => !u.pathname.startsWith('/dang-nhap'));
}
