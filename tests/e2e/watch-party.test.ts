// Issue 28, "Xem chung": three phones (host, guest, late joiner) in one party, used with taps. Every screen's
// currentTime is sampled against the party's timeline (the page's own clock estimate of the room) and the
// drift is printed after play, seek, pause and an episode change.
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, test } from 'vitest';
import { WATCH_TEXTS } from '../../party/watch-messages';
import { VIP_MESSAGES } from '../../worker/schemas/values';
import { DEMO, freeSeries, type Series } from './helpers/accounts';
import { screenshot, setupBrowser } from './helpers/browser';
import { PHONE, signInByTouch, tap, tapAndType } from './helpers/phone';

const b = setupBrowser();

/** Drift goals (issue 28): 100 ms at p95 here, 200 ms with 60 ± 20 ms added; a seek or episode change in step within 1.5 s. */
const P95_GOAL_S = 0.1;
const P95_LATENCY_GOAL_S = 0.2;
const SETTLE_MS = 1500;
/** Room for a busy 2-core CI machine over the goals (the bench, `npm run bench -- together`, prints the real numbers). */
const TOLERANCE_S = 0.05;
/**
 * How long a screen may take to come in step before the test calls it out of step. The goals (a seek or an
 * episode change in step within 1.5 s, a late joiner within 3 s: issue 28) are speed goals: the bench measures
 * them (`npm run bench -- together`); here the times are printed, and only never coming in step fails.
 */
const IN_STEP_TIMEOUT_MS = 10_000;

interface Probe {
  drift: number;
  currentTime: number;
  paused: boolean;
  seq: number;
  episode: number;
  rtt: number;
}

const probe = (page: Page) =>
  page.evaluate(() => (window as Window & { __phimvietParty?: { drift: () => Probe | null } }).__phimvietParty?.drift() ?? null);

/** Samples every screen every 100 ms for `ms`: the absolute drifts (s) of all screens' samples. */
async function sampleDrift(pages: Page[], ms: number): Promise<number[]> {
  const drifts: number[] = [];
  const end = Date.now() + ms;
  while (Date.now() < end) {
    const all = await Promise.all(pages.map(probe));
    for (const p of all) if (p) drifts.push(Math.abs(p.drift));
    await new Promise((r) => setTimeout(r, 100));
  }
  return drifts;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? Number.NaN;
};

function report(label: string, drifts: number[]): { p50: number; p95: number; max: number } {
  const r = { p50: quantile(drifts, 0.5), p95: quantile(drifts, 0.95), max: Math.max(...drifts) };
  console.log(
    `[watch-party] ${label}: drift p50 ${(r.p50 * 1000).toFixed(0)} ms, p95 ${(r.p95 * 1000).toFixed(0)} ms, max ${(r.max * 1000).toFixed(0)} ms over ${drifts.length} samples`,
  );
  return r;
}

/** Waits until every screen is within `within` s of the party's timeline (and playing or not); returns how long it took (ms). */
async function untilInStep(pages: Page[], within: number, playing: boolean, timeout = 10_000): Promise<number> {
  const start = Date.now();
  while (Date.now() - start < timeout) {
    const all = await Promise.all(pages.map(probe));
    if (all.every((p) => p && Math.abs(p.drift) <= within && p.paused === !playing)) return Date.now() - start;
    await new Promise((r) => setTimeout(r, 50));
  }
  const all = await Promise.all(pages.map(probe));
  throw new Error(`screens not in step after ${timeout} ms: ${JSON.stringify(all)}`);
}

/**
 * Holds every frame between this context's pages and the watch room `base ± spread` ms in each direction
 * (frames keep their order), so the round trip to the room grows by 2 × (base ± spread).
 */
async function addRoomLatency(context: BrowserContext, base: number, spread: number): Promise<void> {
  await context.routeWebSocket(/\/parties\/watch\//, (ws) => {
    const server = ws.connectToServer();
    const relay = (send: (m: string | Buffer) => void) => {
      let last = 0;
      return (message: string | Buffer) => {
        const at = Math.max(last, Date.now() + base + (Math.random() * 2 - 1) * spread);
        last = at;
        setTimeout(() => send(message), at - Date.now());
      };
    };
    ws.onMessage(relay((m) => server.send(m)));
    server.onMessage(relay((m) => ws.send(m)));
  });
}

