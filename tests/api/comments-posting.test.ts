// Posting at the crowd's pace (issue 38 §4, issue 39 §5): a retried POST with the page's client id answers the
// first comment; a film's slow mode switches on when its accepted rate passes 10 a second over 10 s, refuses a
// member's second post within its seconds (429 with the wait), is announced to the room, switches off by itself,
// and can be set by a moderator (audited).
import { and, count, eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { comments, films } from '../../worker/db/schema';
import type { AuditResponse } from '../../worker/schemas/admin';
import type { CommentDto } from '../../worker/schemas/comments';
import { SLOW_MODE_SECONDS } from '../../worker/services/comments/slow-mode';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, createUser, fakeClock, insertFilm, signedInUser } from '../helpers/auth';

let t: TestApp;
let clock: ReturnType<typeof fakeClock>;
let pushes: { url: string; body: { type: string; [key: string]: unknown } }[];
let filmId: number;

beforeEach(async () => {
  clock = fakeClock();
  pushes = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    pushes.push({ url: String(input), body: JSON.parse(String(init?.body)) });
    return Response.json({ ok: true, delivered: 0 });
  }) as typeof globalThis.fetch;
  t = await createTestApp({
    now: clock.now,
    fetch,
    config: { PARTYKIT_HOST: 'http://party.test:1999', PARTY_SECRET: 'test-party-secret-0123' },
  });
  filmId = await insertFilm(t.deps.db, 'mat-biec', 'Mắt Biếc');
  await insertFilm(t.deps.db, 'bo-gia', 'Bố Già');
});

type Member = Awaited<ReturnType<typeof signedInUser>>;
const post = (m: Member, text: string, extra: Record<string, unknown> = {}, slug = 'mat-biec') =>
  t.request('/api/product/comment', { json: { titlefilm: slug, contentcomment: text, ...extra }, headers: bearer(m.session.token) });
const stored = async (slug = 'mat-biec') => {
  const [film] = await t.deps.db.select({ id: films.id }).from(films).where(eq(films.slug, slug));
  const [row] = await t.deps.db.select({ n: count() }).from(comments).where(eq(comments.filmId, film!.id));
  return row!.n;
};
const slowPushes = () => pushes.filter((p) => p.body.type === 'slow-mode').map((p) => p.body.seconds);

describe('a retried comment (client id)', () => {
  it('answers the first comment again, stores one, pushes one; the id is the author’s own', async () => {
    const member = await signedInUser(t);
    const clientId = '3f2b8c1e-7d4a-4e0b-9a61-2c5d8e9f0a1b';
    const first = await post(member, 'Tập này xem mà khóc', { client_id: clientId });
    expect(first.status).toBe(201);
    const comment = (await first.json()) as CommentDto;
    clock.advance(5_000);
    const retry = await post(member, 'Tập này xem mà khóc', { client_id: clientId });
    expect(retry.status).toBe(200);
    expect(await retry.json()).toEqual(comment);
    await t.background();
    expect(await stored()).toBe(1);
    expect(pushes.filter((p) => p.body.type === 'comment')).toHaveLength(1);

    // Another member's page may pick the same id: theirs is their own comment.
    const other = await signedInUser(t);
    const theirs = await post(other, 'Tập này xem mà khóc thật', { client_id: clientId });
    expect(theirs.status).toBe(201);
    expect(((await theirs.json()) as CommentDto).id).not.toBe(comment.id);
    // A new comment of the same member (a new id) is a new comment; without an id, as before.
    expect((await post(member, 'Một bình luận khác hẳn', { client_id: 'a1b2c3d4-0000-4000-8000-000000000001' })).status).toBe(201);
    expect((await post(member, 'Và một cái nữa')).status).toBe(201);
    expect(await stored()).toBe(4);
  });

  it('two copies of one post at once store one comment and both answer it', async () => {
    const member = await signedInUser(t);
    const json = { client_id: 'c0ffee00-1111-4222-8333-444455556666' };
    const answers = await Promise.all([post(member, 'Gửi hai lần', json), post(member, 'Gửi hai lần', json)]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 201]);
    const [a, b] = (await Promise.all(answers.map((r) => r.json()))) as CommentDto[];
    expect(a!.id).toBe(b!.id);
    expect(await stored()).toBe(1);
  });

  it('names a malformed client id', async () => {
    const member = await signedInUser(t);
    const res = await post(member, 'Xin chào', { client_id: 'x' });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { message: string } }).error.message).toMatch(/^client_id/);
  });
});

