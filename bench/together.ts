// `npm run bench -- together`: watch parties (issue 28) as phones meet them. The product as `npm start` runs it
// (bench/demo-product.ts, or TOGETHER_BASE=http://… for a running host), Debian Chromium at 390×844 with touch.
// Each run: the host (signed in) starts a party from a free episode's watch page and taps "Phát"; a visitor
// joins first; every 100 ms both screens' distance from the party's timeline is sampled (the page's own
// estimate of the room's clock, `window.__phimvietParty`), from 1.5 s after the start for 4 s; then a late
// joiner taps "Vào xem chung" and the time until its screen plays within 100 ms of the timeline is its
// time-to-sync; last the host double-taps the picture's left third (back 10 s) and the time until all three
// screens play within 100 ms of the timeline is the seek's time-in-step (goals, issue 28: 3 s and 1.5 s). Two profiles: nothing added, and 60 ± 20 ms added to the visitors' round trip to the room
// (their socket through a relay that holds each frame 30 ± 10 ms each way, frames in order; their HTTP by
// CDP's network emulation). TOGETHER_RUNS (default 4). Not a test: timings depend on the load.
import { loadavg } from 'node:os';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { startProduct } from './demo-product';

const RUNS = Number(process.env.TOGETHER_RUNS ?? 4);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const HOST = { email: 'user@phimviet.local', password: 'user-demo-123' };
const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'vi-VN' } as const;

interface Profile {
  name: string;
  /** One-way delay added to each frame between a visitor and the room, ± spread (ms). */
  oneWay?: { base: number; spread: number };
}
const PROFILES: Profile[] = [{ name: '0 ms added' }, { name: '60 ± 20 ms added', oneWay: { base: 30, spread: 10 } }];

async function tap(page: Page, selector: ReturnType<Page['getByRole']>): Promise<void> {
  await selector.waitFor({ state: 'visible', timeout: 30_000 });
  await selector.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const box = (await selector.boundingBox())!;
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
}

const ready = (page: Page) => page.waitForFunction(() => 'appReady' in document.documentElement.dataset, null, { timeout: 60_000 });

async function visitor(browser: Browser, base: string, profile: Profile): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ ...PHONE, baseURL: base });
  const page = await context.newPage();
  if (profile.oneWay) {
    const { base: delay, spread } = profile.oneWay;
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 2 * delay,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await context.routeWebSocket(/\/parties\/watch\//, (ws) => {
      const server = ws.connectToServer();
      const relay = (send: (m: string | Buffer) => void) => {
        let last = 0;
        return (m: string | Buffer) => {
          const at = Math.max(last, Date.now() + delay + (Math.random() * 2 - 1) * spread);
          last = at;
          setTimeout(() => send(m), at - Date.now());
        };
      };
      ws.onMessage(relay((m) => server.send(m)));
      server.onMessage(relay((m) => ws.send(m)));
    });
  }
  return { context, page };
}

async function join(page: Page, url: string, name: string): Promise<number> {
  await page.goto(url);
  await ready(page);
  await tap(page, page.getByLabel('Tên hiển thị') as ReturnType<Page['getByRole']>);
  await page.keyboard.type(name);
  const t0 = Date.now();
  await tap(page, page.getByRole('button', { name: 'Vào xem chung' }));
  return t0;
}

const guestNotice = (page: Page) =>
  page
    .getByText(/Người xem đã tua đến \d+:\d\d/)
    .waitFor({ timeout: 10_000 })
    .catch(() => undefined);

type Probe = { drift: number; paused: boolean } | null;
const probe = (page: Page): Promise<Probe> =>
  page.evaluate(() => (window as Window & { __phimvietParty?: { drift: () => Probe } }).__phimvietParty?.drift() ?? null);

/** When every page plays within `within` s of the party's timeline (epoch ms), or NaN after `timeoutMs`. */
async function untilInStep(pages: Page[], within: number, timeoutMs: number): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const all = await Promise.all(pages.map(probe));
    if (all.every((p) => p && !p.paused && Math.abs(p.drift) <= within)) return Date.now();
    await new Promise((r) => setTimeout(r, 20));
  }
  return Number.NaN;
}

/** A double tap on the picture's left third: back 10 s, as a person seeks on a phone. */
async function seekBack(page: Page): Promise<number> {
  const box = (await page.getByTestId('player-gestures').boundingBox())!;
  const [x, y] = [box.x + box.width / 6, box.y + box.height * 0.3];
  await page.touchscreen.tap(x, y);
  await page.waitForTimeout(120);
  await page.touchscreen.tap(x, y);
  return Date.now();
}

