// Comment moderation (issue 33): reports and their threshold, what the filter holds and masks, mutes and bans
// and their expiry, the queue and its decisions, undo from the audit log, VIP2 uploaders within their own threads.
import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { comments, films, subscriptions, users } from '../../worker/db/schema';
import type { AuditResponse, DashboardStats } from '../../worker/schemas/admin';
import type { FilmDetailResponse } from '../../worker/schemas/catalogue';
import type { CommentDto, CommentsSinceResponse } from '../../worker/schemas/comments';
import type { CommentRoomAccess, ModerationQueueResponse } from '../../worker/schemas/moderation';
import { verifyCommentToken } from '../../party/comment-token';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, fakeClock, insertFilm, login, signedInUser } from '../helpers/auth';

const DAY = 24 * 60 * 60 * 1000;
const SECRET = 'test-party-secret-0123';

let t: TestApp;
let clock: ReturnType<typeof fakeClock>;
let pushes: { url: string; body: { type: string; [k: string]: unknown } }[];
let admin: { authorization: string };
type Member = Awaited<ReturnType<typeof signedInUser>>;

beforeEach(async () => {
  clock = fakeClock(Date.UTC(2026, 11, 1, 5, 0, 0));
  pushes = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    pushes.push({ url: String(input), body: JSON.parse(String(init?.body)) });
    return Response.json({ ok: true, delivered: 0 });
  }) as typeof globalThis.fetch;
  t = await createTestApp({ now: clock.now, fetch, config: { PARTYKIT_HOST: 'http://party.test:1999', PARTY_SECRET: SECRET } });
  admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
  await insertFilm(t.deps.db, 'mat-biec', 'Mắt Biếc');
  await insertFilm(t.deps.db, 'bo-gia', 'Bố Già');
});

/** A member whose account is `ageDays` old on the test clock, with a paid VIP1 when asked. */
async function member(options: { ageDays?: number; vip?: boolean; name?: string; permissions?: string } = {}): Promise<Member> {
  const m = await signedInUser(t, { name: options.name, permissions: options.permissions });
  await t.deps.db
    .update(users)
    .set({ createdAt: clock.now() - (options.ageDays ?? 0) * DAY })
    .where(eq(users.id, m.id));
  if (options.vip)
    await t.deps.db
      .insert(subscriptions)
      .values({ userId: m.id, plan: 'VIP1', startsAt: clock.now() - DAY, expiresAt: clock.now() + 30 * DAY });
  return m;
}

const auth = (m: Member) => bearer(m.session.token);
const post = (m: Member, text: string, extra: Record<string, unknown> = {}, slug = 'mat-biec') =>
  t.request('/api/product/comment', { json: { titlefilm: slug, contentcomment: text, ...extra }, headers: auth(m) });
async function posted(m: Member, text: string, extra: Record<string, unknown> = {}, slug = 'mat-biec'): Promise<CommentDto> {
  const res = await post(m, text, extra, slug);
  expect(res.status, await res.clone().text()).toBe(201);
  return (await res.json()) as CommentDto;
}
const detail = async (who: Member | null, slug = 'mat-biec') =>
  ((await (await t.request(`/api/product/${slug}`, { headers: who ? auth(who) : {} })).json()) as FilmDetailResponse).comments;
const report = (m: Member, id: number, json: unknown = { reason: 'spam' }) =>
  t.request(`/api/comments/${id}/report`, { json, headers: auth(m) });
const queue = async (headers = admin, query = '') =>
  (await (await t.request(`/api/admin/comments${query}`, { headers })).json()) as ModerationQueueResponse;
const audit = async (action: string) =>
  (await (await t.request(`/api/admin/audit?action=${action}`, { headers: admin })).json()) as AuditResponse;
const undo = (id: number) => t.request(`/api/admin/audit/${id}/undo`, { method: 'POST', headers: admin });
const setSettings = (json: Record<string, unknown>) => t.request('/api/admin/settings', { method: 'PUT', json, headers: admin });
const pushesOf = (type: string) => pushes.filter((p) => p.body.type === type);

