// `npm run bench -- premiere party`: a full watch party (issue 38 §6) at the protocol level. partykit dev (party/
// watch.ts), the party made with the secret as the API makes it, a full party of 20 (WATCH_MAX_MEMBERS) as `ws`
// clients: 19 on loopback and one whose every frame is held 150 ± 15 ms each way (300 ms round trip). Each member runs the web's own sync engine (RoomClock and
// correction() of web/src/features/watch-party/sync-engine.ts, pings as the page sends them) over a simulated player
// ticked every 50 ms (a seek takes 150 ms). The host plays; for BENCH_SECONDS (20) each member's position is
// compared at 10 Hz with the room's timeline at the true room time (workerd and the bench share this machine's
// clock). No video element: the browser figure with real players is bench/together.ts (20 Chromium pages on 2
// shared cores would measure the machine, not the party). Loopback only; bounded; stops what it started.
import { loadavg } from 'node:os';
import WebSocket from 'ws';
import { startPartyKitDev } from '../../party/dev-server';
import { parseWatchEvent, type Timeline, timelinePosition, WATCH_MAX_MEMBERS, type WatchClientMessage } from '../../party/watch-messages';
import { signWatchToken } from '../../party/watch-token';
import { PARTY_SECRET_HEADER } from '../../worker/schemas/values';
import { correction, RoomClock } from '../../web/src/features/watch-party/sync-engine';

/** Members on loopback; with the far one, a full party (WATCH_MAX_MEMBERS). */
const MEMBERS = WATCH_MAX_MEMBERS - 1;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 20);
const SECRET = `bench-party-${crypto.randomUUID()}`;
const PARTY = crypto.randomUUID().replace(/-/g, '').slice(0, 22);
const TICK_MS = 50;
const SEEK_MS = 150;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const q = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] ?? Number.NaN;
};

interface Member {
  name: string;
  ws: WebSocket;
  send: (m: WatchClientMessage) => void;
  clock: RoomClock;
  timeline: Timeline | null;
  /** The simulated player. */
  player: { currentTime: number; paused: boolean; seeking: boolean; rate: number; at: number };
  lastSeekAt: number;
  seeks: number;
  drifts: number[];
}

async function join(url: string, name: string, sub: string, oneWayMs: number): Promise<Member> {
  const { token } = await signWatchToken(SECRET, { sub, name, party: PARTY, signedIn: sub.startsWith('u:') }, Date.now());
  const ws = new WebSocket(`${url}?token=${encodeURIComponent(token)}`, { perMessageDeflate: false });
  const delay = (fn: () => void) => (oneWayMs > 0 ? setTimeout(fn, oneWayMs + (Math.random() * 2 - 1) * (oneWayMs / 10)) : fn());
  let pingId = 0;
  const sentAt = new Map<number, number>();
  const m: Member = {
    name,
    ws,
    send: (msg) => delay(() => ws.readyState === WebSocket.OPEN && ws.send(JSON.stringify(msg))),
    clock: new RoomClock(),
    timeline: null,
    player: { currentTime: 0, paused: true, seeking: false, rate: 1, at: performance.now() },
    lastSeekAt: Number.NEGATIVE_INFINITY,
    seeks: 0,
    drifts: [],
  };
  const ping = () => {
    const id = ++pingId;
    sentAt.set(id, performance.now());
    m.send({ type: 'ping', id, t: id });
    setTimeout(ping, m.clock.count < 8 ? 250 : 3000).unref();
  };
  ws.on('message', (data) =>
    delay(() => {
      const event = parseWatchEvent(String(data));
      if (!event) return;
      if (event.type === 'pong') {
        const at = sentAt.get(event.id);
        if (at !== undefined) m.clock.add(at, event.s, performance.now());
      } else if (event.type === 'welcome' || event.type === 'snapshot') {
        const fresh = event.snapshot.timeline.seq !== m.timeline?.seq;
        m.timeline = event.snapshot.timeline;
        if (fresh) m.send({ type: 'ready', seq: m.timeline.seq, rtt: m.clock.rtt });
      }
    }),
  );
  await new Promise<void>((done, fail) => {
    ws.once('open', () => done());
    ws.once('error', fail);
  });
  ping();
  return m;
}

