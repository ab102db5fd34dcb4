// `npm run lighthouse`: Lighthouse (mobile, its default simulated throttling) on Debian Chromium, 3 runs of
// home, a listing, a film page and its first episode's watch page, printing the median of each figure. Starts the product as `npm start`
// does, on its own ports and a fresh database with the demo catalogue (or LIGHTHOUSE_BASE=http://… to
// measure a running host). Not part of CI: it takes minutes and depends on the machine's load. Beside
// Lighthouse's own figures it prints the TBT recomputed on CPU time (bench/trace-cpu.ts).
import * as chromeLauncher from 'chrome-launcher';
import { median, pagesToMeasure, startProduct } from './demo-product';
import { measureLighthouse, type Run } from './lighthouse-run';

const RUNS = Number(process.env.LIGHTHOUSE_RUNS ?? 3);
/** LIGHTHOUSE_PAGES=film,watch measures only those pages (home, listing, film, watch). */
const ONLY = process.env.LIGHTHOUSE_PAGES?.split(',');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const rootAt = process.argv.indexOf('--root');
/** `--root /path/to/checkout` measures another checkout's build the same way (two versions back to back). */
const root = rootAt >= 0 ? process.argv[rootAt + 1] : undefined;
const product = process.env.LIGHTHOUSE_BASE ? undefined : await startProduct({ root });
const base = process.env.LIGHTHOUSE_BASE ?? product!.base;
const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu'] });
try {
  const pages = (await pagesToMeasure(base)).filter(([name]) => !ONLY || ONLY.includes(name));
  console.log(`Lighthouse ${RUNS} runs each, mobile, ${CHROMIUM}, ${base}`);
  console.log(
    'page      path                          perf   LCP ms   FCP ms   TBT ms    CLS   a11y   best   seo  │ TBT on CPU ms  longest task CPU ms',
  );
  for (const [name, path] of pages) {
    const runs: Run[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await measureLighthouse(`${base}${path}`, chrome.port));
    const m = (key: keyof Run) => median(runs.map((r) => r[key]));
    console.log(
      `${name.padEnd(9)} ${path.slice(0, 29).padEnd(29)} ${String(m('performance')).padStart(4)} ${String(Math.round(m('lcp'))).padStart(8)} ${String(Math.round(m('fcp'))).padStart(8)} ${String(Math.round(m('tbt'))).padStart(8)} ${m('cls').toFixed(3).padStart(6)} ${String(m('accessibility')).padStart(6)} ${String(m('bestPractices')).padStart(6)} ${String(m('seo')).padStart(5)}  │ ${String(Math.round(m('cpuTbt'))).padStart(13)} ${m('longestCpu').toFixed(1).padStart(20)}`,
    );
  }
} finally {
  chrome.kill();
  await product?.stop();
}
