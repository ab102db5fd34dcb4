// `tsx bench/profile-loop.ts <kind> [n]`: one endpoint requested in a loop in-process (app.request, read
// cache off), profiled from the first measured request to the last (start-up and warm-up excluded), written
// to data/prof/<kind>/; then `tsx bench/profile-top.ts data/prof/<kind>`.
// kind: health | home | detail | episode | listing | search.
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadConfig } from '../worker/config';
import { openMigratedDatabase } from '../worker/db/node-client';
import { createApp } from '../worker/app';
import { benchDbFile, ensureCatalogue } from './catalogue';

const kind = process.argv[2] ?? 'detail';
const runs = Number(process.argv[3] ?? 3000);
const titles = await ensureCatalogue(20_000);
const database = await openMigratedDatabase(`file:${benchDbFile(20_000)}`);
const app = createApp({
  db: database.db,
  config: loadConfig({ APP_ENV: 'test', PUBLIC_CACHE_SECONDS: '0' }),
  now: Date.now,
  fetch: globalThis.fetch,
});
const slugs = (await database.client.execute('select slug from films where id % 40 = 0 limit 500')).rows.map((r) => String(r.slug));
const paths: Record<string, string[]> = {
  health: ['/api/health'],
  detail: slugs.map((s) => `/api/product/${s}`),
  episode: slugs.map((s) => `/api/product/${s}/tap-1`),
  listing: ['phimbo', 'phimle', 'han-quoc'].flatMap((e) => Array.from({ length: 20 }, (_, p) => `/api/product/product-${e}?page=${p + 1}`)),
  home: ['/api/product/product-home'],
  search: titles.slice(0, 500).map((t) => `/api/product/search?q=${encodeURIComponent(t.split(' ')[0]!)}&limit=5`),
};
const list = paths[kind]!;
for (let i = 0; i < 300; i++) await (await app.request(list[i % list.length]!)).arrayBuffer();
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 100 });
await session.post('Profiler.start');
const started = process.cpuUsage();
for (let i = 0; i < runs; i++) {
  const res = await app.request(list[i % list.length]!);
  await res.arrayBuffer();
}
const { user, system } = process.cpuUsage(started);
const { profile } = await session.post('Profiler.stop');
mkdirSync(`data/prof/${kind}`, { recursive: true });
writeFileSync(`data/prof/${kind}/${Date.now()}.cpuprofile`, JSON.stringify(profile));
console.log(`${kind}: ${((user + system) / 1000 / runs).toFixed(3)} ms CPU per request (${runs})`);
database.client.close();