describe('slow mode ("Chế độ chậm")', () => {
  /** `n` comments accepted on the film in the last few seconds (the crowd). */
  async function crowd(n: number) {
    const someone = await createUser(t.deps.db);
    await t.deps.db
      .insert(comments)
      .values(Array.from({ length: n }, (_, i) => ({ filmId, userId: someone.id, body: `Hay ${i}`, createdAt: clock.now() - 5_000 })));
  }

  it('switches on when the film passes 10 accepted a second over 10 s, refuses a second post with the wait, and goes off by itself', async () => {
    const [a, b] = [await signedInUser(t), await signedInUser(t)];
    await crowd(99);
    // 100 in 10 s is 10 a second: not past it.
    expect((await post(a, 'Bình luận thứ một trăm')).status).toBe(201);
    clock.advance(1_000);
    expect((await post(a, 'Ngay sau đó')).status).toBe(201);
    await t.background();
    expect(slowPushes()).toEqual([SLOW_MODE_SECONDS]);
    expect(pushes.findIndex((p) => p.body.type === 'slow-mode')).toBeLessThan(pushes.length - 1);

    clock.advance(3_000);
    const early = await post(a, 'Quá sớm');
    expect(early.status).toBe(429);
    expect(early.headers.get('retry-after')).toBe('7');
    expect(await early.json()).toEqual({
      error: { code: 'slow_mode', message: 'Chế độ chậm: vui lòng chờ 7 giây nữa rồi bình luận tiếp.', retryAfter: 7 },
    });
    // Another member's first post in the window passes; so does a post on another film.
    expect((await post(b, 'Tôi chưa nói gì')).status).toBe(201);
    expect((await post(a, 'Phim khác', {}, 'bo-gia')).status).toBe(201);

    clock.advance(7_000);
    expect((await post(a, 'Đủ mười giây rồi')).status).toBe(201);
    await t.background();
    expect(slowPushes()).toEqual([SLOW_MODE_SECONDS]);

    // The rate fell: half a minute later it is off, and the room is told once.
    clock.advance(40_000);
    expect((await post(a, 'Yên tĩnh lại rồi')).status).toBe(201);
    expect((await post(a, 'Nói tiếp được ngay')).status).toBe(201);
    await t.background();
    expect(slowPushes()).toEqual([SLOW_MODE_SECONDS, 0]);
  });

  it('an admin sets it on and off for a film (audited); a VIP2 uploader for their own films only', async () => {
    const admin = await signedInUser(t, { roles: 'admin' });
    const member = await signedInUser(t);
    const put = (who: Member, mode: string, slug = 'mat-biec') =>
      t.request(`/api/admin/comments/slow-mode/${slug}`, { method: 'PUT', json: { mode }, headers: bearer(who.session.token) });

    const on = await put(admin, 'on');
    expect(on.status).toBe(200);
    expect(await on.json()).toMatchObject({ slug: 'mat-biec', mode: 'on', on: true, seconds: SLOW_MODE_SECONDS });
    await t.background();
    expect(pushes.at(-1)).toEqual({
      url: 'http://party.test:1999/parties/comments/mat-biec',
      body: { type: 'slow-mode', seconds: SLOW_MODE_SECONDS },
    });
    expect((await post(member, 'Một')).status).toBe(201);
    expect((await post(member, 'Hai')).status).toBe(429);
    // Staff are not held back.
    expect((await post(admin, 'Quản trị một')).status).toBe(201);
    expect((await post(admin, 'Quản trị hai')).status).toBe(201);

    expect(await (await put(admin, 'off')).json()).toMatchObject({ mode: 'off', on: false });
    expect((await post(member, 'Ba')).status).toBe(201);
    await t.background();
    expect(slowPushes()).toEqual([SLOW_MODE_SECONDS, 0]);
    const audit = (await (
      await t.request('/api/admin/audit?action=comment.slow_mode', { headers: bearer(admin.session.token) })
    ).json()) as AuditResponse;
    expect(audit.data.map((e) => e.after)).toEqual([{ mode: 'off' }, { mode: 'on' }]);

    const uploader = await signedInUser(t, { permissions: 'VIP2' });
    await t.deps.db.update(films).set({ createdBy: uploader.id }).where(eq(films.slug, 'bo-gia'));
    expect((await put(uploader, 'on', 'mat-biec')).status).toBe(404);
    expect((await put(uploader, 'on', 'bo-gia')).status).toBe(200);
    expect((await put(member, 'on', 'bo-gia')).status).toBe(403);
    const read = await t.request('/api/admin/comments/slow-mode/bo-gia', { headers: bearer(uploader.session.token) });
    expect(await read.json()).toMatchObject({ mode: 'on', on: true });
    expect((await put(admin, 'sometimes')).status).toBe(400);
    const [row] = await t.deps.db
      .select({ n: count() })
      .from(comments)
      .where(and(eq(comments.filmId, filmId)));
    expect(row!.n).toBe(4);
  });
});
