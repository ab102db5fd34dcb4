// db/prepared.ts: statement sets built once per database, and all of them at once when the app is created
// (prepareAll), so no request pays for drizzle building its statements.
import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../worker/db/client';
import { prepareAll, preparedOnce } from '../../worker/db/prepared';

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
    // It imports the whole app (and migrates a database): seconds on a busy machine, which is not what it tests.
  }, 30_000);
});
