// The Hrana test server (tests/helpers/hrana-server.ts) against the real remote client the Worker uses,
// @libsql/client/web: if these pass, the Worker tests talk to something that behaves like Turso/sqld.
import { createClient, LibsqlBatchError, LibsqlError, type Client } from '@libsql/client/web';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHranaServer, type HranaServer } from '../helpers/hrana-server';

let server: HranaServer;
let client: Client;
const clients: Client[] = [];

function connect(options: Partial<Parameters<typeof createClient>[0]> = {}): Client {
  const c = createClient({ url: server.url, authToken: 'test-token', ...options });
  clients.push(c);
  return c;
}

beforeAll(async () => {
  server = await startHranaServer({ authToken: 'test-token' });
  client = connect();
  await client.execute('CREATE TABLE sample (id INTEGER PRIMARY KEY, i INTEGER, f REAL, s TEXT, b BLOB, n)');
});

afterAll(async () => {
  for (const c of clients) c.close();
  await server?.close();
});

describe('Hrana test server with @libsql/client/web', () => {
  it('serves the migrated schema and the taxonomy seed over HTTP', async () => {
    const tables = await client.execute(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('films', 'users', 'view_events')",
    );
    expect(tables.rows.map((r) => r.name).sort()).toEqual(['films', 'users', 'view_events']);
    const categories = await client.execute('SELECT count(*) AS n FROM categories');
    expect(Number(categories.rows[0]!.n)).toBeGreaterThan(0);
    expect(server.stats.requests['/v2/pipeline']).toBeGreaterThan(0);
  });

  it('round-trips integers, floats, Vietnamese text, nulls and blobs', async () => {
    const title = 'Đất Rừng Phương Nam — Tập 1: Lưu lạc 🎬';
    const blob = new Uint8Array([0, 1, 127, 128, 254, 255]);
    const inserted = await client.execute({
      sql: 'INSERT INTO sample (i, f, s, b, n) VALUES (?, ?, ?, ?, ?)',
      args: [9_007_199_254_740_993n, 3.25, title, blob, null],
    });
    expect(inserted.rowsAffected).toBe(1);
    const id = inserted.lastInsertRowid!;
    expect(typeof id).toBe('bigint');

    const big = connect({ intMode: 'bigint' });
    const row = (await big.execute({ sql: 'SELECT i, f, s, b, n, typeof(f) AS tf FROM sample WHERE id = :id', args: { id } })).rows[0]!;
    expect(row.i).toBe(9_007_199_254_740_993n); // beyond 2^53: only exact if sent and returned as integer strings
    expect(row.f).toBe(3.25);
    expect(row.s).toBe(title);
    expect(new Uint8Array(row.b as ArrayBuffer)).toEqual(blob);
    expect(row.n).toBeNull();
    expect(row.tf).toBe('real');

    const typed = await client.execute('SELECT 2.0 AS two, typeof(2.0) AS t, 7 AS seven, -0.5 AS half');
    expect(typed.rows[0]).toMatchObject({ two: 2, t: 'real', seven: 7, half: -0.5 });
    expect(typed.columns).toEqual(['two', 't', 'seven', 'half']);
  });

  it('reports declared column types, affected rows and no stale counts for reads', async () => {
    await client.execute({ sql: 'INSERT INTO sample (i, s) VALUES (?, ?), (?, ?)', args: [1, 'a', 2, 'b'] });
    const updated = await client.execute({ sql: 'UPDATE sample SET n = ? WHERE i IN (1, 2)', args: ['x'] });
    expect(updated.rowsAffected).toBe(2);
    const read = await client.execute('SELECT id, i, f, s FROM sample WHERE i = 1');
    expect(read.rowsAffected).toBe(0);
    expect(read.lastInsertRowid).toBeUndefined();
    expect(read.columnTypes).toEqual(['INTEGER', 'INTEGER', 'REAL', 'TEXT']);
    const returning = await client.execute({ sql: 'INSERT INTO sample (s) VALUES (?) RETURNING id, s', args: ['trả về'] });
    expect(returning.rows[0]!.s).toBe('trả về');
    expect(returning.rowsAffected).toBe(1);
  });

  it('runs a batch as one transaction: all or nothing', async () => {
    const before = Number((await client.execute('SELECT count(*) AS n FROM sample')).rows[0]!.n);
    const results = await client.batch(
      [
        { sql: 'INSERT INTO sample (s) VALUES (?)', args: ['một'] },
        { sql: 'INSERT INTO sample (s) VALUES (?)', args: ['hai'] },
        'SELECT count(*) AS n FROM sample',
      ],
      'write',
    );
    expect(Number(results[2]!.rows[0]!.n)).toBe(before + 2);

    const failing = client.batch(
      [
        { sql: 'INSERT INTO sample (s) VALUES (?)', args: ['ba'] },
        { sql: 'INSERT INTO sample (id, s) VALUES (?, ?)', args: [results[0]!.lastInsertRowid!, 'trùng khóa'] },
      ],
      'write',
    );
    await expect(failing).rejects.toBeInstanceOf(LibsqlBatchError);
    await expect(failing).rejects.toMatchObject({ statementIndex: 1, code: expect.stringMatching(/^SQLITE_CONSTRAINT/) });
    const after = Number((await client.execute('SELECT count(*) AS n FROM sample')).rows[0]!.n);
    expect(after).toBe(before + 2); // 'ba' was rolled back with the failed step
  });

  it('isolates an interactive transaction: others wait for the commit, a rollback leaves nothing', async () => {
    const tx = await client.transaction('write');
    await tx.execute({ sql: 'INSERT INTO sample (s) VALUES (?)', args: ['trong giao dịch'] });
    const other = connect();
    let seen: number | undefined;
    const concurrentRead = other
      .execute({ sql: 'SELECT count(*) AS n FROM sample WHERE s = ?', args: ['trong giao dịch'] })
      .then((r) => (seen = Number(r.rows[0]!.n)));
    // The server reports the read queued behind the open transaction; only then is "not answered yet" meaningful.
    await expect.poll(() => server.stats.waiting(), { timeout: 10_000 }).toBe(1);
    expect(seen).toBeUndefined();
    await tx.commit();
    await concurrentRead;
    expect(seen).toBe(1);

    const rolledBack = await client.transaction('write');
    await rolledBack.execute({ sql: 'INSERT INTO sample (s) VALUES (?)', args: ['hủy'] });
    await rolledBack.rollback();
    const count = await client.execute({ sql: 'SELECT count(*) AS n FROM sample WHERE s = ?', args: ['hủy'] });
    expect(Number(count.rows[0]!.n)).toBe(0);
  });

  it('rolls back a transaction whose client went away once its stream idles out', async () => {
    // Its own server with a short idle limit, so slow machines never idle out the other tests' streams.
    const quick = await startHranaServer({ migrate: false, streamIdleMs: 300 });
    try {
      const c = createClient({ url: quick.url });
      clients.push(c);
      await c.execute('CREATE TABLE t (s TEXT)');
      const abandoned = await c.transaction('write');
      await abandoned.execute({ sql: 'INSERT INTO t (s) VALUES (?)', args: ['bỏ dở'] });
      // No commit, no rollback, no close: the server must not stay locked forever.
      const count = await c.execute('SELECT count(*) AS n FROM t');
      expect(Number(count.rows[0]!.n)).toBe(0);
      expect(quick.stats.openStreams()).toBe(0);
    } finally {
      await quick.close();
    }
  });

  it('answers bad SQL with an error the client throws, and keeps serving', async () => {
    const bad = client.execute('SELEC * FROM sample');
    await expect(bad).rejects.toBeInstanceOf(LibsqlError);
    await expect(bad).rejects.toMatchObject({ code: 'SQLITE_ERROR', message: expect.stringContaining('syntax error') });
    await expect(client.execute('SELECT * FROM no_such_table')).rejects.toThrow(/no such table/);
    const ok = await client.execute('SELECT 1 AS one');
    expect(ok.rows[0]!.one).toBe(1);
  });

  it('runs multi-statement scripts (sequence)', async () => {
    await client.executeMultiple("CREATE TABLE seq (v TEXT); INSERT INTO seq VALUES ('á'); INSERT INTO seq VALUES ('ạ');");
    const rows = await client.execute('SELECT v FROM seq ORDER BY rowid');
    expect(rows.rows.map((r) => r.v)).toEqual(['á', 'ạ']);
  });

  it('refuses requests without the bearer token', async () => {
    const anonymous = connect({ authToken: undefined });
    await expect(anonymous.execute('SELECT 1')).rejects.toThrow(/token|401/i);
  });

  it('speaks the pipeline protocol: batons rotate, a used baton is refused, describe works', async () => {
    const post = (body: unknown) =>
      fetch(`${server.url}/v2/pipeline`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer test-token' },
        body: JSON.stringify(body),
      });
    const first = await post({ baton: null, requests: [{ type: 'describe', sql: 'SELECT s FROM sample WHERE id = :id AND i > ?' }] });
    const firstBody = (await first.json()) as { baton: string; results: { type: string; response: { result: Record<string, unknown> } }[] };
    expect(firstBody.baton).toEqual(expect.any(String));
    expect(firstBody.results[0]!.response.result).toMatchObject({
      params: [{ name: ':id' }, { name: null }],
      cols: [{ name: 's', decltype: 'TEXT' }],
      is_explain: false,
      is_readonly: true,
    });
    const second = await post({ baton: firstBody.baton, requests: [{ type: 'close' }] });
    expect(((await second.json()) as { baton: unknown }).baton).toBeNull();
    const replay = await post({ baton: firstBody.baton, requests: [{ type: 'execute', stmt: { sql: 'SELECT 1' } }] });
    expect(replay.status).toBe(400);
    expect(((await replay.json()) as { code: string }).code).toBe('STREAM_EXPIRED');
    const probe = await fetch(`${server.url}/v3-protobuf`, { headers: { authorization: 'Bearer test-token' } });
    expect(probe.status).toBe(404); // a v3 client falls back to JSON /v2
  });
});
