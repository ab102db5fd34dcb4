import type { Client, InArgs, InStatement, ResultSet } from '@libsql/client';
import { fillPlaceholders, type SQL } from 'drizzle-orm';
import type { SQLitePreparedQuery } from 'drizzle-orm/sqlite-core';
import type { Db } from './client';

// biome-ignore lint/suspicious/noExplicitAny: any prepared select, whatever its row type
export type AnyPrepared = SQLitePreparedQuery<any>;
type ResultOf<Q> = Q extends SQLitePreparedQuery<infer T> ? Awaited<T['execute']> : never;
/** What batchPrepared answers for `Q`: each statement's rows. */
export type PreparedResults<Q extends readonly AnyPrepared[]> = { -readonly [K in keyof Q]: ResultOf<Q[K]> };

/** Every preparedOnce set, for prepareAll. */
const everySet: ((db: Db) => unknown)[] = [];

/**
 * Statements built once per database (drizzle's `.prepare()` with sql.placeholder), reused by every
 * request. Building a select is a few tens of microseconds of drizzle per statement and per request (the
 * film detail's eight were a fifth of its CPU: bench/service.ts); a prepared statement keeps its SQL text.
 */
export function preparedOnce<T>(build: (db: Db) => T): (db: Db) => T {
  const built = new WeakMap<Db, T>();
  const statementsFor = (db: Db) => {
    let statements = built.get(db);
    if (!statements) {
      statements = build(db);
      built.set(db, statements);
    }
    return statements;
  };
  everySet.push(statementsFor);
  return statementsFor;
}

/**
 * Builds every preparedOnce set of the modules loaded so far for `db`, now: the app does it as it is created,
 * which on Workers is while the isolate starts (worker/index.ts), so no visitor's request pays for drizzle
 * building its statements, the slowest part of a fresh isolate's first page (bench/edge.ts).
 */
export function prepareAll(db: Db): void {
  for (const statementsFor of everySet) statementsFor(db);
}

/**
 * Runs prepared statements in one batch (one round trip on Workers, as db.batch), each with its
 * placeholders filled from `values`. db.batch itself takes only query builders: it would send a
 * prepared statement's placeholders unfilled. Every caller only reads, so on a database where each batch is a
 * network round trip (shareReadBatches) the reads a request starts together share one batch: see readTogether.
 */
export async function batchPrepared<const Q extends readonly AnyPrepared[]>(
  db: Db,
  queries: Q,
  values: Record<string, unknown>,
): Promise<PreparedResults<Q>> {
  const statements = queries.map((query) => {
    const { sql, params } = query.getQuery();
    return { sql, args: fillPlaceholders(params, values) as InArgs };
  });
  // drizzle() sets $client on every database it makes (both hosts, the tests); Db's type does not say so.
  const client = (db as Db & { $client: Client }).$client;
  const results = sharing.has(db) ? await readTogether(client, statements) : await client.batch(statements);
  return queries.map((query, i) => query.mapResult(results[i], true)) as PreparedResults<Q>;
}

/**
 * A LIMIT computed in SQL (from a kept count, a placeholder, a CASE): drizzle types `.limit()` as a number
 * or a placeholder but renders any SQL given there (its dialect's buildLimit), so the one cast lives here.
 */
export function sqlLimit(expression: SQL): number {
  return expression as unknown as number;
}

/** Databases whose read batches started together go as one (shareReadBatches). */
const sharing = new WeakSet<Db>();

/**
 * Makes the read batches (batchPrepared) started in the same turn of the event loop go to `db` as one batch. For a
 * database over the network (the Worker's Turso): a listing page's listing and sidebar, which its renderer reads at
 * once, then cost one round trip instead of two. A local file gains nothing from it.
 */
export function shareReadBatches(db: Db): void {
  sharing.add(db);
}

interface PendingRead {
  statements: InStatement[];
  done: (results: ResultSet[]) => void;
  failed: (error: unknown) => void;
}

/** Reads waiting for the current turn of the event loop to end, per client. */
const waiting = new WeakMap<Client, PendingRead[]>();

/**
 * Sends the read batches started in the same turn of the event loop as one batch: one round trip on Workers
 * (about 1 ms of CPU there, and the network's latency) instead of one each. A lone batch goes as it is, a turn
 * later. Reads only: the batch is one transaction, so a failing statement fails every read that shared it.
 */
function readTogether(client: Client, statements: InStatement[]): Promise<ResultSet[]> {
  return new Promise((done, failed) => {
    let pending = waiting.get(client);
    if (!pending) {
      const reads: PendingRead[] = [];
      pending = reads;
      waiting.set(client, reads);
      setTimeout(() => {
        waiting.delete(client);
        void sendTogether(client, reads);
      }, 0);
    }
    pending.push({ statements, done, failed });
  });
}

async function sendTogether(client: Client, reads: PendingRead[]): Promise<void> {
  try {
    const results = await client.batch(reads.flatMap((read) => read.statements));
    let from = 0;
    for (const read of reads) {
      read.done(results.slice(from, from + read.statements.length));
      from += read.statements.length;
    }
  } catch (error) {
    for (const read of reads) read.failed(error);
  }
}
