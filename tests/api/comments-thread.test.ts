// The bounded thread (issue 38 §1, docs/decisions/1000-bounded-comment-thread.md): the film detail and the pages
// built from it carry the newest 50 top-level threads with their replies, a cursor and the count; "Xem thêm bình
// luận" pages older threads through GET …/comments?before=, with no duplicate, no gap, replies with their thread.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../worker/db/client';
import { comments } from '../../worker/db/schema';
import { createNodeRoot } from '../../worker/node';
import type { FilmDetailResponse } from '../../worker/schemas/catalogue';
import type { CommentDto, CommentsSinceResponse } from '../../worker/schemas/comments';
import { THREADS_PER_PAGE } from '../../worker/services/comments/comments';
import { createTestApp, type TestApp } from '../helpers/app';
import { bearer, createUser, insertFilm, signedInUser } from '../helpers/auth';
import { seedCatalogue } from '../helpers/catalogue-fixture';
import { buildSsrEntry } from '../helpers/ssr-build';

type Row = typeof comments.$inferInsert;

/** Inserts rows in chunks (SQLite's bound-parameter cap), answering their ids in order. */
async function insertComments(db: Db, rows: Row[]): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 400) {
    const chunk = await db
      .insert(comments)
      .values(rows.slice(i, i + 400))
      .returning({ id: comments.id });
    ids.push(...chunk.map((r) => r.id));
  }
  return ids;
}

const detail = async (t: TestApp, slug: string, token?: string) => {
  const res = await t.request(`/api/product/${slug}`, token ? { headers: bearer(token) } : {});
  expect(res.status).toBe(200);
  return { body: (await res.json()) as FilmDetailResponse };
};

const older = async (t: TestApp, slug: string, before: number, token?: string) => {
  const res = await t.request(`/api/product/${slug}/comments?before=${before}`, token ? { headers: bearer(token) } : {});
  expect(res.status).toBe(200);
  return (await res.json()) as CommentsSinceResponse;
};

describe('the film detail carries the newest threads and a cursor; ?before= pages the rest', () => {
  let t: TestApp;
  let expected: Set<number>;
  let held: number;
  let author: Awaited<ReturnType<typeof signedInUser>>;
  let oldRoot: number;
  let lateReply: number;
  let nested: number;

  beforeAll(async () => {
    t = await createTestApp();
    const filmId = await insertFilm(t.deps.db, 'mat-biec', 'Mắt Biếc');
    author = await signedInUser(t, { name: 'Hà Lan' });
    const other = await createUser(t.deps.db, { name: 'Ngạn' });
    const at = Date.now() - 60_000;
    const base = { filmId, userId: other.id, createdAt: at };
    // 130 top-level comments, every third with two replies.
    const roots = await insertComments(
      t.deps.db,
      Array.from({ length: 130 }, (_, i) => ({ ...base, body: `Bình luận số ${i + 1}` })),
    );
    const replies = await insertComments(
      t.deps.db,
      roots.filter((_, i) => i % 3 === 0).flatMap((id) => [0, 1].map((k) => ({ ...base, parentId: id, body: `Trả lời ${id}.${k}` }))),
    );
    oldRoot = roots[4]!;
    // Threads that change while one pages: a new reply under an old thread, and a reply to that reply.
    lateReply = (await insertComments(t.deps.db, [{ ...base, parentId: oldRoot, body: 'Trả lời muộn' }]))[0]!;
    nested = (await insertComments(t.deps.db, [{ ...base, parentId: lateReply, body: 'Trả lời của trả lời' }]))[0]!;
    // A held comment (its author alone sees it), a removed one kept over a visible reply, a removed one without.
    held = (await insertComments(t.deps.db, [{ ...base, userId: author.id, status: 'held', body: 'Đang chờ duyệt' }]))[0]!;
    const [removedWithReply, removedAlone] = await insertComments(t.deps.db, [
      { ...base, status: 'removed', body: 'Đã gỡ' },
      { ...base, status: 'removed', body: 'Đã gỡ, không ai trả lời' },
    ]);
    const [underRemoved] = await insertComments(t.deps.db, [{ ...base, parentId: removedWithReply!, body: 'Vẫn còn' }]);
    expected = new Set([...roots, ...replies, lateReply, nested, removedWithReply!, underRemoved!]);
    expect(removedAlone).toBeGreaterThan(0);
  });

  it('the detail: 50 threads with their replies, the count of visible comments, and where the next page starts', async () => {
    const { body } = await detail(t, 'mat-biec');
    const roots = body.comments.filter((c) => c.parent_id === null);
    expect(roots).toHaveLength(THREADS_PER_PAGE);
    // Newest threads: the removed comment kept for its reply is the newest top-level one.
    expect(roots.at(-1)!.state).toBe('removed');
    expect(body.comments_total).toBe(130 + 88 + 3);
    expect(body.comments_cursor).toBe(Math.min(...roots.map((r) => r.id)));
    expect(body.comments.some((c) => c.comment === 'Đang chờ duyệt')).toBe(false);
  });

  it('paging to the end: every comment once, none missing, each reply on the page of its thread', async () => {
    const first = await detail(t, 'mat-biec');
    const pages: CommentDto[][] = [first.body.comments];
    let cursor = first.body.comments_cursor;
    while (cursor !== null) {
      const page = await older(t, 'mat-biec', cursor);
      expect(page.total).toBe(first.body.comments_total);
      pages.push(page.data);
      cursor = page.next_before ?? null;
      expect(pages.length).toBeLessThan(10);
    }
    expect(pages).toHaveLength(3);
    const seen = pages.flat().map((c) => c.id);
    expect(new Set(seen).size).toBe(seen.length);
    expect(new Set(seen)).toEqual(expected);
    for (const page of pages) {
      const ids = new Set(page.map((c) => c.id));
      for (const c of page) if (c.parent_id !== null) expect(ids.has(c.parent_id), `reply ${c.id} with its thread`).toBe(true);
    }
    const oldPage = pages.find((p) => p.some((c) => c.id === oldRoot))!;
    expect(oldPage.map((c) => c.id)).toEqual(expect.arrayContaining([lateReply, nested]));
  });

  it("the viewer's own held comment is in their first page, and names a bad cursor", async () => {
    const { body } = await detail(t, 'mat-biec', author.session.token);
    expect(body.comments.find((c) => c.id === held)).toMatchObject({ state: 'pending' });
    const bad = await t.request('/api/product/mat-biec/comments?before=abc');
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/^before/);
    // ?since= catch-up keeps answering what is newer than an id.
    const since = await t.request(`/api/product/mat-biec/comments?since=${lateReply}`);
    expect(((await since.json()) as CommentsSinceResponse).data.map((c) => c.id)).toContain(nested);
  });
});

