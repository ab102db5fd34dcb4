import { beforeEach, describe, expect, it } from 'vitest';
import { comments } from '../../worker/db/schema';
import { roomPushSchema } from '../../party/messages';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, fakeClock, insertFilm, signedInUser } from '../helpers/auth';

interface Push {
  url: string;
  headers: Headers;
  body: unknown;
}

let t: TestApp;
let clock: ReturnType<typeof fakeClock>;
let pushes: Push[];
let roomAnswer: () => Promise<Response>;

beforeEach(async () => {
  clock = fakeClock();
  pushes = [];
  roomAnswer = async () => Response.json({ ok: true, delivered: 0 });
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    pushes.push({ url: String(input), headers: new Headers(init?.headers), body: JSON.parse(String(init?.body)) });
    return roomAnswer();
  }) as typeof globalThis.fetch;
  t = await createTestApp({
    now: clock.now,
    fetch,
    config: { PARTYKIT_HOST: 'http://party.test:1999', PARTY_SECRET: 'test-party-secret-0123' },
  });
  await insertFilm(t.deps.db, 'dat-rung-phuong-nam', 'Đất Rừng Phương Nam');
  await insertFilm(t.deps.db, 'mat-biec', 'Mắt Biếc');
});

const post = (token: string | null, json: unknown) => t.request('/api/product/comment', { json, headers: token ? bearer(token) : {} });
const list = (slug: string, query = '') => t.request(`/api/product/${slug}/comments${query}`);
/** Waits for the room push the handler leaves running after its 201. */
const settle = () => t.background();

describe('POST /api/product/comment', () => {
  it('stores the comment and answers 201 with the CommentDto', async () => {
    const user = await signedInUser(t, { name: 'Chí Phèo' });
    const res = await post(user.session.token, { titlefilm: 'dat-rung-phuong-nam', contentcomment: '  Phim hay quá!  ' });
    expect(res.status).toBe(201);
    expect(await res.json()).toEqual({
      id: expect.any(Number),
      parent_id: null,
      comment: 'Phim hay quá!',
      createdAt: clock.now(),
      users: { username: 'Chí Phèo' },
      user_id: user.id,
    });
  });

  it('pushes the stored comment to the film room with the shared secret', async () => {
    const user = await signedInUser(t);
    const comment = await (await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: 'Xem lại lần thứ ba' })).json();
    await settle();
    expect(pushes).toHaveLength(1);
    expect(pushes[0]!.url).toBe('http://party.test:1999/parties/comments/mat-biec');
    expect(pushes[0]!.headers.get('x-party-secret')).toBe('test-party-secret-0123');
    expect(pushes[0]!.body).toEqual({ type: 'comment', comment });
    expect(roomPushSchema.safeParse(pushes[0]!.body).success).toBe(true);
  });

  it('still answers 201 and keeps the comment when the room push fails', async () => {
    const user = await signedInUser(t);
    for (const failure of [
      async () => new Response('down', { status: 503 }),
      async () => {
        throw new TypeError('fetch failed');
      },
    ]) {
      roomAnswer = failure;
      const warn = console.warn;
      console.warn = () => undefined;
      try {
        expect((await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: 'Vẫn lưu' })).status).toBe(201);
        await settle();
      } finally {
        console.warn = warn;
      }
    }
    expect(await t.deps.db.$count(comments)).toBe(2);
  });

  it('needs a signed-in user (401) and takes the author from the token only', async () => {
    expect((await post(null, { titlefilm: 'mat-biec', contentcomment: 'x' })).status).toBe(401);
    expect((await post('not-a-token', { titlefilm: 'mat-biec', contentcomment: 'x' })).status).toBe(401);
    const author = await signedInUser(t, { name: 'Tác giả thật' });
    const other = await signedInUser(t, { name: 'Người khác' });
    const res = await post(author.session.token, {
      titlefilm: 'mat-biec',
      contentcomment: 'x',
      userId: other.id,
      username: 'Người khác',
      users: { username: 'Người khác' },
    });
    expect((await res.json()).users.username).toBe('Tác giả thật');
  });

  it('nests replies under a parent on the same film; the legacy empty parent_id means top level', async () => {
    const user = await signedInUser(t);
    const top = await (await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: 'Gốc', parent_id: '' })).json();
    expect(top.parent_id).toBeNull();
    const reply = await (await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: 'Trả lời', parent_id: top.id })).json();
    expect(reply.parent_id).toBe(top.id);
    const nested = await (
      await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: 'Trả lời lồng', parent_id: String(reply.id) })
    ).json();
    expect(nested.parent_id).toBe(reply.id);
    const { data } = await (await list('mat-biec')).json();
    expect(data.map((c: { comment: string; parent_id: number | null }) => [c.comment, c.parent_id])).toEqual([
      ['Gốc', null],
      ['Trả lời', top.id],
      ['Trả lời lồng', reply.id],
    ]);
  });

  it("rejects a reply to another film's comment, or to no comment, with 400 naming parent_id", async () => {
    const user = await signedInUser(t);
    const elsewhere = await (await post(user.session.token, { titlefilm: 'dat-rung-phuong-nam', contentcomment: 'Ở phim khác' })).json();
    for (const parent_id of [elsewhere.id, 999_999]) {
      const res = await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: 'Trả lời nhầm', parent_id });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toMatch(/^parent_id: /);
    }
    const bad = await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: 'x', parent_id: 'abc' });
    expect((await errorOf(bad)).message).toMatch(/^parent_id: /);
    expect(await t.deps.db.$count(comments)).toBe(1);
  });

  it('requires text and caps it at 2,000 characters (2,001 refused)', async () => {
    const user = await signedInUser(t);
    for (const contentcomment of [undefined, '', '   \n ']) {
      const res = await post(user.session.token, { titlefilm: 'mat-biec', contentcomment });
      expect(res.status).toBe(400);
      expect((await errorOf(res)).message).toBe('contentcomment: is required');
    }
    expect((await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: 'ư'.repeat(2000) })).status).toBe(201);
    const long = await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: 'ư'.repeat(2001) });
    expect(long.status).toBe(400);
    expect((await errorOf(long)).message).toBe('contentcomment: must be at most 2000 characters');
    expect((await errorOf(await post(user.session.token, { contentcomment: 'x' }))).message).toBe('titlefilm: is required');
  });

  it('stores HTML verbatim: it comes back as the same text (the web renders text, never HTML)', async () => {
    const user = await signedInUser(t);
    const html = '<img src=x onerror=alert(1)><script>alert("x")</script>';
    const res = await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: html });
    expect((await res.json()).comment).toBe(html);
    expect((await (await list('mat-biec')).json()).data[0].comment).toBe(html);
    await settle();
    expect((pushes[0]!.body as { comment: { comment: string } }).comment.comment).toBe(html);
  });

  it('answers 404 for an unknown film', async () => {
    const user = await signedInUser(t);
    expect((await post(user.session.token, { titlefilm: 'khong-co-phim-nay', contentcomment: 'x' })).status).toBe(404);
  });

  it('limits each user to 5 comments per 30 seconds (429, Vietnamese)', async () => {
    const user = await signedInUser(t);
    const other = await signedInUser(t);
    for (let i = 0; i < 5; i++)
      expect((await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: `#${i}` })).status).toBe(201);
    const blocked = await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: '#6' });
    expect(blocked.status).toBe(429);
    expect(await errorOf(blocked)).toEqual({ code: 'rate_limited', message: 'Bạn bình luận quá nhanh. Vui lòng chờ một lát rồi thử lại.' });
    expect(await t.deps.db.$count(comments)).toBe(5);
    expect((await post(other.session.token, { titlefilm: 'mat-biec', contentcomment: 'người khác vẫn được' })).status).toBe(201);
    clock.advance(30_000);
    expect((await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: '#7' })).status).toBe(201);
  });
});

