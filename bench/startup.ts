// `npm run bench -- startup [--root /path/to/checkout]`: how fast one tap starts the episode, as a phone viewer
// meets it (issue 31). The product as `npm start` runs it (bench/demo-product.ts; `--root` or STARTUP_ROOT runs
// another checkout's build, e.g. main before a change, so two versions are measured back to back on the same
// machine; STARTUP_BASE=http://… measures a running host), Debian Chromium at 390×844 with touch, a fresh context
// (empty caches, a first visit) for every run. Three scenarios:
// - film page: the film's page loaded, 3 s after its load event (STARTUP_FILM_READ_MS; issue 40 §6: a viewer reads the
//   page for 3 s; issue 31 measured 5 s) a tap on "Xem phim", then the watch page;
// - tap 1 s after "Phát": the watch page opened directly, a tap on "Phát" 1 s after it is painted (a viewer who
//   does not wait: before the page's script has started, on the phone profile);
// - tap 5 s after load: the watch page opened directly, a tap 5 s after its load event.
// First frame = the first frame presented after `playing` (requestVideoFrameCallback), timed from the tap's
// pointerdown, both in the page's own clock (`timeupdate` runs on a ~250 ms timer in Chromium and says nothing
// of the picture). A tap that starts nothing within 4 s while "Phát" is still shown gets a second tap (counted);
// nothing by 15 s is a lost tap (counted, not timed). Two profiles: none, and Lighthouse's phone (150 ms RTT,
// 1.6 Mbit/s down, 750 kbit/s up, CPU ×4, through CDP). Then Lighthouse (mobile, median of 3) on the watch and
// the film page, and the load average before and after. STARTUP_RUNS (default 5), STARTUP_LIGHTHOUSE=0 skips
// Lighthouse, STARTUP_SCENARIOS=film,early,late and STARTUP_PROFILES=none,phone pick, STARTUP_VERBOSE=1 prints each run's timeline
// (every request from STARTUP_ALL_REQUESTS_MS before the tap, long tasks, and the first of each media event and of
// hls.js's start-up events: where the time went),
// STARTUP_CPU_PROFILES=dir writes each run's main-thread CPU profile from just before the tap to the first frame,
// STARTUP_TRACES=dir its Chrome trace (devtools.timeline and v8: scripts' compile and evaluation, style, layout).
// Not a test: timings depend on the machine's load.
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { join, resolve } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import { type Browser, type CDPSession, chromium, type Page } from 'playwright-core';
import { median, pagesToMeasure, startProduct } from './demo-product';
import { measureLighthouse, type Run } from './lighthouse-run';
import { PHONE } from '../tests/e2e/helpers/phone';

const RUNS = Number(process.env.STARTUP_RUNS ?? 5);
/** How long the viewer reads the film page before tapping "Xem phim". */
const FILM_READ_MS = Number(process.env.STARTUP_FILM_READ_MS ?? 3000);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VERBOSE = !!process.env.STARTUP_VERBOSE;
const CPU_PROFILES = process.env.STARTUP_CPU_PROFILES;
const TRACES = process.env.STARTUP_TRACES;
/** The verbose timeline lists every request that started this long before the tap, or after it (and the player's always). */
const ALL_AFTER_MS = Number(process.env.STARTUP_ALL_REQUESTS_MS ?? 0);
/** Nothing started this long after the tap while "Phát" still shows: the viewer taps again. */
const SECOND_TAP_AFTER_MS = 4000;
/** Nothing by then: the tap was lost. */
const LOST_AFTER_MS = 15_000;

function argValue(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}
const ROOT = argValue('--root') ?? process.env.STARTUP_ROOT;

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

type ScenarioId = 'film' | 'early' | 'late';
interface Scenario {
  id: ScenarioId;
  name: string;
}
const SCENARIOS: Scenario[] = [
  { id: 'film', name: `film page: "Xem phim" ${FILM_READ_MS / 1000} s after load` },
  { id: 'early', name: 'watch page: tap 1 s after "Phát" shows' },
  { id: 'late', name: 'watch page: tap 5 s after load' },
];
const chosen = (process.env.STARTUP_SCENARIOS ?? 'film,early,late').split(',');
const profiles = (process.env.STARTUP_PROFILES ?? 'none,phone').split(',');