/** Every phone a test opened: closed after it, so a test that fails midway leaves no players running for the next. */
const opened = new Set<BrowserContext>();
afterEach(async () => {
  for (const context of opened) await context.close().catch(() => undefined);
  opened.clear();
});

async function phone(): Promise<{ context: BrowserContext; page: Page; errors: string[] }> {
  const opening = await b.newPage({ ...PHONE });
  opened.add(opening.context);
  return opening;
}

/** A visitor opens the link and joins under a display name. */
async function joinAsVisitor(page: Page, url: string, name: string): Promise<void> {
  await page.goto(url);
  await tapAndType(page, page.getByLabel('Tên hiển thị'), name);
  await tap(page, page.getByRole('button', { name: 'Vào xem chung' }));
  await page.getByRole('heading', { name: /^Thành viên/ }).waitFor();
}

/** The host signs in, opens an episode and taps "Xem chung": the party's page with its link. */
async function startParty(page: Page, series: Series): Promise<string> {
  await signInByTouch(page, DEMO.user, { redirect: `/xem-phim/${series.slug}/tap-${series.episodes[0]}` });
  await tap(page, page.getByRole('button', { name: 'Xem chung', exact: true }));
  await page.waitForURL(/\/xem-chung\/[A-Za-z0-9_-]{16,}$/);
  await page.getByRole('heading', { name: /^Thành viên/ }).waitFor();
  return page.getByLabel('Liên kết phòng').inputValue();
}

/** Taps the player's big "Phát" button (the party starts for everyone). */
async function tapPlay(page: Page): Promise<void> {
  await tap(page, page.getByTestId('big-play'));
}

/** A double tap on the right (+10 s) or left (−10 s) third of the picture, as a person seeks on a phone. */
async function doubleTapSide(page: Page, side: 'left' | 'right'): Promise<void> {
  const box = (await page.getByTestId('player-gestures').boundingBox())!;
  const x = box.x + (side === 'right' ? (box.width * 5) / 6 : box.width / 6);
  const y = box.y + box.height * 0.3;
  await page.touchscreen.tap(x, y);
  await page.waitForTimeout(120);
  await page.touchscreen.tap(x, y);
}

/** A tap on the middle of the picture (paused: it plays). */
async function tapPicture(page: Page): Promise<void> {
  const box = (await page.getByTestId('player-gestures').boundingBox())!;
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height * 0.3);
}

/** While playing: a tap on the picture shows the controls, the next one pauses. */
async function tapPause(page: Page): Promise<void> {
  const box = (await page.getByTestId('player-gestures').boundingBox())!;
  const x = box.x + box.width / 2;
  const y = box.y + box.height * 0.3;
  await page.touchscreen.tap(x, y);
  await page.waitForTimeout(400);
  if (!(await page.evaluate(() => document.querySelector<HTMLVideoElement>('[data-testid="video"]')!.paused)))
    await page.touchscreen.tap(x, y);
}

