// `npm run bench -- premiere thread`: the bounded thread (issue 38 §1). Seeds a film with 20,000 comments and one
// with 100 in a temporary file database and prints, for both, the detail JSON size, the server-rendered watch page's
// size and the detail read time (median of BENCH_THREAD_READS), beside a floor: a static file served by the same
// host (the Node host's root, in process: no sockets). Needs `npm run build` for the rendered page (else the shell).
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../worker/config';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { comments, episodes, films, users } from '../../worker/db/schema';
import { createNodeRoot } from '../../worker/node';

const READS = Number(process.env.BENCH_THREAD_READS ?? 30);
const BIG = Number(process.env.BENCH_THREAD_COMMENTS ?? 20_000);
const SMALL = 100;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export async function run(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-thread-'));
  const { db, client } = await openMigratedDatabase(`file:${join(dir, 'thread.db')}`);
  try {
    const [author] = await db
      .insert(users)
      .values({ email: 'khan-gia@bench.local', username: 'Khán giả', passwordHash: 'x' })
      .returning({ id: users.id });
    const seeded: { slug: string; n: number }[] = [
      { slug: 'cong-chieu-dong-nguoi', n: BIG },
      { slug: 'cong-chieu-vang-ve', n: SMALL },
    ];
    const seedStarted = performance.now();
    for (const film of seeded) {
      const [row] = await db
        .insert(films)
        .values({ slug: film.slug, title: `Phim ${film.slug}`, categoryId: 24 })
        .returning({ id: films.id });
      await db.insert(episodes).values({
        filmId: row!.id,
        serverName: 'Vietsub #1',
        episode: 1,
        name: 'Tập 1',
        m3u8Url: 'https://cdn.example/1.m3u8',
        embedUrl: '',
      });
      // Three in four top-level, the rest replies spread over the threads.
      const at = Date.now() - 86_400_000;
      const roots: number[] = [];
      for (let i = 0; i < film.n; i += 400) {
        const chunk = Array.from({ length: Math.min(400, film.n - i) }, (_, k) => {
          const n = i + k;
          const reply = n % 4 === 3 && roots.length > 0;
          return {
            filmId: row!.id,
            userId: author!.id,
            createdAt: at + n,
            parentId: reply ? roots[(n * 7) % roots.length]! : null,
            body: `Tập này hay quá, diễn viên diễn tròn vai, nhạc nền cảm động (bình luận ${n}).`,
          };
        });
        const ids = await db.insert(comments).values(chunk).returning({ id: comments.id, parentId: comments.parentId });
        for (const c of ids) if (c.parentId === null) roots.push(c.id);
      }
    }
    console.log(`   seeded ${BIG.toLocaleString('en')} + ${SMALL} comments in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

    const config = loadConfig({ APP_ENV: 'test', PUBLIC_CACHE_SECONDS: '0' });
    const root = createNodeRoot({ db, config, now: Date.now, fetch: globalThis.fetch });
    const timed = async (path: string) => {
      const started = performance.now();
      const res = await root.request(path);
      const body = await res.arrayBuffer();
      return { ms: performance.now() - started, bytes: body.byteLength, status: res.status };
    };
    // Warm up: statements, the renderer, the film records.
    for (const film of seeded) for (let i = 0; i < 5; i++) await timed(`/api/product/${film.slug}`);
    const floorPath = '/manifest.webmanifest';
    for (let i = 0; i < 5; i++) await timed(floorPath);

    const floor: number[] = [];
    const reads = new Map<string, number[]>(seeded.map((f) => [f.slug, []]));
    for (let i = 0; i < READS; i++) {
      // Interleaved, so a busy moment of the machine falls on each alike.
      floor.push((await timed(floorPath)).ms);
      for (const film of seeded) reads.get(film.slug)!.push((await timed(`/api/product/${film.slug}`)).ms);
    }
    const floorFile = await timed(floorPath);
    console.log(`   floor: static ${floorPath} (${kb(floorFile.bytes)}, ${floorFile.status}) median ${median(floor).toFixed(2)} ms`);
    for (const film of seeded) {
      const detail = await timed(`/api/product/${film.slug}`);
      const watch = await timed(`/xem-phim/${film.slug}/tap-1`);
      console.log(
        `   ${String(film.n).padStart(6)} comments: detail JSON ${kb(detail.bytes)} (goal ≤ 64 KB), watch page ${kb(watch.bytes)} (${watch.status}, goal ≤ 200 KB), detail read median ${median(reads.get(film.slug)!).toFixed(2)} ms of ${READS}`,
      );
    }
    const [big, small] = seeded.map((f) => median(reads.get(f.slug)!));
    console.log(
      `   detail read ${BIG.toLocaleString('en')} vs ${SMALL}: ${((big! / small! - 1) * 100).toFixed(1)} % (goal within 10 %); load average ${loadavg()[0]!.toFixed(2)}`,
    );
  } finally {
    client.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
