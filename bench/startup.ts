// `npm run bench -- startup`: how fast one tap on the watch page shows the first frame, as a phone viewer
// meets it. The product as `npm start` runs it (bench/demo-product.ts, or STARTUP_BASE=http://… for a running
// host), Debian Chromium at 390×844 with touch. Each run opens a fresh context (empty caches, as a first
// visit), loads the first episode's watch page, lets it sit idle for 5 s, then taps the middle of the picture
// with the touchscreen. First frame = the first `timeupdate` with currentTime > 0, timed from the tap's
// pointerdown in the page's own clock. Two profiles: none, and Lighthouse's phone (150 ms RTT, 1.6 Mbit/s
// down, 750 kbit/s up, CPU ×4, through CDP). Then Lighthouse (mobile, 3 runs) on the same page.
// STARTUP_RUNS (default 5), STARTUP_LIGHTHOUSE=0 to skip Lighthouse. Not a test: timings depend on the load.
import { loadavg } from 'node:os';
import * as chromeLauncher from 'chrome-launcher';
import { type CDPSession, chromium, type Page } from 'playwright-core';
import { median, pagesToMeasure, startProduct } from './demo-product';
import { measureLighthouse, type Run } from './lighthouse-run';
import { PHONE } from '../tests/e2e/helpers/phone';

