// `npm run bench -- downloads`: the downloader (issue 26) on a 45-minute episode, as a VIP phone viewer meets
// it. The product as `npm start` runs it (bench/demo-product.ts), a video host on a second origin over HTTPS
// (tests/e2e/helpers/hls-host.ts) serving 675 × 4 s segments at 540p (the demo clip's real segments, cycled),
// Debian Chromium at 390×844 with touch. In the same page and run it measures:
// - a plain loop fetching the same segments one after another (fetch + arrayBuffer, nothing stored), before
//   and after the download, and the download itself (tap on "540p" → "Đã tải", every segment stored in Cache
//   Storage): the rate of each and the ratio (goal ≥ 0.8×);
// - the page's longest task while downloading (PerformanceObserver 'longtask', from the tap to the end);
// - the page's JavaScript heap (CDP Performance.getMetrics) every second during the download: flat means the
//   episode is never held in memory.
// Not a test: timings depend on the machine's load (printed with the results).
import { loadavg } from 'node:os';
import { chromium } from 'playwright-core';
import { setEpisodeLinks, startHlsHost } from '../tests/e2e/helpers/hls-host';
import { LONG_SEGMENTS, longEpisodeRoutes } from '../tests/e2e/helpers/long-episode';
import { startProduct } from './demo-product';
import { PHONE } from '../tests/e2e/helpers/phone';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const VIP = { email: 'vip1@phimviet.local', password: 'vip1-demo-123' };
const LEVEL = '540p';
const mb = (bytes: number) => (bytes / (1024 * 1024)).toFixed(1);

