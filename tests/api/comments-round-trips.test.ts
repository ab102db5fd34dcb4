// One comment's cost on the Worker path (@libsql/client/web against the Hrana test server; each pipeline is one
// network round trip to Turso in production): the viewer, the film and every check in one batch, then the
// rate-limit hit and the insert (and the film's slow mode) in a second; a third only after the word list changed.
// With the room push after the answer that is at most 3 subrequests on Workers (issue 38 §4).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, type TestUser } from '../helpers/auth';
import { startWorkerPath, type WorkerPath } from '../helpers/worker-path';

let worker: WorkerPath;
beforeAll(async () => {
  worker = await startWorkerPath();
});
afterAll(async () => {
  await worker?.close();
});

let ip = 40;
async function signIn(user: TestUser): Promise<Record<string, string>> {
  ip += 1;
  const res = await worker.app.request('/api/dang-nhap', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${ip}` },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(res.status).toBe(200);
  return { authorization: `Bearer ${((await res.json()) as { token: string }).token}`, 'content-type': 'application/json' };
}

const post = (headers: Record<string, string>, json: Record<string, unknown>) =>
  worker.measure('/api/product/comment', { method: 'POST', headers, body: JSON.stringify({ titlefilm: 'dat-rung-phuong-nam', ...json }) });

describe('posting a comment', () => {
  it('costs two round trips (three after a word-list change), a reply and a retry too', async () => {
    const member = await signIn(await createUser(worker.db));
    // The first post of this app instance compiles the word list (one read, once).
    expect((await post(member, { contentcomment: 'Mở đầu' })).status).toBe(201);

    const comment = await post(member, { contentcomment: 'Phim hay quá', client_id: 'f00dcafe-0000-4000-8000-000000000001' });
    expect(comment.status).toBe(201);
    expect(comment.trips).toBe(2);
    const reply = await post(member, { contentcomment: 'Đồng ý', parent_id: (comment.body as { id: number }).id });
    expect(reply.status).toBe(201);
    expect(reply.trips).toBe(2);
    // A retry reads once and answers the first comment.
    const retry = await post(member, { contentcomment: 'Phim hay quá', client_id: 'f00dcafe-0000-4000-8000-000000000001' });
    expect(retry.status).toBe(200);
    expect(retry.trips).toBe(1);

    const admin = await signIn(await createUser(worker.db, { roles: 'admin' }));
    const word = await worker.app.request('/api/admin/comment-words', {
      method: 'POST',
      headers: admin,
      body: JSON.stringify({ phrase: 'cá độ bóng đá', action: 'hold' }),
    });
    expect(word.status).toBe(201);
    const afterChange = await post(member, { contentcomment: 'Rủ nhau cá độ bóng đá' });
    expect(afterChange.status).toBe(201);
    expect(afterChange.body).toMatchObject({ state: 'pending' });
    expect(afterChange.trips).toBe(3);
    const next = await post(member, { contentcomment: 'Bình thường thôi' });
    expect(next.trips).toBe(2);
  });

  it('a refused post (unknown film, no token) costs no write round trip', async () => {
    const member = await signIn(await createUser(worker.db));
    const unknown = await worker.measure('/api/product/comment', {
      method: 'POST',
      headers: member,
      body: JSON.stringify({ titlefilm: 'khong-co-phim-nay', contentcomment: 'Alo' }),
    });
    expect(unknown.status).toBe(404);
    expect(unknown.trips).toBe(1);
    const noToken = await worker.measure('/api/product/comment', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ titlefilm: 'dat-rung-phuong-nam', contentcomment: 'Alo' }),
    });
    expect(noToken.status).toBe(401);
    expect(noToken.trips).toBe(0);
  });
});