/** The player's position now (it advances at its rate while playing). */
function position(m: Member, now: number): number {
  const p = m.player;
  return p.paused || p.seeking ? p.currentTime : p.currentTime + (p.rate * (now - p.at)) / 1000;
}

/** One tick of the page's loop: the sync engine's correction applied to the simulated player. */
function tick(m: Member): void {
  const now = performance.now();
  const p = m.player;
  p.currentTime = position(m, now);
  p.at = now;
  if (!m.timeline || !m.clock.ready || p.seeking) return;
  const c = correction(m.timeline, m.clock.roomNow(now), p, now, m.lastSeekAt, SEEK_MS / 1000);
  if (c.kind === 'paused' || c.kind === 'scheduled') {
    if (c.seek) p.currentTime = c.position;
    p.paused = true;
    if (c.kind === 'scheduled' && c.startInMs <= TICK_MS)
      setTimeout(() => {
        p.currentTime = m.timeline!.position;
        p.at = performance.now();
        p.paused = false;
        p.rate = m.timeline!.rate;
      }, c.startInMs);
    return;
  }
  p.paused = false;
  p.rate = c.rate;
  if (c.seekTo !== undefined) {
    m.lastSeekAt = now;
    m.seeks++;
    p.seeking = true;
    const target = c.seekTo;
    setTimeout(() => {
      p.currentTime = target;
      p.at = performance.now();
      p.seeking = false;
    }, SEEK_MS);
  }
}

export async function run(): Promise<void> {
  const party = await startPartyKitDev({ secret: SECRET });
  const members: Member[] = [];
  const timers: ReturnType<typeof setInterval>[] = [];
  try {
    const api = `${party.url}/parties/watch/${PARTY}`;
    const created = await fetch(api, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [PARTY_SECRET_HEADER]: SECRET },
      body: JSON.stringify({
        type: 'create',
        film: { slug: 'phim-cong-chieu', title: 'Phim Công Chiếu' },
        episode: 1,
        server: 'Vietsub #1',
        servers: [{ name: 'Vietsub #1', episodes: [1, 2] }],
        host: { sub: 'u:1', name: 'Chủ phòng' },
      }),
    });
    if (created.status !== 201) throw new Error(`party not created: ${created.status}`);
    const url = `ws://${party.host}/parties/watch/${PARTY}`;
    members.push(await join(url, 'Chủ phòng', 'u:1', 0));
    for (let i = 2; i <= MEMBERS; i++) members.push(await join(url, `Thành viên ${i}`, `u:${i}`, 0));
    const far = await join(url, 'Ở xa', 'g:xa', 150);
    members.push(far);
    for (const m of members) timers.push(setInterval(() => tick(m), TICK_MS));
    await sleep(3000); // clock samples and ready reports
    const host = members[0]!;
    host.send({ type: 'play', seq: host.timeline!.seq });
    await sleep(2000); // the lead, then the first corrections
    const end = performance.now() + SECONDS * 1000;
    while (performance.now() < end) {
      const trueRoomNow = Date.now();
      const now = performance.now();
      for (const m of members) {
        if (!m.timeline?.playing) continue;
        m.drifts.push(Math.abs(position(m, now) - timelinePosition(m.timeline, trueRoomNow)) * 1000);
      }
      await sleep(100);
    }
    const near = members.filter((m) => m !== far).flatMap((m) => m.drifts);
    const line = (xs: number[]) =>
      `p50 ${q(xs, 0.5).toFixed(0)} ms, p95 ${q(xs, 0.95).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;
    console.log(
      `   ${MEMBERS} members on loopback (a simulated player each, no video element): drift ${line(near)} (${near.length} samples; seeks ${members
        .filter((m) => m !== far)
        .reduce((n, m) => n + m.seeks, 0)})`,
    );
    console.log(
      `   one member at 300 ms round trip: drift ${line(far.drifts)} (clock rtt ${far.clock.rtt.toFixed(0)} ms; seeks ${far.seeks})`,
    );
    const ok = q(near, 0.95) <= 100 && q(far.drifts, 0.95) <= 250;
    console.log(`   goal (p95 ≤ 100 ms; the far member ≤ 250 ms): ${ok ? 'met' : 'NOT met'}; load average ${loadavg()[0]!.toFixed(2)}`);
  } finally {
    for (const t of timers) clearInterval(t);
    for (const m of members) m.ws.terminate();
    await party.stop();
  }
}
