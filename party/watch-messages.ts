// Messages of the watch parties ("Xem chung", issue 28), shared by the API (create/inspect a room, sign
// a join token), the room (party/watch.ts) and the web client (features/watch-party). One module, validated
// on both ends with safeParse. zod/mini keeps what the party page downloads small.
import * as z from 'zod/mini';
import { PARTY_ID_PATTERN, WATCH_NAME_MAX, WATCH_NAME_MIN } from '../worker/schemas/values';

export { PARTY_ID_PATTERN, WATCH_NAME_MAX, WATCH_NAME_MIN };

/** The PartyKit party serving one room per party id. */
export const WATCH_PARTY = 'watch';
/** At most this many people in one party (the platform allows 100 sockets per room without hibernation). */
export const WATCH_MAX_MEMBERS = 20;
/** A party nobody has been in for this long is gone (its link then says so). */
export const WATCH_EMPTY_TTL_MS = 10 * 60_000;
/** A member the room has had no frame from for this long (clients ping every 3 s) is away: nobody waits for them. */
export const WATCH_AWAY_MS = 15_000;
/** The party's creator who comes back within this long after losing the host role (gone or away) gets it back. */
export const WATCH_HOST_RETURN_MS = 5 * 60_000;
/** The party waits at most this long for a member who stalls, then goes on without them. */
export const WATCH_STALL_WAIT_MS = 10_000;
/** Chat kept for late joiners. */
export const WATCH_CHAT_KEEP = 100;
export const WATCH_CHAT_MAX = 500;
/** The playback rates the player offers (media-chrome's speed menu). */
export const WATCH_RATE_MIN = 0.25;
export const WATCH_RATE_MAX = 4;
/** Join tokens are short-lived: the client asks the API for a fresh one on every (re)connect. */
export const WATCH_TOKEN_TTL_SECONDS = 120;
/** Not the access tokens' audience: a party token is never an access token, nor the reverse. */
export const WATCH_TOKEN_AUDIENCE = 'phimviet-watch';
/** The largest frame a browser may send (a 500-character chat message fits with room to spare). */
export const WATCH_MAX_FRAME = 4096;

export const isPartyId = (id: string) => PARTY_ID_PATTERN.test(id);

/** Close codes the room uses with a reason in Vietnamese (4000–4999 are the application's own). */
export const WATCH_CLOSE = {
  notFound: 4404,
  ended: 4410,
  full: 4409,
  removed: 4403,
  replaced: 4001,
  badToken: 4401,
  flood: 1008,
} as const;

/** Every text people see from the party (the web shows these as they are). */
export const WATCH_TEXTS = {
  button: 'Xem chung',
  everyone: 'Mọi người cùng điều khiển',
  tapToJoin: 'Nhấn để xem cùng',
  notFound: 'Không tìm thấy phòng xem chung này. Hãy kiểm tra lại đường dẫn.',
  ended: 'Phòng xem chung này đã kết thúc.',
  full: `Phòng xem chung đã đủ ${WATCH_MAX_MEMBERS} người.`,
  removed: 'Bạn đã bị chủ phòng mời ra khỏi phòng xem chung.',
  replaced: 'Bạn đã mở phòng xem chung này ở một cửa sổ khác.',
  badToken: 'Phiên xem chung không hợp lệ hoặc đã hết hạn. Hãy tải lại trang.',
  notAllowed: 'Bạn không có quyền điều khiển. Chỉ người điều khiển mới tua, phát hoặc dừng được.',
  hostOnly: 'Chỉ chủ phòng mới làm được việc này.',
  tooFast: 'Bạn thao tác quá nhanh, vui lòng chậm lại.',
  chatTooFast: 'Bạn gửi tin nhắn quá nhanh, vui lòng chờ một chút.',
  invalid: 'Tin nhắn không hợp lệ đã bị bỏ qua.',
  stale: 'Thao tác đến sau một thao tác khác và đã bị bỏ qua.',
  away: 'Vắng mặt',
  nameRequired: `Tên hiển thị cần từ ${WATCH_NAME_MIN} đến ${WATCH_NAME_MAX} ký tự.`,
  waitingFor: (names: string[]) => `Đang chờ ${names.join(', ')}…`,
} as const;

