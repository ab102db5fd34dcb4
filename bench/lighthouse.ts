// `npm run lighthouse`: Lighthouse (mobile, its default simulated throttling) on Debian Chromium, 3 runs of
// home, a listing and a film page, printing the median of each figure. Starts the product as `npm start`
// does, on its own ports and a fresh database with the demo catalogue (or LIGHTHOUSE_BASE=http://… to
// measure a running host). Not part of CI: it takes minutes and depends on the machine's load.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { freePort, stopChild } from '../party/dev-server';
import { REPO_ROOT } from '../worker/node';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function waitFor(url: string, ready: (body: unknown) => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(url);
      if (res.ok && ready(await res.json())) return;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

/** The product as scripts/start.ts runs it (built PWA, demo crawl), on free ports and a temporary database. */
async function startProduct(): Promise<{ base: string; stop: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'phimviet-lighthouse-'));
  const [port, demoPort, partyPort, paymentPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const base = `http://localhost:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: REPO_ROOT,
    detached: true,
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: `file:${join(dir, 'lighthouse.db')}`,
      PUBLIC_URL: base,
      DEMO_SOURCE_PORT: String(demoPort),
      CRAWL_SOURCES: `http://127.0.0.1:${demoPort}`,
      PARTYKIT_HOST: `http://127.0.0.1:${partyPort}`,
      PAYMENT_STANDIN_PORT: String(paymentPort),
      APP_ENV: 'test',
    },
    stdio: 'ignore',
  });
  const stop = async () => {
    await stopChild(server);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(`${base}/api/health`, (b) => (b as { ok?: boolean }).ok === true, 240_000);
    await waitFor(`${base}/api/product?page=1`, (b) => ((b as { data?: unknown[] }).data?.length ?? 0) > 0, 120_000);
    // The demo crawl goes on after the first films appear; measuring beside it would measure the crawl too.
    // Wait until the catalogue size stays the same over 18 s (longer than the 10 s public read cache).
    let last = -1;
    for (let stable = 0, i = 0; stable < 3 && i < 60; i++) {
      const page = (await (await fetch(`${base}/api/product?page=1`)).json()) as { pagination?: { totalItems?: number } };
      const total = page.pagination?.totalItems ?? 0;
      stable = total === last ? stable + 1 : 0;
      last = total;
      await new Promise((r) => setTimeout(r, 6000));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, stop };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

interface Run {
  performance: number;
  lcp: number;
  fcp: number;
  tbt: number;
  cls: number;
  accessibility: number;
  bestPractices: number;
  seo: number;
}

async function measure(url: string, port: number): Promise<Run> {
  const result = await lighthouse(url, { port, output: 'json', logLevel: 'error' });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  // LIGHTHOUSE_REPORTS=dir keeps each run's whole report (long tasks, script boot-up) to look into.
  const reports = process.env.LIGHTHOUSE_REPORTS;
  if (reports) {
    mkdirSync(reports, { recursive: true });
    writeFileSync(join(reports, `${new URL(url).pathname.replace(/\W+/g, '_') || 'home'}-${Date.now()}.json`), String(result.report));
  }
  const { categories, audits } = result.lhr;
  const score = (id: string) => Math.round((categories[id]?.score ?? Number.NaN) * 100);
  return {
    performance: score('performance'),
    lcp: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
    fcp: audits['first-contentful-paint']?.numericValue ?? Number.NaN,
    tbt: audits['total-blocking-time']?.numericValue ?? Number.NaN,
    cls: audits['cumulative-layout-shift']?.numericValue ?? Number.NaN,
    accessibility: score('accessibility'),
    bestPractices: score('best-practices'),
    seo: score('seo'),
  };
}

const product = process.env.LIGHTHOUSE_BASE ? undefined : await startProduct();
const base = process.env.LIGHTHOUSE_BASE ?? product!.base;
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
try {
  const films = (await (await fetch(`${base}/api/product/product-phimle`)).json()) as { data: { slug: string }[] };
  const film = films.data[0]?.slug;
  const pages: [string, string][] = [['home', '/'], ['listing', '/phim-bo'], ...(film ? [['film', `/${film}`] as [string, string]] : [])];
  console.log(`Lighthouse ${RUNS} runs each, mobile, ${CHROMIUM}, ${base}`);
  console.log('page      path                          perf   LCP ms   FCP ms   TBT ms    CLS   a11y   best   seo');
  for (const [name, path] of pages) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measure(`${base}${path}`, chrome.port));
    const m = (key: keyof Run) => median(runs.map((r) => r[key]));
    console.log(
      `${name.padEnd(9)} ${path.slice(0, 29).padEnd(29)} ${String(m('performance')).padStart(4)} ${String(Math.round(m('lcp'))).padStart(8)} ${String(Math.round(m('fcp'))).padStart(8)} ${String(Math.round(m('tbt'))).padStart(8)} ${m('cls').toFixed(3).padStart(6)} ${String(m('accessibility')).padStart(6)} ${String(m('bestPractices')).padStart(6)} ${String(m('seo')).padStart(5)}`,
    );
  }
} finally {
  chrome.kill();
  await product?.stop();
}
