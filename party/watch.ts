import type * as Party from 'partykit/server';
import {
  clockText,
  cleanName,
  isPartyId,
  type Timeline,
  timelinePosition,
  WATCH_CHAT_KEEP,
  WATCH_CHAT_MAX,
  WATCH_CLOSE,
  WATCH_EMPTY_TTL_MS,
  WATCH_MAX_FRAME,
  WATCH_AWAY_MS,
  WATCH_HOST_RETURN_MS,
  WATCH_MAX_MEMBERS,
  WATCH_STALL_WAIT_MS,
  WATCH_TEXTS,
  type WatchChatMessage,
  type WatchClientMessage,
  type WatchCreate,
  type WatchEvent,
  type WatchInfo,
  type WatchMember,
  type WatchNotice,
  type WatchSnapshot,
  type WatchTokenClaims,
  watchClientSchema,
  watchCreateSchema,
} from './watch-messages';
import { closeQuietly, json, readJsonBody, secretRefusal, sendQuietly } from './room-http';
import { tokenOf } from './room-token';
import { verifyWatchToken } from './watch-token';

/** A host whose socket closed keeps the role this long (a reload, a network blip), then the longest present member gets it. */
export const HOST_GRACE_MS = 5000;
/** How often the room looks for members who went silent (away within WATCH_AWAY_MS + this). */
export const AWAY_CHECK_MS = 1000;
/** A play starts this far ahead of the room's clock at least, so every screen starts together. */
const MIN_LEAD_MS = 300;
const MAX_LEAD_MS = 1500;
/** A member who made the party wait the full time is not waited for again this long (catches up alone). */
const STALL_COOLDOWN_MS = 60_000;
/** Frames per connection per window before the socket is closed; then each kind has its own bucket. */
const FRAMES_PER_WINDOW = 120;
const FRAME_WINDOW_MS = 10_000;
const BUCKETS = {
  command: { size: 5, perSecond: 4 },
  chat: { size: 3, perSecond: 1 },
  ping: { size: 10, perSecond: 5 },
  report: { size: 10, perSecond: 5 },
} as const;
type BucketName = keyof typeof BUCKETS;

interface Person {
  pid: string;
  name: string;
  signedIn: boolean;
}

/** Everything that must survive a restart of the room, under one storage key. */
interface PartyState {
  v: 1;
  id: string;
  film: WatchCreate['film'];
  servers: WatchCreate['servers'];
  createdAt: number;
  hostSub: string;
  /** Who made the party: the host role comes back to them on return within WATCH_HOST_RETURN_MS (absent before issue 38: the host then). */
  creatorSub?: string;
  /** When the creator lost the host's place (socket closed, or away); null while they hold it. */
  hostLeftAt?: number | null;
  mode: 'host' | 'everyone';
  controllerSub: string | null;
  timeline: Timeline;
  waiting: { for: string[]; until: number; resume: boolean } | null;
  /** Everyone who has joined, by token subject: their id in this party stays the same across reconnects. */
  people: Record<string, Person>;
  removed: string[];
  chatSeq: number;
  emptySince: number | null;
  /** Malformed, oversized or unknown frames dropped since the party began. */
  dropped: number;
}

interface Ended {
  film: WatchCreate['film'];
  episode: number;
  server: string;
}

/** A connection in the room (kept in memory: the room does not hibernate, and sockets do not survive a restart). */
interface Present {
  conn: Party.Connection;
  sub: string;
  joinedAt: number;
  status: WatchMember['status'];
  /** The last frame this connection sent (clients ping every 3 s); silent for WATCH_AWAY_MS = away. */
  lastFrameAt: number;
  away: boolean;
  /** Not waited for (a late joiner until it first loads; a member who timed out a wait). */
  exemptUntil: number;
  rtt: number;
  frames: number;
  windowStart: number;
  buckets: Record<BucketName, { tokens: number; at: number }>;
}

const STATE_KEY = 'party';
const ENDED_KEY = 'ended';
const CHAT_PREFIX = 'chat:';
const chatKey = (id: number) => `${CHAT_PREFIX}${String(id).padStart(10, '0')}`;

/** The API makes the party (POST) and reads its summary (GET), with the shared secret. */
const apiRefusal = (req: Party.Request, env: Record<string, unknown>) => secretRefusal(req, env, ['POST', 'GET']);

/** One of this room's events to one socket, checked against WatchEvent. */
const sendEvent = (connection: Party.Connection, event: WatchEvent) => sendQuietly(connection, event);

