// db/prepared.ts: statement sets built once per database, and all of them at once when the app is created
// (prepareAll), so no request pays for drizzle building its statements; reads started together share one batch.
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../worker/db/client';
import { type AnyPrepared, batchPrepared, prepareAll, preparedOnce, shareReadBatches } from '../../worker/db/prepared';

describe('preparedOnce and prepareAll', () => {
  it('builds a set once per database, at prepareAll or at its first use, whichever comes first', () => {
    const build = vi.fn((db: Db) => ({ db }));
    const statementsFor = preparedOnce(build);
    const first = {} as Db;
    const second = {} as Db;
    prepareAll(first);
    expect(build).toHaveBeenCalledTimes(1);
    expect(statementsFor(first).db).toBe(first);
    prepareAll(first);
    expect(build).toHaveBeenCalledTimes(1);
    expect(statementsFor(second).db).toBe(second);
    expect(build).toHaveBeenCalledTimes(2);
  });

  it('the app builds every public read statement set as it is created', async () => {
    const { createTestApp } = await import('../helpers/app');
    const { db } = (await createTestApp()).deps;
    const client = (db as Db & { $client: { batch: unknown; execute: unknown } }).$client;
    const batch = vi.spyOn(client as { batch: (...args: unknown[]) => unknown }, 'batch');
    // Built already: a page's statements do not touch drizzle's builder, only the client.
    const { homeData } = await import('../../worker/services/catalogue/home');
    const select = vi.spyOn(db, 'select');
    await homeData(db, Date.now());
    expect(select).not.toHaveBeenCalled();
    expect(batch).toHaveBeenCalledTimes(1);
  });
});

describe('batchPrepared: the reads started in one turn share one batch', () => {
  const statement = (sql: string) =>
    ({ getQuery: () => ({ sql, params: [] }), mapResult: (result: unknown) => result }) as unknown as AnyPrepared;
  const fakeDb = (batch: (statements: { sql: string }[]) => Promise<unknown[]>, shared = true) => {
    const db = { $client: { batch: vi.fn(batch) } } as unknown as Db & { $client: { batch: ReturnType<typeof vi.fn> } };
    if (shared) shareReadBatches(db);
    return db;
  };

  it('sends them as one batch and answers each with its own results, in order', async () => {
    const db = fakeDb(async (statements) => statements.map((s) => `result of ${s.sql}`));
    const [first, second] = await Promise.all([
      batchPrepared(db, [statement('a'), statement('b')], {}),
      Promise.resolve().then(() => batchPrepared(db, [statement('c')], {})),
    ]);
    expect(db.$client.batch).toHaveBeenCalledTimes(1);
    expect(db.$client.batch.mock.calls[0]![0].map((s: { sql: string }) => s.sql)).toEqual(['a', 'b', 'c']);
    expect(first).toEqual(['result of a', 'result of b']);
    expect(second).toEqual(['result of c']);
    // A later read is a batch of its own.
    expect(await batchPrepared(db, [statement('d')], {})).toEqual(['result of d']);
    expect(db.$client.batch).toHaveBeenCalledTimes(2);
  });

  it('fails every read that shared a batch that failed', async () => {
    const db = fakeDb(async () => {
      throw new Error('database unavailable');
    });
    const reads = [batchPrepared(db, [statement('a')], {}), batchPrepared(db, [statement('b')], {})];
    for (const read of reads) await expect(read).rejects.toThrow('database unavailable');
    expect(db.$client.batch).toHaveBeenCalledTimes(1);
  });

  it('goes batch by batch on a database that does not share them (a local file)', async () => {
    const db = fakeDb(async (statements) => statements.map((s) => s.sql), false);
    await Promise.all([batchPrepared(db, [statement('a')], {}), batchPrepared(db, [statement('b')], {})]);
    expect(db.$client.batch).toHaveBeenCalledTimes(2);
  });
});
