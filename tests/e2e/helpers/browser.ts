import { mkdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { type Client, createClient } from '@libsql/client';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';

export const SCREENSHOTS = resolve(import.meta.dirname, '../screenshots');
mkdirSync(SCREENSHOTS, { recursive: true });

const FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  // Chromium 150 commits every navigation in a new RenderFrameHost ("RenderDocument"), and DevTools' offline
  // emulation (context.setOffline) is not carried to it: a page opened while emulated offline reads
  // navigator.onLine === true and gets no 'offline' event, which a real phone without network never does.
  '--disable-features=RenderDocument',
];

/**
 * One Chromium per test file; each test opens its own context (fresh storage, service workers, cache). Media may
 * play without a gesture unless `autoplay` names Chromium's stricter policy (a test of what a browser that refuses
 * does).
 */
export function setupBrowser(options: { autoplay?: 'no-user-gesture-required' | 'document-user-activation-required' } = {}) {
  const state: { browser?: Browser } = {};
  beforeAll(async () => {
    await resetRateLimits();
    const args = [...FLAGS, `--autoplay-policy=${options.autoplay ?? 'no-user-gesture-required'}`];
    state.browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args });
  });
  afterAll(async () => {
    await state.browser?.close();
  });
  return {
    baseURL: () => inject('baseURL'),
    async newPage(options: BrowserContextOptions = {}): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
      const context = await state.browser!.newContext({
        viewport: { width: 1366, height: 900 },
        locale: 'vi-VN',
        baseURL: inject('baseURL'),
        ...options,
      });
      const page = await context.newPage();
      if (options.javaScriptEnabled !== false) waitForAppOnLoad(page);
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      return { context, page, errors };
    },
  };
}

/**
 * The running product's database, for a test that reads or sets it directly. It waits up to 10 s for the product's
 * own writes (a scheduled job, a crawl) rather than failing at once with SQLITE_BUSY, as one did in CI.
 */
export async function productDatabase(file = inject('databaseFile')): Promise<Client> {
  const db = createClient({ url: `file:${file}` });
  await db.execute('PRAGMA busy_timeout = 10000');
  return db;
}

/** The product's last lines of output, for a failure message: what the server was doing when the page waited. */
export function serverLogTail(lines = 30): string {
  try {
    return readFileSync(inject('serverLog'), 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no server log)';
  }
}

/**
 * The whole suite runs against one server and signs the demo accounts in far more often than a person
 * would in ten minutes (RATE_LIMITS in worker/services/rate-limit.ts: 10 sign-ins per email, 30 per
 * address). Each file starts as if the windows had passed; a file that tests a limit still meets it.
 */
async function resetRateLimits(): Promise<void> {
  const db = await productDatabase();
  try {
    await db.execute('DELETE FROM rate_limits');
  } finally {
    db.close();
  }
}

/**
 * A page the host rendered is on screen before the app starts and hydrates it (web/vite-plugins.ts
 * startAfterPaint), and a click before that does nothing: page loads (goto, reload) resolve once the app's
 * first render is committed (<html data-app-ready>, web/src/app/router.tsx), as a viewer would wait.
 */
function waitForAppOnLoad(page: Page): void {
  const ready = () => page.waitForFunction(() => 'appReady' in document.documentElement.dataset, null, { timeout: 30_000 });
  for (const method of ['goto', 'reload'] as const) {
    const original = page[method].bind(page) as (...args: unknown[]) => Promise<unknown>;
    (page as unknown as Record<string, unknown>)[method] = async (...args: unknown[]) => {
      const response = await original(...args);
      await ready();
      return response;
    };
  }
}

export async function screenshot(page: Page, name: string, fullPage = false): Promise<void> {
  await page.screenshot({ path: resolve(SCREENSHOTS, `${name}.png`), fullPage });
}

/**
 * Starts the watch page's video as a viewer does, with a click on the middle of the picture (the big play
 * button; the player's script loads on that first pointer), and waits until playback really advances. A page reached
 * by "Xem phim" plays by itself: once it is playing, "Phát" is gone and a click would pause it.
 */
export async function expectVideoPlays(page: Page): Promise<void> {
  const video = page.getByTestId('video');
  await video.waitFor();
  // Already playing (a page reached by "Xem phim"): no "Phát" to wait for.
  const bigPlay = page.getByTestId('big-play');
  const box = (await bigPlay.count()) > 0 ? await bigPlay.boundingBox({ timeout: 1000 }).catch(() => null) : null;
  if (box && (await video.evaluate((v: HTMLVideoElement) => v.paused)))
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), { timeout: 15_000 }).toBeGreaterThan(0.5);
}

/**
 * The app registers its worker once the page is idle after load; the worker then precaches the shell
 * and claims the page. Waits for that (generously: CI machines are busy), reloading once if the
 * worker activated without claiming.
 */
export async function waitForServiceWorker(page: Page): Promise<void> {
  await page
    .waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 75_000 })
    .catch(async () => {
      await page.evaluate(() => navigator.serviceWorker.ready);
      await page.reload();
      await page.waitForFunction(() => navigator.serviceWorker?.controller != null, null, { timeout: 15_000 });
    });
}

/**
 * Holds the player's scripts back until the returned release is called: the stream's engine
 * (features/player/stream-engine.ts: hls.js) and the control bar (media-elements.ts).
 */
export async function holdPlayerScript(page: Page): Promise<() => void> {
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route(/\/assets\/(stream-engine|media-elements)-[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** hls.js's transmuxer workers running in the page (web/src/features/player/hls-config.ts workerPath). */
export const transmuxWorkers = (page: Page) => page.workers().filter((w) => TRANSMUX_WORKER_SCRIPT.test(new URL(w.url()).pathname)).length;

/** The transmuxer worker's script, as built (its own hashed asset). */
export const TRANSMUX_WORKER_SCRIPT = /\/assets\/hls\.worker-[\w-]+\.js$/;