/** "12:30" or "1:02:03" for a position in seconds (the notices: "Lan đã tua đến 12:30"). */
export function clockText(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

const finite = z.number().check(z.refine(Number.isFinite, 'not a finite number'));
const position = finite.check(z.gte(0), z.lte(48 * 3600));
const rate = finite.check(z.gte(WATCH_RATE_MIN), z.lte(WATCH_RATE_MAX));
const seq = z.number().check(z.int(), z.gte(0));
const episode = z.number().check(z.int(), z.gte(0), z.lte(100_000));
const serverName = z.string().check(z.minLength(1), z.maxLength(100));
/** A member's id inside one party (made by the room; never a user id). */
const memberId = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,32}$/));

/**
 * The party's timeline, owned by the room. Position at room time T is
 * `playing ? position + rate × (T − at) / 1000 : position` (seconds; `at` in the room's ms clock).
 */
export const timelineSchema = z.object({
  episode,
  server: serverName,
  playing: z.boolean(),
  position,
  at: finite,
  rate,
  seq,
});
export type Timeline = z.infer<typeof timelineSchema>;

/** Where the timeline is at room time `roomNow` (ms); a play scheduled for later holds at its position until then. */
export function timelinePosition(t: Pick<Timeline, 'playing' | 'position' | 'at' | 'rate'>, roomNow: number): number {
  return t.playing && roomNow > t.at ? t.position + (t.rate * (roomNow - t.at)) / 1000 : t.position;
}

export const memberSchema = z.object({
  id: memberId,
  name: z.string(),
  /** Signed in (a member) rather than a visitor with a chosen name. */
  signedIn: z.boolean(),
  host: z.boolean(),
  /** May play/pause/seek/change episode right now. */
  control: z.boolean(),
  /** loading: has not loaded the current timeline yet; ready; stalled: buffering while the party plays. */
  status: z.enum(['loading', 'ready', 'stalled']),
  /** No frame from this member for WATCH_AWAY_MS (a phone asleep with its socket open): "Vắng mặt", never waited for. */
  away: z.optional(z.boolean()),
  joinedAt: finite,
});
export type WatchMember = z.infer<typeof memberSchema>;

export const chatMessageSchema = z.object({
  id: z.number().check(z.int(), z.positive()),
  from: memberId,
  name: z.string(),
  text: z.string(),
  at: finite,
});
export type WatchChatMessage = z.infer<typeof chatMessageSchema>;

export const filmRefSchema = z.object({
  slug: z.string().check(z.minLength(1), z.maxLength(200)),
  title: z.string().check(z.maxLength(500)),
});

/** What the room tells everyone about control. */
export const controlSchema = z.object({
  mode: z.enum(['host', 'everyone']),
  /** The member the host handed control to (besides the host), if any. */
  controller: z.nullable(memberId),
});
export type WatchControl = z.infer<typeof controlSchema>;

/** The party as one snapshot (sent on connect and after every change of membership or timeline). */
export const snapshotSchema = z.object({
  film: filmRefSchema,
  timeline: timelineSchema,
  /** Members the party is paused for ("Đang chờ {tên}…"), and until when (room ms). */
  waiting: z.nullable(z.object({ for: z.array(memberId), until: finite })),
  members: z.array(memberSchema),
  control: controlSchema,
});
export type WatchSnapshot = z.infer<typeof snapshotSchema>;

/** A control action shown briefly to all ("Lan đã tua đến 12:30"). */
export const noticeSchema = z.object({
  by: z.nullable(z.object({ id: memberId, name: z.string() })),
  action: z.enum([
    'play',
    'pause',
    'seek',
    'rate',
    'episode',
    'waiting',
    'resume',
    'control',
    'host',
    'removed',
    'joined',
    'left',
    'away',
    'back',
  ]),
  text: z.string(),
});
export type WatchNotice = z.infer<typeof noticeSchema>;