function randomId(bytes: number): string {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  let s = '';
  for (const x of b) s += String.fromCharCode(x);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const countChars = (s: string) => [...s].length;
const rateText = (r: number) => `${String(r).replace('.', ',')}x`;

/**
 * One room per watch party (issue 28, DESIGN §19). The room owns the timeline and the membership; browsers
 * send commands, which are validated (zod) and checked against the sender's role, then applied and the new
 * snapshot broadcast. Identity comes only from the API's join token. State is persisted after every change.
 */
export default class WatchRoom implements Party.Server {
  /** Frequent small messages and pings; timers for the stall wait and the host's grace: no hibernation. */
  readonly options: Party.ServerOptions = { hibernate: false };

  state: PartyState | null = null;
  ended: Ended | null = null;
  chat: WatchChatMessage[] = [];
  readonly present = new Map<string, Present>();
  private waitTimer: ReturnType<typeof setTimeout> | null = null;
  private hostTimer: ReturnType<typeof setTimeout> | null = null;
  private awayTimer: ReturnType<typeof setInterval> | null = null;

  constructor(readonly room: Party.Room) {}

  /** The room's clock (ms). */
  now(): number {
    return Date.now();
  }

  // ---- at the edge -------------------------------------------------------------------------------------

  static async onBeforeConnect(req: Party.Request, lobby: Party.Lobby): Promise<Party.Request | Response> {
    if (!isPartyId(lobby.id)) return new Response(WATCH_TEXTS.notFound, { status: 404 });
    const claims = await verifyWatchToken(lobby.env.PARTY_SECRET, tokenOf(req.url), lobby.id, Date.now());
    if (!claims) return new Response(WATCH_TEXTS.badToken, { status: 401 });
    return req;
  }

  static onBeforeRequest(req: Party.Request, lobby: Party.Lobby): Party.Request | Response {
    if (!isPartyId(lobby.id)) return json({ error: { code: 'not_found', message: WATCH_TEXTS.notFound } }, 404);
    return apiRefusal(req, lobby.env) ?? req;
  }

  // ---- lifecycle ---------------------------------------------------------------------------------------

  async onStart(): Promise<void> {
    this.state = ((await this.room.storage.get<PartyState>(STATE_KEY)) as PartyState | undefined) ?? null;
    this.ended = ((await this.room.storage.get<Ended>(ENDED_KEY)) as Ended | undefined) ?? null;
    if (this.state) {
      const chat = await this.room.storage.list<WatchChatMessage>({ prefix: CHAT_PREFIX });
      this.chat = [...chat.values()].slice(-WATCH_CHAT_KEEP);
      // Nobody is connected after a restart: a wait in progress ends (everyone reconnects and reloads).
      if (this.state.waiting) {
        this.state.waiting = null;
        if (this.state.timeline.playing === false) this.state.timeline = { ...this.state.timeline, seq: this.state.timeline.seq + 1 };
      }
      this.state.emptySince ??= this.now();
      await this.scheduleExpiry();
    }
  }

  /** The API: POST creates the party, GET tells whether it can be joined. Both with the shared secret. */
  async onRequest(req: Party.Request): Promise<Response> {
    const refusal = apiRefusal(req, this.room.env);
    if (refusal) return refusal;
    if (req.method === 'GET') return json(this.info(), 200);
    const body = await readJsonBody(req, 256 * 1024, watchCreateSchema);
    if ('refusal' in body) return body.refusal;
    if (this.state || this.ended) return json({ error: { code: 'conflict', message: 'party exists' } }, 409);
    const c = body.data;
    if (!c.servers.some((s) => s.name === c.server && s.episodes.includes(c.episode)))
      return json({ error: { code: 'invalid_input', message: 'episode: not on that server' } }, 400);
    const now = this.now();
    this.state = {
      v: 1,
      id: this.room.id,
      film: c.film,
      servers: c.servers,
      createdAt: now,
      hostSub: c.host.sub,
      creatorSub: c.host.sub,
      hostLeftAt: null,
      mode: 'host',
      controllerSub: null,
      timeline: { episode: c.episode, server: c.server, playing: false, position: 0, at: now, rate: 1, seq: 1 },
      waiting: null,
      people: {},
      removed: [],
      chatSeq: 0,
      emptySince: now,
      dropped: 0,
    };
    await this.persist();
    await this.scheduleExpiry();
    return json({ ok: true }, 201);
  }

  info(): WatchInfo {
    const present = [...new Set([...this.present.values()].map((p) => p.sub))];
    if (this.state)
      return {
        status: 'open',
        members: present.length,
        present,
        film: this.state.film,
        episode: this.state.timeline.episode,
        server: this.state.timeline.server,
      };
    if (this.ended) return { status: 'ended', members: 0, present: [], ...this.ended };
    return { status: 'missing', members: 0, present: [] };
  }

  async onConnect(conn: Party.Connection, ctx: Party.ConnectionContext): Promise<void> {
    const claims = await verifyWatchToken(this.room.env.PARTY_SECRET, tokenOf(ctx.request.url), this.room.id, this.now());
    if (!claims) return closeQuietly(conn, WATCH_CLOSE.badToken, WATCH_TEXTS.badToken);
    const state = this.state;
    if (!state)
      return closeQuietly(
        conn,
        this.ended ? WATCH_CLOSE.ended : WATCH_CLOSE.notFound,
        this.ended ? WATCH_TEXTS.ended : WATCH_TEXTS.notFound,
      );
    if (state.removed.includes(claims.sub)) return closeQuietly(conn, WATCH_CLOSE.removed, WATCH_TEXTS.removed);
    const previous = [...this.present.values()].find((p) => p.sub === claims.sub);
    if (!previous && this.memberCount() >= WATCH_MAX_MEMBERS) return closeQuietly(conn, WATCH_CLOSE.full, WATCH_TEXTS.full);
    const now = this.now();
    if (previous) {
      // The same person opened the party again (another tab, a reload before the old socket closed).
      this.present.delete(previous.conn.id);
      closeQuietly(previous.conn, WATCH_CLOSE.replaced, WATCH_TEXTS.replaced);
    }
    this.admit(claims, state);
    this.present.set(conn.id, {
      conn,
      sub: claims.sub,
      joinedAt: previous?.joinedAt ?? now,
      status: 'loading',
      lastFrameAt: now,
      away: false,
      // A late joiner (or one reconnecting) never makes the others wait: it catches up alone until it has loaded.
      exemptUntil: Number.POSITIVE_INFINITY,
      rtt: 0,
      frames: 0,
      windowStart: now,
      buckets: {
        command: { tokens: BUCKETS.command.size, at: now },
        chat: { tokens: BUCKETS.chat.size, at: now },
        ping: { tokens: BUCKETS.ping.size, at: now },
        report: { tokens: BUCKETS.report.size, at: now },
      },
    });
    if (claims.sub === state.hostSub && this.hostTimer) {
      clearTimeout(this.hostTimer);
      this.hostTimer = null;
    }
    const reclaimed = this.reclaimHost(claims.sub, now);
    if (claims.sub === state.hostSub && claims.sub === this.creatorOf(state)) state.hostLeftAt = null;
    state.emptySince = null;
    this.startAwayChecks();
    await this.persist();
    sendEvent(conn, { type: 'welcome', you: state.people[claims.sub]!.pid, now, snapshot: this.snapshot(), chat: this.chat });
    const name = this.nameOf(claims.sub);
    this.broadcastSnapshot(
      reclaimed
        ? { by: this.byOf(claims.sub), action: 'host', text: `${name} đã quay lại và là chủ phòng` }
        : previous
          ? undefined
          : { by: this.byOf(claims.sub), action: 'joined', text: `${name} đã vào phòng` },
      [conn.id],
    );
  }

  private admit(claims: WatchTokenClaims, state: PartyState): void {
    const known = state.people[claims.sub];
    const name = cleanName(claims.name).slice(0, 64) || 'Khách';
    if (known) {
      known.name = name;
      known.signedIn = claims.signedIn;
      return;
    }
    const taken = new Set(Object.values(state.people).map((p) => p.pid));
    let pid = randomId(6);
    while (taken.has(pid)) pid = randomId(6);
    state.people[claims.sub] = { pid, name, signedIn: claims.signedIn };
  }

  async onClose(conn: Party.Connection): Promise<void> {
    closeQuietly(conn);
    await this.leave(conn);
  }

  async onError(conn: Party.Connection): Promise<void> {
    closeQuietly(conn, 1011, 'Socket error');
    await this.leave(conn);
  }

  private async leave(conn: Party.Connection): Promise<void> {
    const p = this.present.get(conn.id);
    if (!p) return;
    this.present.delete(conn.id);
    const state = this.state;
    if (!state) return;
    const now = this.now();
    if (state.waiting) {
      state.waiting.for = state.waiting.for.filter((s) => s !== p.sub);
      if (state.waiting.for.length === 0) this.finishWait(now);
    }
    if (p.sub === state.hostSub && p.sub === this.creatorOf(state)) state.hostLeftAt ??= now;
    if (this.present.size === 0) {
      this.stopAwayChecks();
      state.emptySince = now;
      await this.persist();
      await this.scheduleExpiry();
      return;
    }
    if (p.sub === state.hostSub) {
      if (this.hostTimer) clearTimeout(this.hostTimer);
      this.hostTimer = setTimeout(() => void this.passHost(), HOST_GRACE_MS);
    }
    await this.persist();
    this.broadcastSnapshot({ by: this.byOf(p.sub), action: 'left', text: `${this.nameOf(p.sub)} đã rời phòng` });
  }

  /**
   * The host did not come back (socket closed past the grace, or away past WATCH_HOST_RETURN_MS): the member present
   * longest (and not away) becomes the host. The creator still gets the role back on return within
   * WATCH_HOST_RETURN_MS of leaving (reclaimHost).
   */
  async passHost(): Promise<void> {
    this.hostTimer = null;
    const state = this.state;
    if (!state || this.hostHere()) return;
    const next = [...this.present.values()].filter((p) => !p.away && p.sub !== state.hostSub).sort((a, b) => a.joinedAt - b.joinedAt)[0];
    if (!next) return;
    state.hostSub = next.sub;
    if (state.controllerSub === next.sub) state.controllerSub = null;
    await this.persist();
    this.broadcastSnapshot({ by: this.byOf(next.sub), action: 'host', text: `${this.nameOf(next.sub)} giờ là chủ phòng` });
  }

  private creatorOf(state: PartyState): string {
    return state.creatorSub ?? state.hostSub;
  }

  /** The host has a connection in the room that is not away. */
  private hostHere(): boolean {
    const host = this.state?.hostSub;
    return [...this.present.values()].some((p) => p.sub === host && !p.away);
  }

  /**
   * While the host is gone or away, the member present longest (and not away) may control in their stead: nobody
   * waits for a phone that fell asleep. Null while the host is here.
   */
  standIn(): string | null {
    const state = this.state;
    if (!state || this.hostHere()) return null;
    const next = [...this.present.values()].filter((p) => !p.away && p.sub !== state.hostSub).sort((a, b) => a.joinedAt - b.joinedAt)[0];
    return next?.sub ?? null;
  }

  /** The creator is back within WATCH_HOST_RETURN_MS of losing the host's place: the role is theirs again. */
  private reclaimHost(sub: string, now: number): boolean {
    const state = this.state!;
    if (sub !== this.creatorOf(state) || state.hostSub === sub) return false;
    if (state.hostLeftAt == null || now - state.hostLeftAt > WATCH_HOST_RETURN_MS) return false;
    state.hostSub = sub;
    state.hostLeftAt = null;
    if (state.controllerSub === sub) state.controllerSub = null;
    return true;
  }

  private startAwayChecks(): void {
    this.awayTimer ??= setInterval(() => void this.checkAway(), AWAY_CHECK_MS);
  }

  private stopAwayChecks(): void {
    if (this.awayTimer) clearInterval(this.awayTimer);
    this.awayTimer = null;
  }

  /**
   * Marks members silent for WATCH_AWAY_MS as away ("Vắng mặt"): a wait for them ends, the host's stand-in may
   * control; a host away past WATCH_HOST_RETURN_MS loses the role as a host who left does.
   */
  async checkAway(): Promise<void> {
    const state = this.state;
    if (!state) return;
    const now = this.now();
    const gone: Present[] = [];
    for (const p of this.present.values()) {
      if (p.away || now - p.lastFrameAt < WATCH_AWAY_MS) continue;
      p.away = true;
      gone.push(p);
    }
    const hostAway = [...this.present.values()].some((p) => p.sub === state.hostSub) && !this.hostHere();
    if (gone.length > 0) {
      if (state.waiting) {
        const awaySubs = new Set(gone.map((p) => p.sub));
        state.waiting.for = state.waiting.for.filter((s) => !awaySubs.has(s));
        if (state.waiting.for.length === 0) this.finishWait(now);
      }
      if (hostAway && state.hostSub === this.creatorOf(state)) state.hostLeftAt ??= now;
      await this.persist();
      for (const p of gone) this.broadcastSnapshot(this.awayNotice(p));
      return;
    }
    const host = [...this.present.values()].find((p) => p.sub === state.hostSub);
    if (hostAway && host && now - host.lastFrameAt >= WATCH_AWAY_MS + WATCH_HOST_RETURN_MS) await this.passHost();
  }

  private awayNotice(p: Present): WatchNotice {
    const name = this.nameOf(p.sub);
    const standIn = p.sub === this.state!.hostSub ? this.standIn() : null;
    return {
      by: this.byOf(p.sub),
      action: 'away',
      text: standIn ? `${name} đang vắng mặt, ${this.nameOf(standIn)} tạm điều khiển` : `${name} đang vắng mặt`,
    };
  }

  /** A frame from a member marked away: they are back (the creator as host again within the return window). */
  private async returned(p: Present, now: number): Promise<void> {
    const state = this.state!;
    p.away = false;
    const reclaimed = this.reclaimHost(p.sub, now);
    if (p.sub === state.hostSub && p.sub === this.creatorOf(state)) state.hostLeftAt = null;
    await this.persist();
    const name = this.nameOf(p.sub);
    this.broadcastSnapshot({
      by: this.byOf(p.sub),
      action: reclaimed ? 'host' : 'back',
      text: reclaimed ? `${name} đã quay lại và là chủ phòng` : `${name} đã quay lại`,
    });
  }

  /** The one alarm: the party ends after WATCH_EMPTY_TTL_MS without anyone in it. */
  async onAlarm(): Promise<void> {
    const state = this.state;
    if (!state || this.present.size > 0 || state.emptySince === null) return;
    if (this.now() - state.emptySince < WATCH_EMPTY_TTL_MS - 1000) {
      await this.scheduleExpiry();
      return;
    }
    const ended: Ended = { film: state.film, episode: state.timeline.episode, server: state.timeline.server };
    await this.room.storage.deleteAll();
    // A tombstone: the link then says the party is over and offers the episode alone.
    await this.room.storage.put(ENDED_KEY, ended);
    this.state = null;
    this.ended = ended;
    this.chat = [];
  }

  private async scheduleExpiry(): Promise<void> {
    const state = this.state;
    if (!state || state.emptySince === null) return;
    await this.room.storage.setAlarm(state.emptySince + WATCH_EMPTY_TTL_MS);
  }

  // ---- messages ----------------------------------------------------------------------------------------

  async onMessage(message: string | ArrayBuffer | ArrayBufferView, sender: Party.Connection): Promise<void> {
    const p = this.present.get(sender.id);
    const state = this.state;
    if (!p || !state) return;
    const now = this.now();
    p.lastFrameAt = now;
    if (p.away) await this.returned(p, now);
    if (now - p.windowStart >= FRAME_WINDOW_MS) {
      p.windowStart = now;
      p.frames = 0;
    }
    if (++p.frames > FRAMES_PER_WINDOW) {
      this.present.delete(sender.id);
      closeQuietly(sender, WATCH_CLOSE.flood, 'Too many messages');
      await this.leave(sender);
      return;
    }
    const parsed = this.parse(message);
    if (!parsed) {
      state.dropped++;
      this.refuse(p, 'invalid_message', WATCH_TEXTS.invalid);
      return;
    }
    await this.checkWaitExpired(now);
    switch (parsed.type) {
      case 'ping':
        if (this.take(p, 'ping', now)) sendEvent(sender, { type: 'pong', id: parsed.id, t: parsed.t, s: this.now() });
        return;
      case 'ready':
      case 'stalled':
        if (!this.take(p, 'report', now)) return;
        await this.report(p, parsed, now);
        return;
      case 'chat':
        if (!this.take(p, 'chat', now)) return this.refuse(p, 'rate_limited', WATCH_TEXTS.chatTooFast);
        await this.postChat(p, parsed.text, now);
        return;
      default:
        if (!this.take(p, 'command', now)) return this.refuse(p, 'rate_limited', WATCH_TEXTS.tooFast, true);
        await this.command(p, parsed, now);
    }
  }

  private parse(message: string | ArrayBuffer | ArrayBufferView): WatchClientMessage | null {
    if (typeof message !== 'string' || message.length > WATCH_MAX_FRAME) return null;
    let data: unknown;
    try {
      data = JSON.parse(message);
    } catch {
      return null;
    }
    const parsed = watchClientSchema.safeParse(data);
    return parsed.success ? parsed.data : null;
  }

  /** A token bucket per connection and kind of message; false when it is empty. */
  private take(p: Present, name: BucketName, now: number): boolean {
    const spec = BUCKETS[name];
    const b = p.buckets[name];
    b.tokens = Math.min(spec.size, b.tokens + ((now - b.at) / 1000) * spec.perSecond);
    b.at = now;
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
  }

  /** Tells the sender why nothing happened; with `resync`, also the current snapshot so its player snaps back. */
  private refuse(p: Present, code: string, message: string, resync = false): void {
    sendEvent(p.conn, { type: 'refused', code, message });
    if (resync) sendEvent(p.conn, { type: 'snapshot', snapshot: this.snapshot() });
  }

  canControl(sub: string, standIn: string | null = this.standIn()): boolean {
    const s = this.state;
    return !!s && (s.mode === 'everyone' || s.hostSub === sub || s.controllerSub === sub || standIn === sub);
  }

  private async command(
    p: Present,
    m: Exclude<WatchClientMessage, { type: 'ping' | 'ready' | 'stalled' | 'chat' }>,
    now: number,
  ): Promise<void> {
    const state = this.state!;
    const isHost = p.sub === state.hostSub;
    if (m.type === 'mode' || m.type === 'grant' || m.type === 'remove') {
      if (!isHost) return this.refuse(p, 'host_only', WATCH_TEXTS.hostOnly, true);
      return this.hostCommand(p, m);
    }
    if (!this.canControl(p.sub)) return this.refuse(p, 'not_allowed', WATCH_TEXTS.notAllowed, true);
    if (m.seq < state.timeline.seq) return this.refuse(p, 'stale', WATCH_TEXTS.stale, true);
    const t = state.timeline;
    const name = this.nameOf(p.sub);
    const by = this.byOf(p.sub);
    let notice: WatchNotice;
    switch (m.type) {
      case 'play': {
        if (t.playing && !state.waiting) return this.refuse(p, 'stale', WATCH_TEXTS.stale, true);
        // Play while the party waits for someone: go on without them (they catch up alone).
        if (state.waiting) this.exemptWaited(now);
        state.waiting = null;
        this.clearWaitTimer();
        state.timeline = { ...t, playing: true, at: now + this.lead(), seq: t.seq + 1 };
        notice = { by, action: 'play', text: `${name} đã phát` };
        break;
      }
      case 'pause': {
        state.waiting = null;
        this.clearWaitTimer();
        state.timeline = { ...t, playing: false, position: timelinePosition(t, now), at: now, seq: t.seq + 1 };
        notice = { by, action: 'pause', text: `${name} đã tạm dừng ở ${clockText(state.timeline.position)}` };
        break;
      }
      case 'seek': {
        const resume = t.playing || !!state.waiting?.resume;
        state.timeline = { ...t, playing: false, position: m.position, at: now, seq: t.seq + 1 };
        this.startWait(resume ? this.awaitable(now) : [], resume, now);
        notice = { by, action: 'seek', text: `${name} đã tua đến ${clockText(m.position)}` };
        break;
      }
      case 'rate': {
        const started = !t.playing || now >= t.at;
        state.timeline = started
          ? { ...t, position: timelinePosition(t, now), at: now, rate: m.rate, seq: t.seq + 1 }
          : { ...t, rate: m.rate, seq: t.seq + 1 };
        notice = { by, action: 'rate', text: `${name} đã đổi tốc độ thành ${rateText(m.rate)}` };
        break;
      }
      case 'episode': {
        const server = state.servers.find((s) => s.name === m.server);
        if (!server?.episodes.includes(m.episode)) return this.refuse(p, 'invalid_message', WATCH_TEXTS.invalid, true);
        const resume = t.playing || !!state.waiting?.resume;
        const sameEpisode = m.episode === t.episode;
        // A server change keeps the position (same episode, same timeline); an episode change starts at 0.
        const position = sameEpisode ? timelinePosition(t, now) : 0;
        state.timeline = { ...t, episode: m.episode, server: m.server, playing: false, position, at: now, seq: t.seq + 1 };
        // Everyone loads the new stream: everyone is waited for (at most WATCH_STALL_WAIT_MS).
        for (const other of this.present.values()) {
          other.status = 'loading';
          other.exemptUntil = 0;
        }
        this.startWait(resume ? this.awaitable(now) : [], resume, now);
        const serverIndex = state.servers.findIndex((s) => s.name === m.server) + 1;
        notice = sameEpisode
          ? { by, action: 'episode', text: `${name} đã chuyển sang Server ${serverIndex}` }
          : { by, action: 'episode', text: `${name} đã chuyển sang Tập ${m.episode}` };
        break;
      }
    }
    // After a seek everyone loads the new position again ("who is loading" until each reports ready).
    if (m.type === 'seek') for (const other of this.present.values()) if (other.status === 'ready') other.status = 'loading';
    await this.persist();
    this.broadcastSnapshot(notice);
  }

  private async hostCommand(p: Present, m: Extract<WatchClientMessage, { type: 'mode' | 'grant' | 'remove' }>): Promise<void> {
    const state = this.state!;
    const host = this.nameOf(p.sub);
    const by = this.byOf(p.sub);
    let notice: WatchNotice;
    if (m.type === 'mode') {
      state.mode = m.mode;
      notice = { by, action: 'control', text: m.mode === 'everyone' ? WATCH_TEXTS.everyone : `Chỉ ${host} điều khiển` };
    } else if (m.type === 'grant') {
      const target = m.to === null ? null : this.presentByPid(m.to);
      if (m.to !== null && !target) return this.refuse(p, 'not_found', 'Người này không còn trong phòng.', true);
      state.controllerSub = target && target.sub !== state.hostSub ? target.sub : null;
      notice = state.controllerSub
        ? { by, action: 'control', text: `${host} đã giao quyền điều khiển cho ${this.nameOf(state.controllerSub)}` }
        : { by, action: 'control', text: `${host} đã lấy lại quyền điều khiển` };
    } else {
      const target = this.presentByPid(m.member);
      if (!target) return this.refuse(p, 'not_found', 'Người này không còn trong phòng.', true);
      if (target.sub === state.hostSub) return this.refuse(p, 'invalid_message', 'Chủ phòng không thể tự mời mình ra.', true);
      state.removed.push(target.sub);
      if (state.controllerSub === target.sub) state.controllerSub = null;
      const name = this.nameOf(target.sub);
      this.present.delete(target.conn.id);
      closeQuietly(target.conn, WATCH_CLOSE.removed, WATCH_TEXTS.removed);
      if (state.waiting) {
        state.waiting.for = state.waiting.for.filter((s) => s !== target.sub);
        if (state.waiting.for.length === 0) this.finishWait(this.now());
      }
      notice = { by, action: 'removed', text: `${host} đã mời ${name} ra khỏi phòng` };
    }
    await this.persist();
    this.broadcastSnapshot(notice);
  }

  private async report(p: Present, m: Extract<WatchClientMessage, { type: 'ready' | 'stalled' }>, now: number): Promise<void> {
    const state = this.state!;
    if (m.seq !== state.timeline.seq) return;
    if (m.type === 'ready') {
      if (m.rtt !== undefined) p.rtt = m.rtt;
      const changed = p.status !== 'ready';
      p.status = 'ready';
      if (p.exemptUntil === Number.POSITIVE_INFINITY) p.exemptUntil = 0;
      if (state.waiting?.for.includes(p.sub)) {
        state.waiting.for = state.waiting.for.filter((s) => s !== p.sub);
        if (state.waiting.for.length === 0) {
          this.finishWait(now);
          await this.persist();
          this.broadcastSnapshot();
          return;
        }
        await this.persist();
      }
      if (changed) this.broadcastSnapshot();
      return;
    }
    // Stalled: buffering while the party plays.
    p.status = 'stalled';
    const t = state.timeline;
    const waitable = p.exemptUntil <= now;
    if (t.playing && now >= t.at && waitable) {
      state.timeline = { ...t, playing: false, position: timelinePosition(t, now), at: now, seq: t.seq + 1 };
      this.startWait([p.sub], true, now);
      await this.persist();
      this.broadcastSnapshot({ by: this.byOf(p.sub), action: 'waiting', text: WATCH_TEXTS.waitingFor([this.nameOf(p.sub)]) });
      return;
    }
    this.broadcastSnapshot();
  }

  private async postChat(p: Present, raw: string, now: number): Promise<void> {
    const state = this.state!;
    const text = raw.replace(/[\u0000-\u0009\u000b-\u001f\u007f]/g, '').trim();
    if (countChars(text) < 1 || countChars(text) > WATCH_CHAT_MAX)
      return this.refuse(p, 'invalid_message', `Tin nhắn cần từ 1 đến ${WATCH_CHAT_MAX} ký tự.`);
    const message: WatchChatMessage = { id: ++state.chatSeq, from: state.people[p.sub]!.pid, name: this.nameOf(p.sub), text, at: now };
    this.chat.push(message);
    const gone = this.chat.length > WATCH_CHAT_KEEP ? this.chat.splice(0, this.chat.length - WATCH_CHAT_KEEP) : [];
    await this.room.storage.put(chatKey(message.id), message);
    for (const old of gone) await this.room.storage.delete(chatKey(old.id));
    await this.persist();
    this.room.broadcast(JSON.stringify({ type: 'chat', message } satisfies WatchEvent));
  }

  // ---- waiting for members -----------------------------------------------------------------------------

  /** Subjects of present members the party would wait for. */
  private awaitable(now: number): string[] {
    return [...new Set([...this.present.values()].filter((p) => p.exemptUntil <= now && !p.away).map((p) => p.sub))];
  }

  private startWait(subs: string[], resume: boolean, now: number): void {
    const state = this.state!;
    this.clearWaitTimer();
    if (subs.length === 0) {
      state.waiting = null;
      if (resume) state.timeline = { ...state.timeline, playing: true, at: now + this.lead(), seq: state.timeline.seq + 1 };
      return;
    }
    state.waiting = { for: subs, until: now + WATCH_STALL_WAIT_MS, resume };
    this.waitTimer = setTimeout(() => void this.waitExpired(), WATCH_STALL_WAIT_MS);
  }

  private clearWaitTimer(): void {
    if (this.waitTimer) clearTimeout(this.waitTimer);
    this.waitTimer = null;
  }

  /** The stall wait ran out: go on without those still loading; they catch up alone. */
  async waitExpired(): Promise<void> {
    this.waitTimer = null;
    const state = this.state;
    if (!state?.waiting) return;
    const now = this.now();
    this.exemptWaited(now);
    this.finishWait(now);
    await this.persist();
    this.broadcastSnapshot({ by: null, action: 'resume', text: 'Tiếp tục xem, người chậm sẽ tự theo kịp' });
  }

  /** A message arrived after the wait's end (timers may run late): end it now. */
  private async checkWaitExpired(now: number): Promise<void> {
    const w = this.state?.waiting;
    if (w && now >= w.until) await this.waitExpired();
  }

  private exemptWaited(now: number): void {
    const waited = this.state?.waiting?.for ?? [];
    for (const p of this.present.values()) if (waited.includes(p.sub)) p.exemptUntil = now + STALL_COOLDOWN_MS;
  }

  private finishWait(now: number): void {
    const state = this.state!;
    const w = state.waiting;
    state.waiting = null;
    this.clearWaitTimer();
    if (w?.resume) state.timeline = { ...state.timeline, playing: true, at: now + this.lead(), seq: state.timeline.seq + 1 };
  }

  /** How far ahead a play starts: twice the slowest member's round trip, within [300 ms, 1.5 s]. */
  lead(): number {
    let max = 0;
    for (const p of this.present.values()) max = Math.max(max, p.rtt);
    return Math.round(Math.min(MAX_LEAD_MS, Math.max(MIN_LEAD_MS, 2 * max + 150)));
  }

  // ---- views -------------------------------------------------------------------------------------------

  memberCount(): number {
    return new Set([...this.present.values()].map((p) => p.sub)).size;
  }

  private presentByPid(pid: string): Present | undefined {
    const state = this.state!;
    return [...this.present.values()].find((p) => state.people[p.sub]?.pid === pid);
  }

  private nameOf(sub: string): string {
    return this.state?.people[sub]?.name ?? 'Khách';
  }

  private byOf(sub: string): WatchNotice['by'] {
    const person = this.state?.people[sub];
    return person ? { id: person.pid, name: person.name } : null;
  }

  snapshot(): WatchSnapshot {
    const state = this.state!;
    const pidOf = (sub: string) => state.people[sub]?.pid ?? '';
    const standIn = this.standIn();
    const members = [...this.present.values()]
      .sort((a, b) => a.joinedAt - b.joinedAt)
      .map((p) => {
        const person = state.people[p.sub]!;
        return {
          id: person.pid,
          name: person.name,
          signedIn: person.signedIn,
          host: p.sub === state.hostSub,
          control: this.canControl(p.sub, standIn),
          status: p.status,
          away: p.away,
          joinedAt: p.joinedAt,
        };
      });
    return {
      film: state.film,
      timeline: state.timeline,
      waiting: state.waiting ? { for: state.waiting.for.map(pidOf), until: state.waiting.until } : null,
      members,
      control: { mode: state.mode, controller: state.controllerSub ? pidOf(state.controllerSub) : null },
    };
  }

  private broadcastSnapshot(notice?: WatchNotice, exclude: string[] = []): void {
    if (!this.state) return;
    const event: WatchEvent = notice
      ? { type: 'snapshot', snapshot: this.snapshot(), notice }
      : { type: 'snapshot', snapshot: this.snapshot() };
    this.room.broadcast(JSON.stringify(event), exclude);
  }

  private async persist(): Promise<void> {
    if (this.state) await this.room.storage.put(STATE_KEY, this.state);
  }
}

WatchRoom satisfies Party.Worker;