async function oneRun(browser: Browser, hostPage: Page, base: string, watchPath: string, profile: Profile) {
  await hostPage.goto(watchPath);
  await ready(hostPage);
  await tap(hostPage, hostPage.getByRole('button', { name: 'Xem chung', exact: true }));
  await hostPage.waitForURL(/\/xem-chung\//);
  const url = await hostPage.getByLabel('Liên kết phòng').inputValue();
  const guest = await visitor(browser, base, profile);
  const late = await visitor(browser, base, profile);
  try {
    await join(guest.page, url, 'Lan');
    await hostPage.locator('[data-member="Lan"]').waitFor({ timeout: 20_000 });
    await hostPage.locator('[data-member="Lan"]').getByText('Đang tải…').waitFor({ state: 'detached', timeout: 30_000 });
    await tap(hostPage, hostPage.getByTestId('big-play') as ReturnType<Page['getByRole']>);
    await hostPage.waitForFunction(() => !document.querySelector<HTMLVideoElement>('[data-testid="video"]')?.paused, null, {
      timeout: 10_000,
    });
    await hostPage.waitForTimeout(1500);
    const drifts: number[] = [];
    const end = Date.now() + 4000;
    while (Date.now() < end) {
      for (const p of await Promise.all([probe(hostPage), probe(guest.page)])) if (p) drifts.push(Math.abs(p.drift) * 1000);
      await new Promise((r) => setTimeout(r, 100));
    }
    const t0 = await join(late.page, url, 'Minh');
    const synced = await untilInStep([late.page], 0.1, 10_000);
    const tSeek = await seekBack(hostPage);
    // The notice first: until the seek reaches the room, the screens are still in step with the old timeline.
    await guestNotice(guest.page);
    const seekMs = (await untilInStep([hostPage, guest.page, late.page], 0.1, 10_000)) - tSeek;
    return { drifts, lateMs: synced - t0, seekMs };
  } finally {
    await guest.context.close();
    await late.context.close();
  }
}

const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? Number.NaN;
};

const product = process.env.TOGETHER_BASE ? undefined : await startProduct();
const base = process.env.TOGETHER_BASE ?? product!.base;
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required', '--disable-background-networking'],
});
try {
  const films = (await (await fetch(`${base}/api/product/product-phimle`)).json()) as { data: { slug: string; VIP1: number }[] };
  const slug = films.data.find((f) => f.VIP1 === 0)?.slug;
  if (!slug) throw new Error('no free film in the demo catalogue');
  const detail = (await (await fetch(`${base}/api/product/${slug}`)).json()) as { datafilm: { linkfilms: { episode: number }[] } };
  const watchPath = `/xem-phim/${slug}/tap-${detail.datafilm.linkfilms[0]!.episode}`;
  const hostContext = await browser.newContext({ ...PHONE, baseURL: base });
  const hostPage = await hostContext.newPage();
  await hostPage.goto('/dang-nhap');
  await ready(hostPage);
  await hostPage.getByLabel('Email').fill(HOST.email);
  await hostPage.getByLabel('Mật khẩu').fill(HOST.password);
  await hostPage.getByRole('checkbox', { name: 'Ghi nhớ đăng nhập' }).check();
  await hostPage.getByLabel('Mật khẩu').press('Enter');
  await hostPage.waitForURL((u) => !u.pathname.startsWith('/dang-nhap'));
  console.log(
    `Watch parties on ${base}${watchPath}: ${RUNS} runs per profile, host + visitor + late joiner (load ${loadavg()[0]!.toFixed(2)})`,
  );
  for (const profile of PROFILES) {
    const drifts: number[] = [];
    const late: number[] = [];
    const seeks: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const run = await oneRun(browser, hostPage, base, watchPath, profile);
      drifts.push(...run.drifts);
      late.push(run.lateMs);
      seeks.push(run.seekMs);
      const ms = (t: number) => (Number.isNaN(t) ? 'never (10 s)' : `${t} ms`);
      console.log(
        `  ${profile.name} run ${i + 1}: drift p95 ${q(run.drifts, 0.95).toFixed(0)} ms, late joiner in step after ${ms(run.lateMs)}, seek in step after ${ms(run.seekMs)}`,
      );
    }
    console.log(
      `${profile.name}: drift p50 ${q(drifts, 0.5).toFixed(0)} ms, p95 ${q(drifts, 0.95).toFixed(0)} ms, max ${Math.max(...drifts).toFixed(0)} ms (${drifts.length} samples); ` +
        `late joiner time-to-sync p50 ${q(late, 0.5).toFixed(0)} ms, max ${Math.max(...late).toFixed(0)} ms; ` +
        `seek in step p50 ${q(seeks, 0.5).toFixed(0)} ms, max ${Math.max(...seeks).toFixed(0)} ms`,
    );
  }
  await hostContext.close();
} finally {
  await browser.close();
  await product?.stop();
}