describe('watch together', () => {
  test('three phones stay in step through play, seek, pause and an episode change; a late joiner syncs', { timeout: 120_000 }, async () => {
    const series = await freeSeries(b.baseURL());
    const host = await phone();
    const guest = await phone();
    const late = await phone();
    const url = await startParty(host.page, series);
    expect(url).toMatch(/\/xem-chung\/[A-Za-z0-9_-]{22}$/);
    await joinAsVisitor(guest.page, url, '  Lan  ');
    await expect.poll(() => host.page.locator('[data-member="Lan"]').count()).toBe(1);
    await host.page.locator('[data-member="Lan"]').getByText('Đang tải…').waitFor({ state: 'detached', timeout: 20_000 });
    await screenshot(host.page, 'watch-party-host-before-play');

    // Play: the host taps "Phát"; both screens start together.
    await tapPlay(host.page);
    await guest.page.getByText('Người xem đã phát').waitFor({ timeout: 5000 });
    await untilInStep([host.page, guest.page], 0.3, true);
    await host.page.waitForTimeout(SETTLE_MS);
    const play = report('after play', await sampleDrift([host.page, guest.page], 2500));
    expect(play.p95).toBeLessThan(P95_GOAL_S + TOLERANCE_S);

    // A late joiner starts at the party's position within 3 s, without pausing anyone.
    const t0 = Date.now();
    await joinAsVisitor(late.page, url, 'Minh');
    const synced = await untilInStep([late.page], 0.1, true, IN_STEP_TIMEOUT_MS);
    console.log(
      `[watch-party] late joiner in step ${Date.now() - t0} ms after tapping "Vào xem chung" (${synced} ms after the room's page showed)`,
    );
    const all = [host.page, guest.page, late.page];

    // Seek: the host double-taps the left third (back 10 s: the demo episode is 20 s long).
    const before = (await probe(host.page))!.currentTime;
    await doubleTapSide(host.page, 'left');
    const tSeek = Date.now();
    const notice = guest.page.getByText(/Người xem đã tua đến \d+:\d\d/);
    await notice.waitFor({ timeout: 5000 });
    // Read as it shows: the notice goes after a few seconds, and the screens may take longer to get in step.
    const told = (await notice.textContent({ timeout: 1000 })) ?? '';
    const seekTook = await untilInStep(all, 0.1, true, IN_STEP_TIMEOUT_MS);
    console.log(`[watch-party] seek in step everywhere ${Date.now() - tSeek} ms after the tap (${seekTook} ms after the notice)`);
    // The seek's target as the guest was told it (the host's time now has moved on by however long the screens took to
    // get in step): 10 s back, or the start.
    const [, min, sec] = /(\d+):(\d\d)/.exec(told)!;
    expect(Math.abs(Number(min) * 60 + Number(sec) - Math.max(0, before - 10))).toBeLessThanOrEqual(1);
    // In step (≤ 100 ms) is checked above; the drift that stays is sampled once the rate nudges have settled, as
    // after play: right after a seek a screen still 100 ms out needs 2 s at +5 % to close it (p95 62–153 ms).
    await host.page.waitForTimeout(SETTLE_MS);
    const seek = report('after seek', await sampleDrift(all, 2000));
    expect(seek.p95).toBeLessThan(P95_GOAL_S + TOLERANCE_S);

    // Pause: everyone stops at the same position.
    await tapPause(host.page);
    await untilInStep(all, 0.06, false, 5000);
    const pause = report('after pause', await sampleDrift(all, 1000));
    expect(pause.max).toBeLessThan(0.06);

    // An episode change by the host while the party plays: every screen loads it and plays it in step.
    await tapPicture(host.page);
    // Back in step after the resume (not a goal here: the episode change is): on a machine short of CPU a screen
    // can take longer than 5 s to settle.
    await untilInStep(all, 0.15, true, 10_000);
    const t1 = Date.now();
    await tap(host.page, host.page.getByRole('button', { name: `Tập ${series.episodes[1]}`, exact: true }).first());
    await guest.page.getByText(`Người xem đã chuyển sang Tập ${series.episodes[1]}`).waitFor({ timeout: 5000 });
    await expect.poll(async () => (await Promise.all(all.map(probe))).every((p) => p?.episode === series.episodes[1])).toBe(true);
    await untilInStep(all, 0.1, true, IN_STEP_TIMEOUT_MS);
    console.log(`[watch-party] episode change in step everywhere ${Date.now() - t1} ms after the tap`);
    await host.page.waitForTimeout(SETTLE_MS);
    const episode = report('after episode change', await sampleDrift(all, 2000));
    expect(episode.p95).toBeLessThan(P95_GOAL_S + TOLERANCE_S);
    await screenshot(guest.page, 'watch-party-guest-episode');
    for (const s of [host, guest, late]) await s.context.close();
  });

  test("control: a viewer's seek is refused and snaps back; the host hands control over, then to everyone; chat is plain text and kept for late joiners; the host removes a member", {
    timeout: 90_000,
  }, async () => {
    const series = await freeSeries(b.baseURL());
    const host = await phone();
    const guest = await phone();
    const url = await startParty(host.page, series);
    await joinAsVisitor(guest.page, url, 'Lan');
    await host.page.locator('[data-member="Lan"]').getByText('Đang tải…').waitFor({ state: 'detached', timeout: 20_000 });
    await tapPlay(host.page);
    await untilInStep([host.page, guest.page], 0.2, true);

    // The viewer double-taps to seek: the room refuses, the screen snaps back, nobody else moves.
    const seqBefore = (await probe(host.page))!.seq;
    await doubleTapSide(guest.page, 'right');
    await guest.page.getByRole('alert').filter({ hasText: WATCH_TEXTS.notAllowed }).waitFor({ timeout: 5000 });
    await untilInStep([guest.page], 0.2, true, 5000);
    expect((await probe(host.page))!.seq).toBe(seqBefore);
    expect(Math.abs((await probe(host.page))!.drift)).toBeLessThan(0.2);

    // The host hands control to Lan: Lan pauses for everyone.
    await tap(host.page, host.page.getByRole('button', { name: 'Giao quyền điều khiển cho Lan' }));
    await guest.page.getByText('Người xem đã giao quyền điều khiển cho Lan').waitFor({ timeout: 5000 });
    await guest.page.locator('[data-member="Lan"]').getByText('Đang điều khiển').waitFor();
    await tapPause(guest.page);
    await host.page.getByText(/^Lan đã tạm dừng ở \d+:\d\d$/).waitFor({ timeout: 5000 });
    await untilInStep([host.page, guest.page], 0.06, false, 5000);

    // "Mọi người cùng điều khiển".
    await tap(host.page, host.page.getByRole('checkbox', { name: WATCH_TEXTS.everyone }));
    await guest.page.getByRole('status').filter({ hasText: WATCH_TEXTS.everyone }).waitFor({ timeout: 5000 });

    // Chat: plain text, escaped, kept for the late joiner.
    const text = '<b>Xin chào</b> mọi người & <img src=x onerror=alert(1)>';
    await tapAndType(guest.page, guest.page.getByLabel('Tin nhắn'), text);
    await tap(guest.page, guest.page.getByRole('button', { name: 'Gửi' }));
    const hostChat = host.page.locator('.party-chat-message').filter({ hasText: text });
    await hostChat.waitFor({ timeout: 5000 });
    expect(await host.page.locator('.party-chat-list b, .party-chat-list img').count()).toBe(0);
    const late = await phone();
    await joinAsVisitor(late.page, url, 'Minh');
    await late.page.locator('.party-chat-message').filter({ hasText: text }).waitFor({ timeout: 5000 });

    // The host removes Minh: Minh is told so, in Vietnamese.
    await tap(host.page, host.page.getByRole('button', { name: 'Mời Minh ra' }));
    await late.page.getByRole('alert').filter({ hasText: WATCH_TEXTS.removed }).waitFor({ timeout: 5000 });
    await expect.poll(() => host.page.locator('[data-member="Minh"]').count()).toBe(0);
    await screenshot(host.page, 'watch-party-host-controls');
    for (const s of [host, guest, late]) await s.context.close();
  });

  test('60 ± 20 ms added between a phone and the room: still in step; a member whose segments are slow is waited for, then the party goes on', {
    timeout: 90_000,
  }, async () => {
    const series = await freeSeries(b.baseURL());
    const host = await phone();
    const guest = await phone();
    const slow = await phone();
    // The guest's connection gets 60 ± 20 ms more: its HTTP by the browser's own network emulation (CDP), its
    // socket to the room (which that emulation does not delay) by a relay holding each frame 30 ± 10 ms each way.
    const cdp = await guest.context.newCDPSession(guest.page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 60, downloadThroughput: -1, uploadThroughput: -1 });
    await addRoomLatency(guest.context, 30, 10);
    const url = await startParty(host.page, series);
    await joinAsVisitor(guest.page, url, 'Lan');
    await joinAsVisitor(slow.page, url, 'Minh');
    for (const name of ['Lan', 'Minh'])
      await host.page.locator(`[data-member="${name}"]`).getByText('Đang tải…').waitFor({ state: 'detached', timeout: 20_000 });
    await tapPlay(host.page);
    await untilInStep([host.page, guest.page, slow.page], 0.3, true);
    await host.page.waitForTimeout(SETTLE_MS);
    const lagged = report('60 ± 20 ms added to one phone', await sampleDrift([host.page, guest.page], 3000));
    const rtt = (await probe(guest.page))!.rtt;
    console.log(`[watch-party] the lagged phone's lowest round trip to the room: ${rtt.toFixed(0)} ms`);
    // The relay adds 30 ± 10 ms each way: at least 40 ms to the lowest round trip.
    expect(rtt).toBeGreaterThan(40);
    expect(lagged.p95).toBeLessThan(P95_LATENCY_GOAL_S + TOLERANCE_S);

    // Minh's segments now take 13 s each (the first two): the episode change waits for Minh, then goes on.
    let slowed = 0;
    await slow.page.route(/\.ts(\?|$)/, async (route) => {
      if (slowed++ < 2) await new Promise((r) => setTimeout(r, 13_000));
      await route.continue().catch(() => undefined);
    });
    await tap(host.page, host.page.getByRole('button', { name: `Tập ${series.episodes[1]}`, exact: true }).first());
    const t0 = Date.now();
    await host.page.getByText('Đang chờ Minh…').waitFor({ timeout: 8000 });
    await screenshot(host.page, 'watch-party-waiting');
    // At most 10 s later the party goes on without Minh.
    await untilInStep([host.page, guest.page], 0.2, true, 14_000);
    const waited = Date.now() - t0;
    console.log(`[watch-party] the party waited ${waited} ms for the slow member, then went on`);
    expect(waited).toBeGreaterThan(5000);
    expect(waited).toBeLessThan(13_000);
    expect((await probe(slow.page))?.paused ?? true).toBe(true);
    // Minh catches up alone once the segments arrive.
    await untilInStep([slow.page], 0.2, true, 30_000);
    for (const s of [host, guest, slow]) await s.context.close();
  });

  test('refusals in Vietnamese: a link to no party says so before any name; a VIP-only film shows a visitor why and the way to VIP', async () => {
    const lost = await phone();
    await lost.page.goto('/xem-chung/AAAAAAAAAAAAAAAAAAAAAA');
    await lost.page.getByRole('alert').filter({ hasText: WATCH_TEXTS.notFound }).waitFor({ timeout: 10_000 });
    expect(await lost.page.getByLabel('Tên hiển thị').count()).toBe(0);
    await lost.context.close();

    const all = (await (await fetch(`${b.baseURL()}/api/product?page=1`)).json()) as { data: { slug: string; VIP1: number }[] };
    const slug = all.data.find((f) => f.VIP1 === 1)?.slug;
    if (!slug) throw new Error('no VIP-only film in the demo catalogue');
    const detail = (await (await fetch(`${b.baseURL()}/api/product/${slug}`)).json()) as { datafilm: { linkfilms: { episode: number }[] } };
    const host = await phone();
    await signInByTouch(host.page, DEMO.vip1, { redirect: `/xem-phim/${slug}/tap-${detail.datafilm.linkfilms[0]!.episode}` });
    await tap(host.page, host.page.getByRole('button', { name: 'Xem chung', exact: true }));
    await host.page.waitForURL(/\/xem-chung\//);
    const url = await host.page.getByLabel('Liên kết phòng').inputValue();
    const visitor = await phone();
    await joinAsVisitor(visitor.page, url, 'Hoa');
    await visitor.page.getByRole('alert').filter({ hasText: VIP_MESSAGES.error1 }).waitFor({ timeout: 10_000 });
    expect(await visitor.page.getByRole('link', { name: 'Xem các gói VIP' }).getAttribute('href')).toBe('/dang-ky-goi-vip');
    expect(await visitor.page.locator('[data-testid="video"]').count()).toBe(0);
    // The member with the right plays it in the same party.
    await host.page.getByTestId('video').waitFor();
    await screenshot(visitor.page, 'watch-party-vip-visitor');
    for (const s of [host, visitor]) await s.context.close();
  });
});