const host = await startHlsHost(longEpisodeRoutes());
const product = await startProduct();
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const list = (await (await fetch(`${product.base}/api/product/product-phimle`)).json()) as { data: { slug: string; VIP1: number }[] };
  const slug = list.data.find((f) => f.VIP1 === 0)!.slug;
  await setEpisodeLinks(slug, 1, [{ name: 'Bench', m3u8: `${host.origin}/ep/master.m3u8` }], {
    databaseFile: product.dbFile,
    baseURL: product.base,
  });
  const context = await browser.newContext({
    ...PHONE,
    locale: 'vi-VN',
    ignoreHTTPSErrors: true,
    baseURL: product.base,
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  await page.goto('/dang-nhap');
  await page.getByLabel('Email').fill(VIP.email);
  await page.getByLabel('Mật khẩu').fill(VIP.password);
  await page.getByLabel('Mật khẩu').press('Enter');
  await page.waitForURL((u) => !u.pathname.startsWith('/dang-nhap'));
  await page.goto(`/xem-phim/${slug}/tap-1`);
  // The page prepares its player when idle (hls.js: one long task of its own); measure after it.
  await page.waitForTimeout(5000);
  console.log(
    `Downloads: ${LONG_SEGMENTS} × 4 s segments at ${LEVEL} (45 min) from ${host.origin}, Debian Chromium 390×844, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );

  const segmentUrls = Array.from({ length: LONG_SEGMENTS }, (_, n) => `${host.origin}/ep/${LEVEL}/seg${n}.ts`);
  const plainLoop = () =>
    page.evaluate(async (urls) => {
      const start = performance.now();
      let bytes = 0;
      for (const url of urls) bytes += (await (await fetch(url, { mode: 'cors', cache: 'no-store' })).arrayBuffer()).byteLength;
      return { bytes, ms: performance.now() - start };
    }, segmentUrls);
  const before = await plainLoop();

  // The download, as a viewer starts it.
  await page.getByRole('button', { name: 'Tải về', exact: true }).click();
  const level = page.getByRole('dialog').getByRole('button', { name: new RegExp(`^${LEVEL} · ~`) });
  await level.waitFor();
  // Long tasks from the tap on the level to the end (the dialog's own opening is not the download).
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: { ms: number; at: number }[]; observer: PerformanceObserver };
    w.longTasks = [];
    w.observer = new PerformanceObserver((entries) => {
      for (const e of entries.getEntries()) w.longTasks.push({ ms: e.duration, at: e.startTime });
    });
    w.observer.observe({ type: 'longtask' });
  });
  const heap: number[] = [];
  const sampleHeap = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    heap.push(metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? 0);
  };
  await sampleHeap();
  const started = Date.now();
  const clickedAt = await page.evaluate(() => performance.now());
  await level.click();
  const state = page.getByTestId('download-state');
  for (;;) {
    await new Promise((r) => setTimeout(r, 250));
    if (heap.length < (Date.now() - started) / 1000) await sampleHeap();
    else continue;
    const text = await state.innerText().catch(() => '');
    if (text === 'Đã tải') break;
    if (/Lỗi|Tạm dừng/.test(text)) throw new Error(`the download stopped: ${text}`);
    if (Date.now() - started > 600_000) throw new Error('the download took over 10 minutes');
  }
  // The store's own figures: bytes stored, and when the episode was recorded done (the page's clock).
  const stored = await page.evaluate(async () => {
    const name = (await caches.keys()).find((k) => k.startsWith('pv-dl-'))!;
    const cache = await caches.open(name);
    let bytes = 0;
    for (const request of await cache.keys())
      if (/\/v\/\d+\.ts$/.test(request.url)) bytes += (await (await cache.match(request))!.blob()).size;
    const db = await new Promise<IDBDatabase>((ok, ko) => {
      const open = indexedDB.open('phimviet-downloads');
      open.onsuccess = () => ok(open.result);
      open.onerror = () => ko(open.error);
    });
    const record = await new Promise<{ updatedAt: number }>((ok) => {
      const get = db.transaction('episodes').objectStore('episodes').getAll();
      get.onsuccess = () => ok(get.result[0]);
    });
    db.close();
    const w = window as unknown as { longTasks: { ms: number; at: number }[] };
    return { bytes, doneAt: record.updatedAt, longTasks: w.longTasks };
  });
  const downloadMs = stored.doneAt - started;
  const after = await plainLoop();

  const rate = (bytes: number, ms: number) => bytes / (1024 * 1024) / (ms / 1000);
  const loopRate = (rate(before.bytes, before.ms) + rate(after.bytes, after.ms)) / 2;
  const dlRate = rate(stored.bytes, downloadMs);
  console.log(
    `plain loop (fetch + arrayBuffer, one at a time): ${rate(before.bytes, before.ms).toFixed(1)} MB/s before, ${rate(after.bytes, after.ms).toFixed(1)} MB/s after (${mb(before.bytes)} MB)`,
  );
  console.log(
    `download (tap → "Đã tải", ${mb(stored.bytes)} MB stored in Cache Storage, 5 at once): ${(downloadMs / 1000).toFixed(1)} s, ${dlRate.toFixed(1)} MB/s = ${(dlRate / loopRate).toFixed(2)}× the plain loop (goal ≥ 0.8×)`,
  );
  const longest = Math.max(0, ...stored.longTasks.map((t) => t.ms));
  const listed = stored.longTasks.map((t) => `${t.ms.toFixed(0)} ms at +${((t.at - clickedAt) / 1000).toFixed(1)} s`).join(', ');
  console.log(
    `longest task on the page while downloading: ${longest ? `${longest.toFixed(0)} ms` : 'none over 50 ms'} (goal: none over 50 ms)${listed ? `; over 50 ms: ${listed}` : ''}`,
  );
  const quarter = (i: number) => heap[Math.min(heap.length - 1, Math.round((heap.length - 1) * i))]!;
  console.log(
    `JS heap during the download (MB, every second, ${heap.length} samples): start ${mb(heap[0]!)}, 25% ${mb(quarter(0.25))}, 50% ${mb(quarter(0.5))}, 75% ${mb(quarter(0.75))}, end ${mb(heap.at(-1)!)}, max ${mb(Math.max(...heap))} (episode: ${mb(stored.bytes)} MB)`,
  );
  await context.close();
} finally {
  await browser.close();
  await product.stop();
  await host.close();
}