interface Outcome {
  /** Tap → first frame presented after `playing`, ms; undefined when the tap was lost. */
  ms?: number;
  secondTap: boolean;
  /** The page's timeline, relative to the tap (verbose). */
  timeline: string;
  requestsAfterTap: number;
}

interface PageClock {
  tap?: number;
  playing?: number;
  frame?: number;
  armed: boolean;
  /** Long tasks (start, duration), for the verbose timeline. */
  tasks: [number, number][];
  /** The first time of each media event on the <video> and each of hls.js's start-up events, for the verbose timeline. */
  events: Record<string, number>;
}

/** In every page before its own scripts: the tap's pointerdown, `playing`, and the first frame presented after it. */
function instrument() {
  const w = window as unknown as { __startup: PageClock };
  w.__startup = { armed: false, tasks: [], events: {} };
  // A property, not a named function: tsx wraps those in a helper this page does not have.
  const record: { seen?: (name: string, at: number) => void } = {};
  record.seen = (name, at) => {
    if (w.__startup.tap !== undefined && !(name in w.__startup.events)) w.__startup.events[name] = at;
  };
  const seen = record.seen;
  for (const type of ['loadstart', 'loadedmetadata', 'loadeddata', 'canplay', 'play', 'waiting', 'seeking', 'seeked']) {
    window.addEventListener(type, (e) => e.target instanceof HTMLVideoElement && seen(type, e.timeStamp), true);
  }
  // hls.js's own steps, once <hls-video> has its instance (`api`).
  const hooked = new WeakSet<object>();
  const hlsEvents = [
    'hlsMediaAttached',
    'hlsManifestLoading',
    'hlsManifestParsed',
    'hlsLevelLoaded',
    'hlsFragLoading',
    'hlsFragLoaded',
    'hlsFragParsed',
    'hlsBufferAppended',
    'hlsFragBuffered',
  ];
  const hook = setInterval(() => {
    const api = (document.querySelector('hls-video') as unknown as { api?: { on(e: string, f: () => void): void } } | null)?.api;
    if (!api || hooked.has(api)) return;
    hooked.add(api);
    for (const name of hlsEvents) api.on(name, () => seen(name.slice(3), performance.now()));
  }, 5);
  setTimeout(() => clearInterval(hook), 60_000);
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.__startup.tasks.push([e.startTime, e.duration]);
    }).observe({ type: 'longtask', buffered: true });
  } catch {
    // no long task timing
  }
  window.addEventListener(
    'pointerdown',
    (e) => {
      if (w.__startup.armed && w.__startup.tap === undefined) w.__startup.tap = e.timeStamp;
    },
    true,
  );
  // Media events do not bubble; a capture listener on window still sees them on their way to the <video>.
  window.addEventListener(
    'playing',
    (e) => {
      const s = w.__startup;
      const v = e.target as HTMLVideoElement;
      if (s.tap === undefined || s.playing !== undefined || !(v instanceof HTMLVideoElement)) return;
      s.playing = e.timeStamp;
      v.requestVideoFrameCallback((now) => {
        s.frame = now;
      });
    },
    true,
  );
}