describe('a film with 20,000 comments', () => {
  let t: TestApp;
  let web: string;

  beforeAll(async () => {
    t = await createTestApp();
    const films = await seedCatalogue(t.deps.db);
    const filmId = films.get('dat-rung-phuong-nam')!.id;
    const users = await Promise.all([0, 1, 2, 3].map((i) => createUser(t.deps.db, { name: `Khán giả ${i}` })));
    const at = Date.now() - 86_400_000;
    const text = (i: number) => `Tập này hay quá, diễn viên diễn tròn vai, nhạc nền cảm động (bình luận ${i}).`;
    const roots = await insertComments(
      t.deps.db,
      Array.from({ length: 15_000 }, (_, i) => ({ filmId, userId: users[i % 4]!.id, createdAt: at + i, body: text(i) })),
    );
    await insertComments(
      t.deps.db,
      Array.from({ length: 5_000 }, (_, i) => ({
        filmId,
        userId: users[(i + 1) % 4]!.id,
        createdAt: at + 15_000 + i,
        parentId: roots[(i * 3) % roots.length]!,
        body: text(15_000 + i),
      })),
    );
    web = mkdtempSync(join(tmpdir(), 'web-dist-'));
    mkdirSync(join(web, 'assets'));
    writeFileSync(
      join(web, 'index.html'),
      '<!doctype html><html lang="vi"><head><script src="/assets/boot-abc.js" async></script><meta charset="UTF-8" /><title>PhimViet</title></head><body><div id="root"></div><!--/app--><script type="module" src="/assets/index-abc.js"></script></body></html>',
    );
  }, 120_000);

  it('the detail JSON stays under 64 KB and says there are 20,000', async () => {
    const res = await t.request('/api/product/dat-rung-phuong-nam');
    const text = await res.text();
    expect(Buffer.byteLength(text)).toBeLessThanOrEqual(64 * 1024);
    const body = JSON.parse(text) as FilmDetailResponse;
    expect(body.comments_total).toBe(20_000);
    expect(body.comments.filter((c) => c.parent_id === null)).toHaveLength(THREADS_PER_PAGE);
  });

  it('the server-rendered watch and film pages stay under 200 KB, with the newest comment in them', async () => {
    const { load } = await buildSsrEntry();
    for (const path of ['/xem-phim/dat-rung-phuong-nam/tap-1', '/dat-rung-phuong-nam']) {
      const res = await createNodeRoot(t.deps, undefined, web, load).request(path);
      expect(res.status).toBe(200);
      const html = await res.text();
      expect(Buffer.byteLength(html), path).toBeLessThanOrEqual(200 * 1024);
      expect(html).toContain('bình luận 14999)');
      expect(html).not.toContain('(bình luận 0).');
    }
  }, 120_000);
});