const RUNS = Number(process.env.STARTUP_RUNS ?? 5);
const IDLE_MS = 5000;
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Profile {
  name: string;
  network?: { latency: number; downloadThroughput: number; uploadThroughput: number };
  cpu: number;
}
const PROFILES: Profile[] = [
  { name: 'no throttling', cpu: 1 },
  {
    name: 'phone (150 ms, 1.6 Mbit/s, CPU ×4)',
    // Lighthouse's mobile profile: rtt 150 ms, 1638.4 kbit/s down, 750 kbit/s up, CPU slowdown 4.
    network: { latency: 150, downloadThroughput: (1638.4 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
    cpu: 4,
  },
];

interface Traffic {
  requests: number;
  bytes: number;
}
interface StartupRun {
  firstFrameMs: number;
  /** Everything the page fetched from navigation to the first frame, and the part after the tap. */
  total: Traffic;
  afterTap: Traffic;
  afterTapUrls: string[];
}

/** Counts requests and their transferred bytes (CDP's encodedDataLength: headers and body as sent). */
function countTraffic(cdp: CDPSession) {
  const requests = new Map<string, { url: string; afterTap: boolean; bytes: number; done: boolean }>();
  let tapped = false;
  cdp.on('Network.requestWillBeSent', (e) => {
    if (!e.request.url.startsWith('data:')) requests.set(e.requestId, { url: e.request.url, afterTap: tapped, bytes: 0, done: false });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = requests.get(e.requestId);
    if (r) Object.assign(r, { bytes: e.encodedDataLength, done: true });
  });
  return {
    markTap: () => {
      tapped = true;
    },
    read: () => {
      const all = [...requests.values()];
      const sum = (list: typeof all): Traffic => ({ requests: list.length, bytes: list.reduce((s, r) => s + r.bytes, 0) });
      const afterTap = all.filter((r) => r.afterTap);
      return { total: sum(all), afterTap: sum(afterTap), afterTapUrls: afterTap.map((r) => new URL(r.url).pathname) };
    },
  };
}

async function oneRun(browser: import('playwright-core').Browser, url: string, profile: Profile): Promise<StartupRun> {
  const context = await browser.newContext({
    ...PHONE,
    locale: 'vi-VN',
  });
  const page: Page = await context.newPage();
  try {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    if (profile.network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
    if (profile.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
    const traffic = countTraffic(cdp);
    // The page's own clock: the tap's pointerdown, then the first timeupdate past 0 (capture phase on window
    // sees the <video>'s events, which do not bubble).
    await page.addInitScript(() => {
      const w = window as unknown as { __startup: { tap?: number; frame?: number; armed: boolean } };
      w.__startup = { armed: false };
      window.addEventListener(
        'pointerdown',
        (e) => {
          if (w.__startup.armed && w.__startup.tap === undefined) w.__startup.tap = e.timeStamp;
        },
        true,
      );
      window.addEventListener(
        'timeupdate',
        (e) => {
          const v = e.target as HTMLVideoElement;
          if (w.__startup.tap !== undefined && w.__startup.frame === undefined && v.currentTime > 0) w.__startup.frame = e.timeStamp;
        },
        true,
      );
    });
    await page.goto(url, { waitUntil: 'load', timeout: 120_000 });
    await page.waitForFunction(() => 'appReady' in document.documentElement.dataset, null, { timeout: 60_000 });
    await page.waitForTimeout(IDLE_MS);
    const target = page.getByTestId('big-play');
    const box = await target.boundingBox();
    if (!box) throw new Error('no big play button on the watch page');
    await page.evaluate(() => {
      (window as unknown as { __startup: { armed: boolean } }).__startup.armed = true;
    });
    traffic.markTap();
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    const handle = await page.waitForFunction(
      () => {
        const s = (window as unknown as { __startup: { tap?: number; frame?: number } }).__startup;
        return s.frame !== undefined && s.tap !== undefined ? s.frame - s.tap : undefined;
      },
      null,
      { timeout: 60_000, polling: 20 },
    );
    const firstFrameMs = (await handle.jsonValue()) as number;
    return { firstFrameMs, ...traffic.read() };
  } finally {
    await context.close();
  }
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

const product = process.env.STARTUP_BASE ? undefined : await startProduct();
const base = process.env.STARTUP_BASE ?? product!.base;
try {
  const watch = (await pagesToMeasure(base)).find(([name]) => name === 'watch');
  if (!watch) throw new Error('the demo catalogue has no watch page to measure');
  const url = `${base}${watch[1]}`;
  console.log(
    `Tap → first frame on ${watch[1]}, ${RUNS} runs per profile, Debian Chromium 390×844 touch, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
  try {
    console.log(
      'profile                               first frame ms: median   max   runs              │ before the first frame: requests, bytes (after the tap)',
    );
    for (const profile of PROFILES) {
      const runs: StartupRun[] = [];
      for (let i = 0; i < RUNS; i++) runs.push(await oneRun(browser, url, profile));
      const times = runs.map((r) => Math.round(r.firstFrameMs));
      const last = runs.at(-1)!;
      console.log(
        `${profile.name.padEnd(37)} ${String(median(times)).padStart(19)} ${String(Math.max(...times)).padStart(5)}   ${times.join(' ').padEnd(18)}│ ${last.total.requests} requests, ${kb(last.total.bytes)} (${last.afterTap.requests}, ${kb(last.afterTap.bytes)} after the tap)`,
      );
      if (process.env.STARTUP_VERBOSE) console.log(`  after the tap: ${last.afterTapUrls.join(' ')}`);
    }
  } finally {
    await browser.close();
  }

  if (process.env.STARTUP_LIGHTHOUSE !== '0') {
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
    try {
      const runs: Run[] = [];
      for (let i = 0; i < 3; i++) runs.push(await measureLighthouse(url, chrome.port));
      const m = (key: keyof Run) => median(runs.map((r) => r[key]));
      console.log(
        `Lighthouse 12 mobile on the watch page, median of 3: performance ${m('performance')}, LCP ${Math.round(m('lcp'))} ms, FCP ${Math.round(m('fcp'))} ms, TBT ${Math.round(m('tbt'))} ms (on CPU ${Math.round(m('cpuTbt'))} ms), CLS ${m('cls').toFixed(3)}, accessibility ${m('accessibility')}`,
      );
    } finally {
      chrome.kill();
    }
  }
  console.log(
    `load at the end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
} finally {
  await product?.stop();
}