async function oneRun(browser: Browser, base: string, paths: { film: string; watch: string }, scenario: ScenarioId, profile: Profile) {
  const context = await browser.newContext({ ...PHONE, locale: 'vi-VN' });
  const page: Page = await context.newPage();
  try {
    const cdp: CDPSession = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    if (profile.network) await cdp.send('Network.emulateNetworkConditions', { offline: false, ...profile.network });
    if (profile.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: profile.cpu });
    let tapped = false;
    let requestsAfterTap = 0;
    cdp.on('Network.requestWillBeSent', (e) => {
      if (tapped && !e.request.url.startsWith('data:')) requestsAfterTap++;
    });
    await page.addInitScript(instrument);
    const arm = async () => {
      if (CPU_PROFILES) {
        await cdp.send('Profiler.enable');
        await cdp.send('Profiler.setSamplingInterval', { interval: 1000 });
        await cdp.send('Profiler.start');
      }
      if (TRACES) {
        mkdirSync(TRACES, { recursive: true });
        const path = join(TRACES, `${scenario}-${profile.cpu > 1 ? 'phone' : 'none'}-${Date.now()}.json`);
        await browser.startTracing(page, {
          path,
          categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'v8', 'blink'],
        });
      }
      await page.evaluate(() => ((window as unknown as { __startup: PageClock }).__startup.armed = true));
    };
    const tapCentre = async (selector: string) => {
      const box = await page.locator(selector).first().boundingBox();
      if (!box) throw new Error(`nothing to tap: ${selector}`);
      tapped = true;
      await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
    };

    if (scenario === 'film') {
      await page.goto(`${base}${paths.film}`, { waitUntil: 'load', timeout: 120_000 });
      await page.waitForTimeout(FILM_READ_MS);
      await page.locator('.btn-watch').scrollIntoViewIfNeeded();
      await arm();
      await tapCentre('.btn-watch');
    } else if (scenario === 'late') {
      await page.goto(`${base}${paths.watch}`, { waitUntil: 'load', timeout: 120_000 });
      await page.waitForTimeout(5000);
      await arm();
      await tapCentre('[data-testid="big-play"]');
    } else {
      // "Phát" is in the host's HTML: it shows with the first contentful paint.
      await page.goto(`${base}${paths.watch}`, { waitUntil: 'commit', timeout: 120_000 });
      const shownAgo = await page.waitForFunction(
        () => {
          const fcp = performance.getEntriesByName('first-contentful-paint')[0];
          return fcp && document.querySelector('[data-testid="big-play"]') ? performance.now() - fcp.startTime : undefined;
        },
        null,
        { polling: 50, timeout: 60_000 },
      );
      await page.waitForTimeout(Math.max(0, 1000 - ((await shownAgo.jsonValue()) as number)));
      await arm();
      await tapCentre('[data-testid="big-play"]');
    }

    const read = () => page.evaluate(() => (window as unknown as { __startup: PageClock }).__startup);
    const started = Date.now();
    let secondTap = false;
    let clock = await read();
    while (clock.frame === undefined && Date.now() - started < LOST_AFTER_MS) {
      await page.waitForTimeout(50);
      clock = await read().catch(() => clock);
      if (!secondTap && clock.playing === undefined && Date.now() - started > SECOND_TAP_AFTER_MS) {
        const play = page.locator('[data-testid="big-play"]');
        if (await play.isVisible().catch(() => false)) {
          secondTap = true;
          const box = await play.boundingBox();
          if (box) await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
        }
      }
    }
    if (CPU_PROFILES) {
      const { profile: cpu } = await cdp.send('Profiler.stop');
      mkdirSync(CPU_PROFILES, { recursive: true });
      writeFileSync(join(CPU_PROFILES, `${scenario}-${profile.cpu > 1 ? 'phone' : 'none'}-${Date.now()}.cpuprofile`), JSON.stringify(cpu));
    }
    if (TRACES) await browser.stopTracing();
    const timeline = VERBOSE ? String(await page.evaluate(describeTimeline)) : '';
    return {
      ms: clock.frame !== undefined && clock.tap !== undefined ? clock.frame - clock.tap : undefined,
      secondTap,
      timeline,
      requestsAfterTap,
    } satisfies Outcome;
  } finally {
    await context.close();
  }
}

/**
 * The page's own record around the tap (verbose): paint, load, the player's script, playlists, segments. A string:
 * tsx names inner functions with a helper the page does not have.
 */
const describeTimeline = `(() => {
  const s = window.__startup;
  const t0 = s.tap ?? 0;
  const parts = [];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  if (fcp) parts.push('fcp ' + Math.round(fcp.startTime - t0));
  const nav = performance.getEntriesByType('navigation')[0];
  if (nav && nav.loadEventEnd) parts.push('load ' + Math.round(nav.loadEventEnd - t0));
  for (const r of performance.getEntriesByType('resource')) {
    const name = new URL(r.name).pathname;
    if (r.startTime > t0 - ${ALL_AFTER_MS} || /media-elements|stream-|index-|react-dom|\\.m3u8|\\.ts$|mpegts|xem-phim|\\/tap-/.test(name))
      parts.push((name.startsWith('/api/') ? name.slice(5) : name.split('/').pop()) + ' ' + Math.round(r.startTime - t0) + '→' + Math.round(r.responseEnd - t0) + (r.transferSize > 20000 ? ' (' + Math.round(r.transferSize / 1024) + ' KB)' : ''));
  }
  for (const [start, duration] of s.tasks) if (start > t0 - 200) parts.push('task ' + Math.round(start - t0) + '+' + Math.round(duration));
  for (const [name, at] of Object.entries(s.events)) parts.push(name + ' ' + Math.round(at - t0));
  if (s.playing !== undefined) parts.push('playing ' + Math.round(s.playing - t0));
  if (s.frame !== undefined) parts.push('frame ' + Math.round(s.frame - t0));
  return parts.join(' · ');
})()`;