/** Room → browser. */
export const watchEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('welcome'), you: memberId, now: finite, snapshot: snapshotSchema, chat: z.array(chatMessageSchema) }),
  z.object({ type: z.literal('snapshot'), snapshot: snapshotSchema, notice: z.optional(noticeSchema) }),
  z.object({ type: z.literal('pong'), id: z.number(), t: finite, s: finite }),
  z.object({ type: z.literal('chat'), message: chatMessageSchema }),
  z.object({ type: z.literal('refused'), code: z.string(), message: z.string() }),
]);
export type WatchEvent = z.infer<typeof watchEventSchema>;

/** Browser → room. Every field is checked here, and the sender's role in the room. */
export const watchClientSchema = z.discriminatedUnion('type', [
  /** Clock sample: `t` is the client's own monotonic clock, echoed back with the room's `s`. */
  z.object({ type: z.literal('ping'), id: z.number().check(z.int(), z.gte(0)), t: finite }),
  /** Control commands carry the timeline seq the sender saw: an older one is stale and ignored. */
  z.object({ type: z.literal('play'), seq }),
  z.object({ type: z.literal('pause'), seq }),
  z.object({ type: z.literal('seek'), seq, position }),
  z.object({ type: z.literal('rate'), seq, rate }),
  z.object({ type: z.literal('episode'), seq, episode, server: serverName }),
  /** Loading reports: ready = loaded the timeline `seq` at its position; stalled = buffering while playing. */
  z.object({ type: z.literal('ready'), seq, rtt: z.optional(finite.check(z.gte(0), z.lte(60_000))) }),
  z.object({ type: z.literal('stalled'), seq }),
  z.object({ type: z.literal('chat'), text: z.string().check(z.minLength(1), z.maxLength(WATCH_CHAT_MAX * 2)) }),
  /** Host only. */
  z.object({ type: z.literal('mode'), mode: z.enum(['host', 'everyone']) }),
  z.object({ type: z.literal('grant'), to: z.nullable(memberId) }),
  z.object({ type: z.literal('remove'), member: memberId }),
]);
export type WatchClientMessage = z.infer<typeof watchClientSchema>;

/** API → room over HTTP with the shared secret: create the party. */
export const watchCreateSchema = z.object({
  type: z.literal('create'),
  film: filmRefSchema,
  episode,
  server: serverName,
  /** The film's servers and their episode numbers: the room accepts an episode change only to one of these. */
  servers: z
    .array(z.object({ name: serverName, episodes: z.array(episode).check(z.maxLength(5000)) }))
    .check(z.minLength(1), z.maxLength(20)),
  host: z.object({ sub: z.string().check(z.minLength(1), z.maxLength(64)), name: z.string().check(z.maxLength(100)) }),
});
export type WatchCreate = z.infer<typeof watchCreateSchema>;

/** Room → API: whether a party can be joined (GET with the shared secret). */
export const watchInfoSchema = z.object({
  status: z.enum(['open', 'ended', 'missing']),
  members: z.number(),
  /** Subs present right now (a reconnect of someone present does not count against the limit). */
  present: z.array(z.string()),
  film: z.optional(filmRefSchema),
  episode: z.optional(z.number()),
  server: z.optional(z.string()),
});
export type WatchInfo = z.infer<typeof watchInfoSchema>;

/** The claims of a join token (signed by the API, checked by the room). */
export interface WatchTokenClaims {
  /** The person: `u:{user id}` for members, `g:{random}` for visitors. */
  sub: string;
  name: string;
  /** The party id the token is for. */
  party: string;
  signedIn: boolean;
}

/** A display name as the room and the API keep it: trimmed, inner whitespace runs collapsed, no control characters. */
export function cleanName(raw: string): string {
  return raw
    .replace(/[\u0000-\u001f\u007f-\u009f\u200b-\u200f\u2028-\u202e\u2066-\u2069]/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Parses a frame from the room; null for anything that is not a known event. */
export function parseWatchEvent(data: unknown): WatchEvent | null {
  if (typeof data !== 'string') return null;
  try {
    const parsed = watchEventSchema.safeParse(JSON.parse(data));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
