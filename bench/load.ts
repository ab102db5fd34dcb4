// `npm run bench -- load`: 500 connections of mixed public reads for 60 s against the Node host on the
// 20,000-film catalogue (home, listings, film pages, episodes, search, categories; the read cache at its
// default). Prints errors, timeouts, latency and the server's resident memory at start and end.
// BENCH_LOAD_CONNECTIONS, BENCH_LOAD_SECONDS and BENCH_FILMS override the sizes.
import autocannon from 'autocannon';
import { loadavg } from 'node:os';
import { fold } from '../worker/db/fold';
import { benchDbFile, ensureCatalogue } from './catalogue';
import { startBenchServer } from './server';

const FILMS = Number(process.env.BENCH_FILMS ?? 20_000);
const CONNECTIONS = Number(process.env.BENCH_LOAD_CONNECTIONS ?? 500);
const SECONDS = Number(process.env.BENCH_LOAD_SECONDS ?? 60);
const PORT = Number(process.env.BENCH_PORT ?? 8798);

const titles = await ensureCatalogue(FILMS);
const server = await startBenchServer({ dbFile: benchDbFile(FILMS), port: PORT, cacheSeconds: 10 });
try {
  const slugs: string[] = [];
  for (let page = 1; page <= 10; page++) {
    const body = (await (await fetch(`${server.base}/api/product?pageSize=100&page=${page * 7}`)).json()) as { data: { slug: string }[] };
    slugs.push(...body.data.map((f) => f.slug));
  }
  const listings = ['phimbo', 'phimle', 'phimhanhdong', 'han-quoc', 'phimtinhcam', 'trung-quoc', 'phimshows', 'phimkinhdi'].flatMap((e) =>
    Array.from({ length: 30 }, (_, p) => `/api/product/product-${e}?page=${p + 1}${p % 3 === 0 ? '&sort=views' : ''}`),
  );
  const searches = titles.slice(0, 1000).map(
    (t, i) =>
      `/api/product/search?q=${encodeURIComponent(
        fold(
          t
            .split(' ')
            .slice(0, 1 + (i % 2))
            .join(' '),
        ),
      )}`,
  );
  // A mix shaped like browsing: listings and film pages most, then search, episodes, home and categories.
  const mix = [
    ...listings,
    ...slugs.slice(0, 600).map((s) => `/api/product/${s}`),
    ...searches.slice(0, 400),
    ...slugs.slice(0, 200).map((s) => `/api/product/${s}/tap-1`),
    ...Array.from({ length: 60 }, () => '/api/product/product-home'),
    ...Array.from({ length: 40 }, () => '/api/category'),
  ];
  // Deterministic shuffle, so runs compare.
  let seed = 7;
  for (let i = mix.length - 1; i > 0; i--) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = seed % (i + 1);
    [mix[i], mix[j]] = [mix[j]!, mix[i]!];
  }
  global.gc?.();
  const rssStart = server.rssMb();
  await server.loopDelay(); // from here on
  let next = 0;
  // RSS every 10 s: a plateau after the caches fill is flat; a leak keeps climbing.
  const rssSeries: number[] = [];
  const sampler = setInterval(() => rssSeries.push(Math.round(server.rssMb())), 10_000);
  const result = await autocannon({
    url: server.base,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 10,
    requests: [{ setupRequest: (req) => ({ ...req, path: mix[next++ % mix.length]! }) }],
  });
  clearInterval(sampler);
  const rssEnd = server.rssMb();
  const loop = await server.loopDelay();
  console.log(`\nLoad: ${CONNECTIONS} connections, ${SECONDS} s, ${mix.length} mixed public read URLs, ${FILMS} films, Node host`);
  console.log(`  requests      ${result.requests.total} (${Math.round(result.requests.average)} req/s)`);
  console.log(`  latency       p50 ${result.latency.p50} ms · p99 ${result.latency.p99} ms · max ${result.latency.max} ms`);
  console.log(`  errors        ${result.errors} (non-2xx ${result.non2xx}) · timeouts ${result.timeouts}`);
  console.log(`  event loop    delay p50 ${loop.p50} ms · p99 ${loop.p99} ms · max ${loop.max} ms (server, during the load)`);
  console.log(
    `  server RSS    ${rssStart.toFixed(0)} MB at start → ${rssEnd.toFixed(0)} MB at end (every 10 s: ${rssSeries.join(', ')}; JS heap ${loop.heapMb} MB, ${loop.liveHeapMb} MB live, external ${loop.externalMb} MB at end)`,
  );
  // After the first 10 s (connections open, caches filled), a flat server stays where it is.
  const settled = rssSeries[0] ?? rssStart;
  console.log(
    `  RSS growth    ${(rssEnd - rssStart).toFixed(0)} MB over the run, ${(rssEnd - settled).toFixed(0)} MB after the first 10 s (${(((rssEnd - settled) / settled) * 100).toFixed(0)} %)`,
  );
  console.log(
    `  load average  ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} (the machine is shared)`,
  );
  if (result.errors + result.non2xx + result.timeouts > 0) process.exitCode = 1;
} finally {
  server.stop();
}
