import type { Dialog, Page } from 'playwright-core';
import { serverLogTail } from './browser';

/** Demo accounts seeded by `npm start` (worker/services/auth/demo-accounts.ts). */
export const DEMO = {
  user: { email: 'user@phimviet.local', password: 'user-demo-123', name: 'Người xem' },
  vip1: { email: 'vip1@phimviet.local', password: 'vip1-demo-123', name: 'Thành viên VIP 1' },
  vip2: { email: 'vip2@phimviet.local', password: 'vip2-demo-123', name: 'Thành viên VIP 2' },
  admin: { email: 'admin@phimviet.local', password: 'admin-demo-123', name: 'Quản trị viên' },
} as const;

/** Accepts every alert/confirm and keeps their texts, in order. */
export function collectDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog: Dialog) => {
    seen.push(dialog.message());
    void dialog.accept();
  });
  return seen;
}

/** Signs in through /dang-nhap as a person would (Enter submits) and waits for the header to show the name. */
export async function signIn(page: Page, account: { email: string; password: string; name: string }, redirect?: string): Promise<void> {
  await page.goto(redirect ? `/dang-nhap?redirect=${encodeURIComponent(redirect)}` : '/dang-nhap');
  await page.getByLabel('Email').fill(account.email);
  await page.getByLabel('Mật khẩu').fill(account.password);
  await page.getByLabel('Mật khẩu').press('Enter');
  // A refusal or a passing message may show on the way; only the name in the header says it worked, or, once the
  // redirect has reached the back office (which has no public header), the signed-in email in its sidebar. Waiting
  // for the name alone raced the redirect: seen only if the header showed it before /admin/… replaced the page.
  try {
    await page
      .getByRole('link', { name: account.name })
      .or(page.locator('.admin-viewer').getByText(account.email, { exact: true }))
      .first()
      .waitFor();
  } catch (error) {
    const said = await page.locator('.auth-card [role="alert"]').allInnerTexts();
    throw new Error(
      `sign-in as ${account.email} did not show the name; at ${page.url()}; the form said: ${said.join(' | ') || '(nothing)'}\nserver log:\n${serverLogTail()}`,
      { cause: error },
    );
  }
}

export const sessionStorageOf = (page: Page) => page.evaluate(() => ({ ...sessionStorage }) as Record<string, string>);

/** Free (not VIP-only) films with episodes, from the API: each test takes its own so they do not share comments or ratings. */
export async function freeFilms(baseURL: string, endpoint = 'product-phimle'): Promise<string[]> {
  const list = (await (await fetch(`${baseURL}/api/product/${endpoint}`)).json()) as { data: { slug: string; VIP1: number }[] };
  return list.data.filter((f) => f.VIP1 === 0).map((f) => f.slug);
}

export interface Series {
  slug: string;
  title: string;
  episodes: number[];
}

/** A free series with at least two episodes on its first server, from the API. */
export async function freeSeries(baseURL: string): Promise<Series> {
  const list = (await (await fetch(`${baseURL}/api/product/product-phimbo`)).json()) as { data: { slug: string }[] };
  for (const { slug } of list.data) {
    const detail = (await (await fetch(`${baseURL}/api/product/${slug}`)).json()) as {
      datafilm: { VIP1: number; title: string; linkfilms: { episode: number }[] };
    };
    if (detail.datafilm.VIP1 === 0 && detail.datafilm.linkfilms.length >= 2)
      return { slug, title: detail.datafilm.title, episodes: detail.datafilm.linkfilms.map((e) => e.episode) };
  }
  throw new Error('no free series with two episodes in the demo catalogue');
}
