// The CPU of one encrypted Web Push message in workerd (issue 38 §5; the arithmetic is in docs/decisions/1030): a
// tiny Worker bundling @block65/webcrypto-web-push, run by Miniflare (the workerd that wrangler pins), encrypts N
// messages per request; workerd's CPU is read from /proc/<pid>/task/*/schedstat (timers do not move while a
// Worker computes, so it cannot time itself) before and after, minus a request that encrypts none.
// Three ways: today's (encryptNotification unpadded, VAPID token reused), the padded body alone, and the library's
// buildPushPayload as the notifier used it before (VAPID key import and ES256 signature per message, 4 KB body).
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { pushClient } from '../../tests/helpers/push-service';

const ROOT = resolve(import.meta.dirname, '../..');

const WORKER = `
import { buildPushPayload, encryptNotification } from '@block65/webcrypto-web-push';
export default {
  async fetch(request) {
    const url = new URL(request.url);
    const n = Number(url.searchParams.get('n'));
    const mode = url.searchParams.get('mode');
    const { subscription, vapid, data } = await request.json();
    const plaintext = new TextEncoder().encode(JSON.stringify(data));
    let bytes = 0;
    for (let i = 0; i < n; i++) {
      if (mode === 'before') {
        const built = await buildPushPayload({ data, options: { ttl: 86400, urgency: 'normal', topic: 'dat-rung-phuong-nam' } }, subscription, vapid);
        bytes += built.body.byteLength;
      } else {
        bytes += (await encryptNotification(subscription, plaintext, { pad: mode === 'padded' })).byteLength;
      }
    }
    return new Response(String(n ? bytes / n : 0));
  },
};
`;

/** Nanoseconds a process has run on a CPU, all its threads. */
function cpuNs(pid: number): number {
  let ns = 0;
  for (const task of readdirSync(`/proc/${pid}/task`)) {
    try {
      ns += Number(readFileSync(`/proc/${pid}/task/${task}/schedstat`, 'utf8').split(' ')[0]);
    } catch {
      /* a thread that ended */
    }
  }
  return ns;
}

/** The workerd process Miniflare started (a child of this process). */
function workerdPid(): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === 'workerd') return Number(entry);
    } catch {
      /* gone */
    }
  }
  throw new Error('no workerd child');
}

export interface WorkerdCpu {
  /** ms of CPU per message, and the body's bytes, per way. */
  unpadded: { ms: number; bytes: number };
  padded: { ms: number; bytes: number };
  before: { ms: number; bytes: number };
}

export async function workerdCpuPerMessage(n = 400): Promise<WorkerdCpu> {
  const bundled = await build({
    stdin: { contents: WORKER, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    format: 'esm',
    write: false,
    platform: 'neutral',
    minify: true,
  });
  const mf = new Miniflare({ modules: true, script: bundled.outputFiles[0]!.text, compatibilityDate: '2026-04-26' });
  try {
    await mf.ready;
    const pid = workerdPid();
    const client = pushClient('https://push.example.test/send/1');
    const body = JSON.stringify({
      subscription: client.subscription,
      vapid: {
        subject: 'https://phimviet.example.workers.dev',
        publicKey: 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U',
        privateKey: 'UUxI4O8-FbRouAevSmBQ6o18hgE4nSG3qwvJTfKc-ls',
      },
      data: {
        type: 'new-episode',
        title: 'Đất Rừng Phương Nam: đã có tập 12',
        body: 'Bấm để xem tập 12 ngay',
        url: '/xem-phim/dat-rung-phuong-nam/tap-12',
        slug: 'dat-rung-phuong-nam',
        episode: 12,
      },
    });
    const call = async (mode: string, count: number) => {
      const before = cpuNs(pid);
      const res = await mf.dispatchFetch(`http://worker/?mode=${mode}&n=${count}`, { method: 'POST', body });
      const bytes = Number(await res.text());
      return { ns: cpuNs(pid) - before, bytes };
    };
    const measure = async (mode: string) => {
      await call(mode, 50); // warm-up: compiled code, imported keys
      const runs: number[] = [];
      let bytes = 0;
      for (let r = 0; r < 3; r++) {
        const empty = await call(mode, 0);
        const full = await call(mode, n);
        runs.push((full.ns - empty.ns) / n / 1e6);
        bytes = full.bytes;
      }
      runs.sort((a, b) => a - b);
      return { ms: runs[1]!, bytes };
    };
    return { unpadded: await measure('unpadded'), padded: await measure('padded'), before: await measure('before') };
  } finally {
    await mf.dispose();
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  console.log(await workerdCpuPerMessage());
}