const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

if (ROOT && !existsSync(join(resolve(ROOT), 'web/dist/index.html'))) {
  console.log(`building ${ROOT} (no web/dist there)`);
  const build = spawnSync('npm', ['run', 'build'], { cwd: resolve(ROOT), stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`npm run build failed in ${ROOT}`);
}
const product = process.env.STARTUP_BASE ? undefined : await startProduct(ROOT ? { root: resolve(ROOT) } : {});
const base = process.env.STARTUP_BASE ?? product!.base;
try {
  const pages = new Map(await pagesToMeasure(base));
  const film = pages.get('film');
  const watch = pages.get('watch');
  if (!film || !watch) throw new Error('the demo catalogue has no film with an episode to measure');
  console.log(`Stream start-up of ${ROOT ? resolve(ROOT) : 'this checkout'}: ${film} and ${watch}, ${RUNS} runs per scenario and profile`);
  console.log(`Debian Chromium 390×844 touch, a fresh context per run; load average at the start ${load()}`);
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'],
  });
  try {
    console.log(
      `${'scenario'.padEnd(40)} ${'profile'.padEnd(36)} tap → first frame ms: median   max  │ runs (² second tap, ✗ lost)        requests after the tap`,
    );
    for (const scenario of SCENARIOS.filter((s) => chosen.includes(s.id))) {
      for (const profile of PROFILES.filter((p) => profiles.includes(p.cpu > 1 ? 'phone' : 'none'))) {
        const outcomes: Outcome[] = [];
        for (let i = 0; i < RUNS; i++) {
          const outcome = await oneRun(browser, base, { film, watch }, scenario.id, profile);
          outcomes.push(outcome);
          if (VERBOSE) console.log(`  ${scenario.id} ${profile.cpu > 1 ? 'phone' : 'none'} #${i + 1}: ${outcome.timeline}`);
        }
        const timed = outcomes.flatMap((o) => (o.ms === undefined ? [] : [Math.round(o.ms)]));
        const runs = outcomes.map((o) => (o.ms === undefined ? '✗' : `${Math.round(o.ms)}${o.secondTap ? '²' : ''}`)).join(' ');
        const lost = outcomes.length - timed.length;
        const seconds = outcomes.filter((o) => o.secondTap).length;
        const notes = [lost ? `${lost} lost` : '', seconds ? `${seconds} needed a second tap` : ''].filter(Boolean).join(', ');
        console.log(
          `${scenario.name.padEnd(40)} ${profile.name.padEnd(36)} ${String(timed.length ? median(timed) : '–').padStart(21)} ${String(timed.length ? Math.max(...timed) : '–').padStart(5)}  │ ${runs.padEnd(34)} ${median(outcomes.map((o) => o.requestsAfterTap))}${notes ? `  (${notes})` : ''}`,
        );
      }
    }
  } finally {
    await browser.close();
  }
  console.log(`load average after the taps ${load()}`);

  if (process.env.STARTUP_LIGHTHOUSE !== '0') {
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
    try {
      for (const [name, path] of [
        ['watch', watch],
        ['film', film],
      ] as const) {
        const runs: Run[] = [];
        for (let i = 0; i < 3; i++) runs.push(await measureLighthouse(`${base}${path}`, chrome.port));
        const m = (key: keyof Run) => median(runs.map((r) => r[key]));
        console.log(
          `Lighthouse 12 mobile, ${name} page, median of 3: performance ${m('performance')}, LCP ${Math.round(m('lcp'))} ms, FCP ${Math.round(m('fcp'))} ms, TBT ${Math.round(m('tbt'))} ms (on CPU ${Math.round(m('cpuTbt'))} ms), CLS ${m('cls').toFixed(3)}, accessibility ${m('accessibility')}`,
        );
      }
    } finally {
      chrome.kill();
    }
  }
  console.log(`load average at the end ${load()}`);
} finally {
  await product?.stop();
}
