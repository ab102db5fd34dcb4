import type { Client, InArgs } from '@libsql/client';
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
 * prepared statement's placeholders unfilled.
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
  const results = await client.batch(statements);
  return queries.map((query, i) => query.mapResult(results[i], true)) as PreparedResults<Q>;
}

/**
 * A LIMIT computed in SQL (from a kept count, a placeholder, a CASE): drizzle types `.limit()` as a number
 * or a placeholder but renders any SQL given there (its dialect's buildLimit), so the one cast lives here.
 */
export function sqlLimit(expression: SQL): number {
  return expression as unknown as number;
}