describe('reports', () => {
  it('hides a comment once enough distinct members report it (threshold in settings), and only then', async () => {
    expect((await setSettings({ commentReportThreshold: 2 })).status).toBe(200);
    const author = await member({ ageDays: 30, vip: true });
    const [a, b] = [await member(), await member()];
    const c = await posted(author, 'Tập cuối ai cũng chết hết, buồn quá');
    await t.background();

    const first = await report(a, c.id, { reason: 'spoiler' });
    expect(first.status).toBe(201);
    expect(await first.json()).toEqual({ message: 'Đã gửi báo cáo. Cảm ơn bạn!', hidden: false });
    expect((await detail(null)).map((x) => x.id)).toContain(c.id);

    // One report per member per comment.
    const again = await report(a, c.id, { reason: 'spam' });
    expect(again.status).toBe(409);
    expect((await errorOf(again)).message).toBe('Bạn đã báo cáo bình luận này rồi.');

    const second = await report(b, c.id, { reason: 'other', note: 'Tiết lộ kết thúc' });
    expect(await second.json()).toMatchObject({ hidden: true });
    await t.background();
    // Gone for everyone else at once (the room drops it); its author sees it waiting for a decision.
    expect((await detail(null)).map((x) => x.id)).not.toContain(c.id);
    expect((await detail(a)).map((x) => x.id)).not.toContain(c.id);
    expect((await detail(author)).find((x) => x.id === c.id)).toMatchObject({ state: 'pending', comment: c.comment });
    expect(pushesOf('withdraw')).toEqual([
      {
        url: 'http://party.test:1999/parties/comments/mat-biec',
        body: { type: 'withdraw', id: c.id, state: 'hidden', authorId: author.id },
      },
    ]);
    const q = await queue();
    expect(q.summary).toEqual({ open: 1, oldestAt: clock.now() });
    expect(q.data[0]).toMatchObject({
      id: c.id,
      status: 'hidden',
      film: { slug: 'mat-biec', title: 'Mắt Biếc' },
      reports: { count: 2, byReason: { spoiler: 1, other: 1 }, notes: ['Tiết lộ kết thúc'] },
      author: { id: author.id, history: { comments: 1, removed: 0, reportsAgainst: 2 } },
    });
  });

  it('refuses unknown, own, held and malformed reports and report floods with a clear 4xx, changing nothing', async () => {
    const author = await member({ ageDays: 30, vip: true });
    const other = await member();
    const c = await posted(author, 'Diễn viên chính đẹp trai quá');
    const held = await posted(other, 'Vào xem thêm ở phimlau.com nhé');
    expect(held.state).toBe('pending');

    const cases: [Member, number, unknown, number, string][] = [
      [other, 999_999, { reason: 'spam' }, 404, 'not_found'],
      [author, c.id, { reason: 'spam' }, 403, 'self_report'],
      [author, held.id, { reason: 'spam' }, 404, 'not_found'],
      [other, c.id, { reason: 'lừa đảo' }, 400, 'invalid_input'],
      [other, c.id, { reason: 'other' }, 400, 'invalid_input'],
      [other, c.id, { reason: 'other', note: 'x'.repeat(501) }, 400, 'invalid_input'],
      [other, c.id, 'không phải JSON', 400, 'invalid_input'],
    ];
    for (const [who, id, json, status, code] of cases) {
      const res = await report(who, id, json);
      expect(res.status, JSON.stringify(json)).toBe(status);
      expect((await errorOf(res)).code).toBe(code);
    }
    const tooLong = await report(other, c.id, { reason: 'other', note: 'x'.repeat(501) });
    expect((await errorOf(tooLong)).message).toMatch(/^note: /);
    expect((await t.request(`/api/comments/${c.id}/report`, { json: { reason: 'spam' } })).status).toBe(401);
    const [row] = await t.deps.db.select().from(comments).where(eq(comments.id, c.id));
    expect(row).toMatchObject({ openReports: 0, queuedAt: null, status: 'visible' });

    // A flood from one account: ten reports in ten minutes, then 429.
    const targets: number[] = [];
    for (let i = 0; i < 12; i++) {
      targets.push((await posted(author, `Bình luận số ${i} về phim này rất hay`, {}, 'bo-gia')).id);
      clock.advance(10_000);
    }
    const flooder = await member();
    const statuses: number[] = [];
    for (const id of targets) statuses.push((await report(flooder, id)).status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });
});

describe('held back before anyone sees it', () => {
  it('holds links and phone numbers of a young account or one without a paid VIP; only its author sees it', async () => {
    const young = await member({ ageDays: 1, vip: true });
    const old = await member({ ageDays: 30 });
    const trusted = await member({ ageDays: 30, vip: true });
    const reader = await member();
    for (const [who, text, hold] of [
      [young, 'Xem full HD tại https://phim-lau.example/tap-1', 'link'],
      [old, 'Xem bản đẹp ở phimlau . com nha', 'link'],
      [old, 'Liên hệ zalo 0912 345 678 để nhận quà', 'phone'],
      [young, 'Gọi +84 912.345.678 nhé', 'phone'],
    ] as const) {
      const c = await posted(who, text);
      expect(c.state, text).toBe('pending');
      const [row] = await t.deps.db.select().from(comments).where(eq(comments.id, c.id));
      expect(row).toMatchObject({ status: 'held', holdReason: hold });
      expect((await detail(reader)).map((x) => x.id)).not.toContain(c.id);
      expect((await detail(who)).find((x) => x.id === c.id)?.state).toBe('pending');
    }
    const ok = await posted(trusted, 'Bản đẹp hơn ở https://phim.example/mat-biec, số 0912345678');
    expect(ok.state).toBeUndefined();
    await t.background();
    // Held comments go to no room.
    expect(pushesOf('comment').map((p) => (p.body.comment as CommentDto).id)).toEqual([ok.id]);

    // "Younger than N days" follows the setting.
    expect((await setSettings({ commentNewAccountDays: 0 })).status).toBe(200);
    expect((await posted(young, 'Xem ở https://a.example nhé')).state).toBeUndefined();
  });

  it('holds or masks what the word list names, through spacing, repeats, digits, missing marks and đ/d', async () => {
    const writer = await member({ ageDays: 30, vip: true });
    const add = async (phrase: string, action: 'hold' | 'mask') => {
      const res = await t.request('/api/admin/comment-words', { json: { phrase, action }, headers: admin });
      expect(res.status, await res.clone().text()).toBe(201);
      return ((await res.json()) as { data: { id: number } }).data.id;
    };
    const holdId = await add('đánh bạc online', 'hold');
    await add('đồ khốn', 'mask');
    for (const text of [
      'Vào đánh bạc online đi',
      'danh bac online',
      'đ á n h  b ạ c  o n l i n e',
      'dddanh baaac 0nl1ne',
      'đánh-bạc-online',
    ]) {
      expect((await posted(writer, text)).state, text).toBe('pending');
      clock.advance(10_000);
    }
    for (const [text, shown] of [
      ['Thằng đồ khốn này', 'Thằng ** **** này'],
      ['do khon', '** ****'],
      ['đ0 kh0000n!', '** *******!'],
    ] as const) {
      const c = await posted(writer, text);
      expect(c.state).toBeUndefined();
      expect(c.comment).toBe(shown);
      clock.advance(10_000);
    }
    // Ordinary words are left alone: the marks written say it is another word.
    expect((await posted(writer, 'Đỗ khôn ngoan thật, đánh bài lá')).comment).toBe('Đỗ khôn ngoan thật, đánh bài lá');

    // Removing the entry: the next post passes; the removal is audited and can be undone.
    const removed = await t.request(`/api/admin/comment-words/${holdId}`, { method: 'DELETE', headers: admin });
    expect(removed.status).toBe(200);
    clock.advance(10_000);
    expect((await posted(writer, 'đánh bạc online lần nữa')).state).toBeUndefined();
    const [entry] = (await audit('comment_word.remove')).data;
    expect((await undo(entry!.id)).status).toBe(200);
    clock.advance(10_000);
    expect((await posted(writer, 'đánh bạc online lần ba')).state).toBe('pending');

    // A word the list already matches the same way; a word of one letter; not an admin.
    expect(
      (await t.request('/api/admin/comment-words', { json: { phrase: 'DANH BAC ONLINE', action: 'mask' }, headers: admin })).status,
    ).toBe(409);
    expect((await t.request('/api/admin/comment-words', { json: { phrase: '!!a', action: 'mask' }, headers: admin })).status).toBe(400);
    expect((await t.request('/api/admin/comment-words', { json: { phrase: 'xyz', action: 'ban' }, headers: admin })).status).toBe(400);
    expect((await t.request('/api/admin/comment-words', { json: { phrase: 'xyz', action: 'mask' }, headers: auth(writer) })).status).toBe(
      403,
    );
  });

  it('starts with a list of common slurs (masked) and betting words (held), and leaves everyday comments alone', async () => {
    const writer = await member({ ageDays: 30, vip: true });
    expect((await posted(writer, 'Vào nhà cái uy tín nhận thưởng')).state).toBe('pending');
    clock.advance(10_000);
    expect((await posted(writer, 'n h a c a i w88 đây')).state).toBe('pending');
    clock.advance(10_000);
    expect((await posted(writer, 'Phim dở vãi lồn')).comment).toBe('Phim dở *** ***');
    clock.advance(10_000);
    for (const text of [
      'Các bạn ơi buổi tối xem phim này hay lắm',
      'Đi xem với mẹ, cảm động lòng người',
      'Long lanh quá',
      'hình ảnh sắc nét. Nét diễn tốt',
    ]) {
      const c = await posted(writer, text);
      expect(c).toMatchObject({ comment: text });
      expect(c.state).toBeUndefined();
      clock.advance(10_000);
    }
  });

  it('holds the same text posted again and again, by one account or several', async () => {
    const [a, b, c] = [
      await member({ ageDays: 30, vip: true }),
      await member({ ageDays: 30, vip: true }),
      await member({ ageDays: 30, vip: true }),
    ];
    const spam = 'Ai cần tài liệu ôn thi thì nhắn tin cho mình nhé';
    expect((await posted(a, spam)).state).toBeUndefined();
    clock.advance(10_000);
    // The same account again, however it is spaced or cased.
    expect((await posted(a, spam.toUpperCase().replace(/ /g, '  '), {}, 'bo-gia')).state).toBe('pending');
    // Several accounts: the third copy.
    expect((await posted(b, spam)).state).toBe('pending');
    const [row] = await t.deps.db.select().from(comments).where(eq(comments.userId, b.id));
    expect(row?.holdReason).toBe('duplicate');
    expect((await posted(c, 'Phim hay quá')).state).toBeUndefined();
    expect((await posted(a, 'Phim hay quá')).state).toBeUndefined();
  });
});

describe('the moderation queue', () => {
  it('approves a held comment (it reaches every page) and removes another with a reason its author sees', async () => {
    const author = await member({ ageDays: 1 });
    const reader = await member();
    const held = await posted(author, 'Link tập 5: phimlau.com/tap-5');
    const bad = await posted(author, 'Bình luận gây hấn');
    const reply = await posted(reader, 'Đừng nói vậy', { parent_id: bad.id });
    await t.background();
    pushes = [];

    const q = await queue(admin, '?filter=held');
    expect(q.data.map((i) => i.id)).toEqual([held.id]);
    expect(q.data[0]).toMatchObject({ holdReason: 'link', status: 'held', author: { id: author.id, history: { comments: 2 } } });

    const approved = await t.request(`/api/admin/comments/${held.id}/approve`, { json: {}, headers: admin });
    expect(approved.status).toBe(200);
    await t.background();
    expect((await detail(reader)).find((x) => x.id === held.id)?.state).toBeUndefined();
    expect(pushesOf('comment').map((p) => (p.body.comment as CommentDto).id)).toEqual([held.id]);

    const removed = await t.request(`/api/admin/comments/${bad.id}/remove`, { json: { reason: 'Ngôn từ gây hấn' }, headers: admin });
    expect(removed.status).toBe(200);
    await t.background();
    expect(pushesOf('withdraw').at(-1)?.body).toEqual({
      type: 'withdraw',
      id: bad.id,
      state: 'removed',
      authorId: author.id,
      reason: 'Ngôn từ gây hấn',
    });
    // With a reply it stays as a placeholder for others; its author sees why.
    expect((await detail(reader)).find((x) => x.id === bad.id)).toMatchObject({ state: 'removed', comment: '', user_id: 0 });
    expect((await detail(reader)).find((x) => x.id === reply.id)?.parent_id).toBe(bad.id);
    expect((await detail(author)).find((x) => x.id === bad.id)).toMatchObject({ state: 'removed', removal_reason: 'Ngôn từ gây hấn' });
    // Without replies it disappears (except for its author).
    const lone = await posted(reader, 'Một bình luận lẻ loi');
    await t.request(`/api/admin/comments/${lone.id}/remove`, { json: { reason: 'Spam' }, headers: admin });
    expect((await detail(null)).map((x) => x.id)).not.toContain(lone.id);
    // A catch-up tells a reconnecting page what it holds that was taken down.
    const since = (await (await t.request(`/api/product/mat-biec/comments?since=${lone.id}`)).json()) as CommentsSinceResponse;
    expect(since.withdrawn).toEqual(
      expect.arrayContaining([
        { id: bad.id, state: 'removed' },
        { id: lone.id, state: 'removed' },
      ]),
    );

    // A removal needs a reason; a decided comment is not decided twice.
    expect((await t.request(`/api/admin/comments/${reply.id}/remove`, { json: {}, headers: admin })).status).toBe(400);
    expect((await t.request(`/api/admin/comments/${bad.id}/remove`, { json: { reason: 'lại' }, headers: admin })).status).toBe(409);

    // Every action is in the audit log with its author and reason, and can be undone from there.
    const [entry] = (await audit('comment.remove')).data.filter((e) => e.target === String(bad.id));
    expect(entry).toMatchObject({ actor: { email: expect.any(String) }, after: { reason: 'Ngôn từ gây hấn' }, undoable: true });
    pushes = [];
    expect((await undo(entry!.id)).status).toBe(200);
    await t.background();
    expect((await detail(reader)).find((x) => x.id === bad.id)).toMatchObject({ comment: 'Bình luận gây hấn' });
    expect(pushesOf('comment').map((p) => (p.body.comment as CommentDto).id)).toEqual([bad.id]);
    const [approval] = (await audit('comment.approve')).data;
    expect((await undo(approval!.id)).status).toBe(200);
    expect((await detail(reader)).map((x) => x.id)).not.toContain(held.id);
    expect((await queue(admin, '?filter=held')).data.map((i) => i.id)).toEqual([held.id]);
  });

  it('sorts by the most reported, and shows the size and the oldest age on the dashboard', async () => {
    const author = await member({ ageDays: 30, vip: true });
    const reporters = [await member(), await member()];
    const one = await posted(author, 'Bình luận thứ nhất về phim');
    const two = await posted(author, 'Bình luận thứ hai về phim');
    await report(reporters[0]!, one.id);
    clock.advance(60_000);
    await report(reporters[0]!, two.id);
    await report(reporters[1]!, two.id);
    expect((await queue(admin, '?sort=reports')).data.map((i) => i.id)).toEqual([two.id, one.id]);
    expect((await queue(admin, '?sort=newest')).data.map((i) => i.id)).toEqual([two.id, one.id]);
    const stats = (await (await t.request('/api/admin/stats', { headers: admin })).json()) as DashboardStats;
    expect(stats.moderationQueue).toEqual({ open: 2, oldestAt: clock.now() - 60_000 });
    expect((await t.request('/api/admin/comments?sort=worst', { headers: admin })).status).toBe(400);
  });
});

describe('mutes and bans', () => {
  it('mutes for a day: the member is told why and until when, cannot post, and can again once it expires', async () => {
    const m = await member({ ageDays: 30 });
    const c = await posted(m, 'Bình luận trước khi bị khóa');
    await t.background();
    pushes = [];
    const res = await t.request(`/api/admin/users/${m.id}/mute`, {
      json: { duration: '1d', reason: 'Spam liên tục', commentId: c.id },
      headers: admin,
    });
    expect(res.status).toBe(200);
    await t.background();
    // 2026-12-01 05:00 UTC + 1 day = 02/12/2026 in Vietnam.
    const message = 'Bạn bị tạm khóa bình luận đến 02/12/2026: Spam liên tục';
    expect(pushesOf('refuse').map((p) => p.body)).toEqual([{ type: 'refuse', userId: m.id, message }]);
    const refused = await post(m, 'Thử lại');
    expect(refused.status).toBe(403);
    expect(await errorOf(refused)).toEqual({ code: 'muted', message });
    // The room's member token carries the mute: the room refuses the socket with it.
    const access = (await (await t.request('/api/product/mat-biec/comments/token', { headers: auth(m) })).json()) as CommentRoomAccess;
    expect(access.mute).toMatchObject({ message, reason: 'Spam liên tục' });
    expect(await verifyCommentToken(SECRET, access.token, 'mat-biec', clock.now())).toEqual({
      userId: m.id,
      room: 'mat-biec',
      refused: message,
    });
    // The muted member still reads the thread.
    expect((await detail(m)).map((x) => x.id)).toContain(c.id);

    clock.advance(DAY + 1000);
    m.session = await login(t, m);
    expect((await post(m, 'Đã hết hạn khóa')).status).toBe(201);
  });

  it('mutes for good, and undoes it from the audit log', async () => {
    const m = await member({ ageDays: 30 });
    await t.request(`/api/admin/users/${m.id}/mute`, { json: { duration: 'forever', reason: 'Quấy rối' }, headers: admin });
    clock.advance(365 * DAY);
    m.session = await login(t, m);
    admin = bearer((await signedInUser(t, { roles: 'admin' })).session.token);
    expect(await errorOf(await post(m, 'Vẫn bị khóa?'))).toEqual({ code: 'muted', message: 'Bạn bị khóa bình luận vĩnh viễn: Quấy rối' });
    const [entry] = (await audit('user.mute')).data;
    expect(entry).toMatchObject({ target: String(m.id), after: { duration: 'forever', muteReason: 'Quấy rối' } });
    expect((await undo(entry!.id)).status).toBe(200);
    expect((await post(m, 'Được bình luận lại')).status).toBe(201);
    // Bad input changes nothing.
    for (const json of [{ duration: '2d', reason: 'x' }, { duration: '1d' }, { duration: '1d', reason: 'x'.repeat(501) }])
      expect((await t.request(`/api/admin/users/${m.id}/mute`, { json, headers: admin })).status).toBe(400);
    expect((await t.request('/api/admin/users/999999/mute', { json: { duration: '1d', reason: 'x' }, headers: admin })).status).toBe(404);
  });

  it('bans: sign-in refused with the reason in Vietnamese, every session ends at once; undo lets them sign in', async () => {
    const m = await member({ ageDays: 30 });
    const res = await t.request(`/api/admin/users/${m.id}/ban`, { json: { reason: 'Lừa đảo thành viên khác' }, headers: admin });
    expect(res.status).toBe(200);
    // The access token stops at once, and the refresh token too.
    expect((await post(m, 'Còn đăng được không?')).status).toBe(401);
    expect((await t.request('/api/refresh_token', { json: { token: m.session.refreshToken } })).status).toBe(401);
    const signIn = await t.request('/api/dang-nhap', {
      json: { email: m.email, password: m.password },
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(signIn.status).toBe(403);
    expect(await errorOf(signIn)).toEqual({ code: 'banned', message: 'Tài khoản của bạn đã bị khóa: Lừa đảo thành viên khác' });
    // A wrong password says nothing about the ban.
    expect((await t.request('/api/dang-nhap', { json: { email: m.email, password: 'sai-mat-khau-123' } })).status).toBe(401);
    expect((await t.request(`/api/admin/users/${m.id}/ban`, { json: { reason: 'lại' }, headers: admin })).status).toBe(409);

    const [entry] = (await audit('user.ban')).data;
    expect((await undo(entry!.id)).status).toBe(200);
    const again = await login(t, m);
    expect(
      (
        await t.request('/api/product/comment', {
          json: { titlefilm: 'mat-biec', contentcomment: 'Tôi trở lại' },
          headers: bearer(again.token),
        })
      ).status,
    ).toBe(201);
  });

  it('refuses to mute or ban an admin', async () => {
    const other = await signedInUser(t, { roles: 'admin' });
    expect((await t.request(`/api/admin/users/${other.id}/ban`, { json: { reason: 'x' }, headers: admin })).status).toBe(403);
    expect((await t.request(`/api/admin/users/${other.id}/mute`, { json: { duration: '1d', reason: 'x' }, headers: admin })).status).toBe(
      403,
    );
  });
});

describe('the words people use', () => {
  it('takes a reason as the form shows it, a duration in days, `word` for `phrase`, and a DELETE as a removal', async () => {
    const author = await member({ ageDays: 30, vip: true });
    const c = await posted(author, 'Một bình luận để báo cáo');
    expect((await report(await member(), c.id, { reason: 'Spam / quảng cáo' })).status).toBe(201);
    expect((await t.request(`/api/admin/users/${author.id}/mute`, { json: { duration: 7, reason: 'Thử' }, headers: admin })).status).toBe(
      200,
    );
    const [entry] = (await audit('user.mute')).data;
    expect(entry?.after).toMatchObject({ duration: '7d' });
    expect((await t.request('/api/admin/comment-words', { json: { word: 'cờ bạc điện tử', action: 'hold' }, headers: admin })).status).toBe(
      201,
    );
    const removed = await t.request(`/api/admin/comments/${c.id}`, { method: 'DELETE', json: { reason: 'Vi phạm' }, headers: admin });
    expect(removed.status).toBe(200);
    expect((await detail(author)).find((x) => x.id === c.id)).toMatchObject({ state: 'removed', removal_reason: 'Vi phạm' });
    // Settings out of range change nothing.
    expect((await setSettings({ commentReportThreshold: 0 })).status).toBe(400);
    expect((await setSettings({ commentNewAccountDays: -1 })).status).toBe(400);
  });
});

describe('VIP2 uploaders', () => {
  it('moderate the threads of their own films only, mute for a day or a week, and never ban', async () => {
    const uploader = await member({ permissions: 'VIP2' });
    await t.deps.db.update(films).set({ createdBy: uploader.id }).where(eq(films.slug, 'bo-gia'));
    const author = await member({ ageDays: 1 });
    const mine = await posted(author, 'Xem ở phimlau.com nhé', {}, 'bo-gia');
    const theirs = await posted(author, 'Xem ở phimlau.com nhé!!', {}, 'mat-biec');
    const headers = auth(uploader);

    const q = await queue(headers);
    expect(q.data.map((i) => i.id)).toEqual([mine.id]);
    expect(q.summary.open).toBe(1);
    expect((await t.request(`/api/admin/comments/${theirs.id}/approve`, { json: {}, headers })).status).toBe(403);
    expect((await t.request(`/api/admin/comments/${theirs.id}/remove`, { json: { reason: 'x' }, headers })).status).toBe(403);
    expect(
      (await t.request(`/api/admin/users/${author.id}/mute`, { json: { duration: '1d', reason: 'x', commentId: theirs.id }, headers }))
        .status,
    ).toBe(403);
    expect((await t.request(`/api/admin/users/${author.id}/mute`, { json: { duration: '1d', reason: 'x' }, headers })).status).toBe(403);
    expect(
      (await t.request(`/api/admin/users/${author.id}/mute`, { json: { duration: '30d', reason: 'x', commentId: mine.id }, headers }))
        .status,
    ).toBe(403);
    expect((await t.request(`/api/admin/users/${author.id}/ban`, { json: { reason: 'x' }, headers })).status).toBe(403);
    expect((await t.request('/api/admin/comment-words', { headers })).status).toBe(403);

    expect((await t.request(`/api/admin/comments/${mine.id}/remove`, { json: { reason: 'Quảng cáo' }, headers })).status).toBe(200);
    expect(
      (
        await t.request(`/api/admin/users/${author.id}/mute`, {
          json: { duration: '7d', reason: 'Quảng cáo', commentId: mine.id },
          headers,
        })
      ).status,
    ).toBe(200);
    expect((await post(author, 'Bị khóa chưa?')).status).toBe(403);
    const stats = (await (await t.request('/api/admin/stats', { headers })).json()) as DashboardStats;
    expect(stats.moderationQueue).toEqual({ open: 0, oldestAt: null });
    // A member without VIP2 has no queue.
    expect((await t.request('/api/admin/comments', { headers: auth(author) })).status).toBe(403);
  });
});

describe('Ẩn bình luận của người này', () => {
  it('hides everything one member writes for the member who asked, on every device, without telling the other', async () => {
    const [reader, loud] = [await member(), await member({ ageDays: 30, vip: true, name: 'Người ồn ào' })];
    const c = await posted(loud, 'Bình luận của người ồn ào');
    expect((await t.request(`/api/me/hidden-authors/${loud.id}`, { method: 'PUT', headers: auth(reader) })).status).toBe(200);
    const otherDevice = await login(t, reader);
    expect((await detail({ ...reader, session: otherDevice })).map((x) => x.id)).not.toContain(c.id);
    expect((await detail(null)).map((x) => x.id)).toContain(c.id);
    expect((await detail(loud)).map((x) => x.id)).toContain(c.id);
    const list = await (await t.request('/api/me/hidden-authors', { headers: auth(reader) })).json();
    expect(list).toEqual({ data: [{ id: loud.id, username: 'Người ồn ào', hiddenAt: clock.now() }] });
    expect((await t.request(`/api/me/hidden-authors/${reader.id}`, { method: 'PUT', headers: auth(reader) })).status).toBe(400);
    expect((await t.request('/api/me/hidden-authors/999999', { method: 'PUT', headers: auth(reader) })).status).toBe(404);
    expect((await t.request(`/api/me/hidden-authors/${loud.id}`, { method: 'DELETE', headers: auth(reader) })).status).toBe(200);
    expect((await detail(reader)).map((x) => x.id)).toContain(c.id);
  });
});

describe('spoilers', () => {
  it('keeps the spoiler mark and the episode, and lets a moderator mark a reported spoiler', async () => {
    const author = await member({ ageDays: 30, vip: true });
    const c = await posted(author, 'Cuối phim nhân vật chính chết', { spoiler: true, episode: 12 });
    expect(c).toMatchObject({ spoiler: true, episode: 12 });
    expect((await detail(null)).find((x) => x.id === c.id)).toMatchObject({ spoiler: true, episode: 12 });
    const plain = await posted(author, 'Tập 12 có cảnh đánh nhau rất đẹp', { episode: 12 });
    await report(await member(), plain.id, { reason: 'spoiler' });
    expect((await t.request(`/api/admin/comments/${plain.id}/approve`, { json: { spoiler: 'có' }, headers: admin })).status).toBe(400);
    expect((await t.request(`/api/admin/comments/${plain.id}/approve`, { json: { spoiler: true }, headers: admin })).status).toBe(200);
    expect((await detail(null)).find((x) => x.id === plain.id)).toMatchObject({ spoiler: true });
    expect((await queue()).summary.open).toBe(0);
  });
});