describe('comment limit under concurrency', () => {
  it('stores exactly 5 of 12 simultaneous posts by one user; the rest are 429 and never pushed', async () => {
    const user = await signedInUser(t);
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => post(user.session.token, { titlefilm: 'mat-biec', contentcomment: `đồng thời ${i}` })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7);
    expect(await t.deps.db.$count(comments)).toBe(5);
    await settle();
    expect(pushes).toHaveLength(5);
  });
});

describe('GET /api/product/{slug}/comments', () => {
  it('returns the film comments in order, and only newer ones with ?since=<id>', async () => {
    const user = await signedInUser(t);
    const ids: number[] = [];
    for (const text of ['một', 'hai', 'ba'])
      ids.push((await (await post(user.session.token, { titlefilm: 'mat-biec', contentcomment: text })).json()).id);
    await post(user.session.token, { titlefilm: 'dat-rung-phuong-nam', contentcomment: 'phim khác' });
    const all = await list('mat-biec');
    expect(all.status).toBe(200);
    expect((await all.json()).data.map((c: { comment: string }) => c.comment)).toEqual(['một', 'hai', 'ba']);
    const missed = await (await list('mat-biec', `?since=${ids[0]}`)).json();
    expect(missed.data.map((c: { id: number }) => c.id)).toEqual(ids.slice(1));
    expect((await (await list('mat-biec', `?since=${ids[2]}`)).json()).data).toEqual([]);
  });

  it('is public, names a bad since, and answers 404 for an unknown film', async () => {
    expect((await list('mat-biec')).status).toBe(200);
    const bad = await list('mat-biec', '?since=abc');
    expect(bad.status).toBe(400);
    expect((await errorOf(bad)).message).toMatch(/^since: /);
    expect((await list('khong-co')).status).toBe(404);
  });
});
