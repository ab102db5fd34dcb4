// A libSQL server for tests: Hrana over HTTP (JSON), the protocol @libsql/client/web speaks to Turso and
// sqld, served from a local SQLite file. No sqld binary exists on these machines (docs/decisions/0300).
//
// Protocol as @libsql/hrana-client 0.10 (lib-esm/http/) sends and expects it:
//   GET  /v2, /v3            200: the JSON endpoints exist (version probe)
//   GET  /v3-protobuf        404: protobuf is not spoken, so a v3 client falls back to /v2 JSON
//   POST /v2/pipeline, /v3/pipeline
//        { baton?: string|null, requests: StreamRequest[] } -> { baton, base_url, results: StreamResult[] }
//        requests: execute, batch (conditions ok/error/not/and/or/is_autocommit), sequence, describe,
//                  store_sql, close_sql, close, get_autocommit (v3)
//        values:   { type: 'null' } | { type: 'integer', value: '<int64 as string>' }
//                  | { type: 'float', value: number } | { type: 'text', value } | { type: 'blob', base64 }
// A stream is one SQL connection: a baton names it between requests and is good for one request only.
// All streams share one connection and run one pipeline at a time; a stream that leaves a transaction
// open owns the connection until it commits, rolls back, closes or idles out (then it is rolled back),
// and other streams wait for it asynchronously, as sqld makes writers wait. That gives interactive
// transactions (drizzle's db.transaction() over HTTP) real isolation without blocking the event loop.
import Database from 'libsql';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openMigratedDatabase } from '../../worker/db/node-client';

export interface HranaServerOptions {
  /** SQLite file to serve. Default: a fresh temporary file, deleted on close. */
  path?: string;
  /** Apply the real migrations and taxonomy seed first (openMigratedDatabase). Default true. */
  migrate?: boolean;
  /** When set, every request must carry `Authorization: Bearer <authToken>` (as Turso requires). */
  authToken?: string;
  /** A stream unused this long is closed and its open transaction rolled back. Default 10 s. */
  streamIdleMs?: number;
  /** Default 127.0.0.1 and a free port. */
  host?: string;
  port?: number;
}

export interface HranaServer {
  /** http://127.0.0.1:PORT, usable as DATABASE_URL. */
  url: string;
  path: string;
  /**
   * Counters for tests: HTTP requests by path, streams still open, requests queued behind another
   * stream's transaction, and pipelines (POST /v2|v3/pipeline): each is one network round trip from a
   * Worker to its database.
   */
  stats: { requests: Record<string, number>; openStreams: () => number; waiting: () => number; pipelines: () => number };
  close: () => Promise<void>;
}

type ProtoValue =
  | { type: 'null' }
  | { type: 'integer'; value: string }
  | { type: 'float'; value: number }
  | { type: 'text'; value: string }
  | { type: 'blob'; base64: string };

interface ProtoStmt {
  sql?: string;
  sql_id?: number;
  args?: ProtoValue[];
  named_args?: { name: string; value: ProtoValue }[];
  want_rows?: boolean;
}

type ProtoCond =
  | { type: 'ok' | 'error'; step: number }
  | { type: 'not'; cond: ProtoCond }
  | { type: 'and' | 'or'; conds: ProtoCond[] }
  | { type: 'is_autocommit' };

interface ProtoStmtResult {
  cols: { name: string | null; decltype: string | null }[];
  rows: ProtoValue[][];
  affected_row_count: number;
  last_insert_rowid: string | null;
}

interface ProtoError {
  message: string;
  code: string;
}

type StreamRequest = { type: string; sql?: unknown; sql_id?: unknown; [field: string]: unknown };

/** An error the client receives as the HTTP response (not as one request's result). */
class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** An error one request (or batch step) answers with; the stream and server go on. */
class RequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

interface Stream {
  id: number;
  sqls: Map<number, string>;
  timer?: NodeJS.Timeout;
  closed: boolean;
}

type SqlValue = null | bigint | number | string | Buffer;
type Statement = Database.Statement<unknown[]>;

const MAX_BODY_BYTES = 10 * 1024 * 1024;

export async function startHranaServer(options: HranaServerOptions = {}): Promise<HranaServer> {
  const tempDir = options.path ? undefined : mkdtempSync(join(tmpdir(), 'hrana-'));
  const path = options.path ?? join(tempDir!, 'test.db');
  if (options.migrate ?? true) {
    const migrated = await openMigratedDatabase(`file:${path}`);
    migrated.client.close();
  }

  const db = new Database(path);
  // Same connection settings as the Node host: foreign keys on, so cascades behave as in production.
  db.exec('PRAGMA foreign_keys = ON');
  const totalChangesStmt = db.prepare('SELECT total_changes()').raw(true).safeIntegers(true);
  const lastWriteStmt = db.prepare('SELECT changes(), last_insert_rowid()').raw(true).safeIntegers(true);

  const idleMs = options.streamIdleMs ?? 10_000;
  const streams = new Map<string, Stream>();
  let nextStreamId = 1;
  let owner: Stream | null = null;
  let waiters: (() => void)[] = [];
  const requests: Record<string, number> = {};

  function wakeWaiters() {
    const woken = waiters;
    waiters = [];
    for (const wake of woken) wake();
  }

  async function acquire(stream: Stream) {
    while (owner && owner !== stream) await new Promise<void>((resolve) => waiters.push(resolve));
  }

  /** After a pipeline: a stream inside a transaction keeps the connection; otherwise it is free. */
  function settleOwnership(stream: Stream) {
    if (!stream.closed && db.inTransaction) {
      owner = stream;
    } else if (owner === stream || owner === null) {
      owner = null;
      wakeWaiters();
    }
  }

  function closeStream(stream: Stream) {
    if (stream.closed) return;
    stream.closed = true;
    clearTimeout(stream.timer);
    if (owner === stream || (owner === null && db.inTransaction)) {
      // A stream closed (or abandoned) inside a transaction is rolled back, as sqld does.
      if (db.inTransaction) db.exec('ROLLBACK');
      owner = null;
      wakeWaiters();
    }
  }

  function issueBaton(stream: Stream): string {
    const baton = `${stream.id}.${randomBytes(18).toString('base64url')}`;
    streams.set(baton, stream);
    stream.timer = setTimeout(() => {
      streams.delete(baton);
      closeStream(stream);
    }, idleMs);
    stream.timer.unref();
    return baton;
  }

  function decodeValue(value: ProtoValue): SqlValue {
    switch (value?.type) {
      case 'null':
        return null;
      case 'integer':
        return BigInt(value.value);
      case 'float':
        return Number(value.value);
      case 'text':
        return String(value.value);
      case 'blob':
        return Buffer.from(value.base64, 'base64');
      default:
        throw new RequestError('INVALID_ARGUMENT', `Unknown value type ${JSON.stringify((value as { type?: unknown })?.type)}`);
    }
  }

  function encodeValue(value: unknown): ProtoValue {
    if (value === null || value === undefined) return { type: 'null' };
    if (typeof value === 'bigint') return { type: 'integer', value: value.toString() };
    // safeIntegers(true): INTEGER cells arrive as bigint, so a number is always a REAL (2.0 stays a float).
    if (typeof value === 'number') return { type: 'float', value };
    if (typeof value === 'string') return { type: 'text', value };
    if (value instanceof Uint8Array) return { type: 'blob', base64: Buffer.from(value).toString('base64') };
    throw new RequestError('INTERNAL', `Cannot encode a ${typeof value} column value`);
  }

  function sqlOf(stream: Stream, holder: { sql?: unknown; sql_id?: unknown }): string {
    if (typeof holder.sql === 'string') return holder.sql;
    if (typeof holder.sql_id === 'number') {
      const sql = stream.sqls.get(holder.sql_id);
      if (sql === undefined) throw new RequestError('SQL_NOT_FOUND', `No SQL text stored under id ${holder.sql_id}`);
      return sql;
    }
    throw new RequestError('INVALID_REQUEST', 'A statement needs sql or sql_id');
  }

  function asRequestError(err: unknown): ProtoError {
    if (err instanceof RequestError) return { message: err.message, code: err.code };
    const e = err as { message?: unknown; code?: unknown };
    // SQLite errors keep the engine's code (SQLITE_ERROR, SQLITE_CONSTRAINT_UNIQUE...), as the local
    // file client reports them, so both hosts see the same codes.
    return { message: String(e?.message ?? err), code: typeof e?.code === 'string' ? e.code : 'UNKNOWN' };
  }

  function all(stmt: Statement): unknown[][] {
    return stmt.all() as unknown[][];
  }

  function execute(stream: Stream, stmt: ProtoStmt): ProtoStmtResult {
    const sql = sqlOf(stream, stmt);
    const positional = (stmt.args ?? []).map(decodeValue);
    const named: Record<string, SqlValue> = {};
    for (const arg of stmt.named_args ?? []) named[arg.name.replace(/^[:@$]/, '')] = decodeValue(arg.value);
    const params: unknown[] = stmt.named_args?.length ? [...positional, named] : positional;

    const prepared = db.prepare(sql);
    prepared.safeIntegers(true);
    let returnsData = true;
    try {
      prepared.raw(true);
    } catch {
      returnsData = false; // raw() throws for statements that return no columns
    }
    const before = all(totalChangesStmt)[0]![0] as bigint;
    let cols: ProtoStmtResult['cols'] = [];
    let rows: ProtoValue[][] = [];
    if (returnsData) {
      cols = prepared.columns().map((c) => ({ name: c.name, decltype: c.type }));
      const raw = prepared.all(...params) as unknown[][];
      if (stmt.want_rows !== false) rows = raw.map((row) => row.map(encodeValue));
    } else {
      prepared.run(...params);
    }
    // Affected rows and rowid only for statements that wrote (changes() would otherwise be stale).
    const wrote = (all(totalChangesStmt)[0]![0] as bigint) > before;
    const [changes, rowid] = wrote ? (all(lastWriteStmt)[0] as [bigint, bigint]) : [0n, null];
    return { cols, rows, affected_row_count: Number(changes), last_insert_rowid: rowid === null ? null : rowid.toString() };
  }

  function batch(stream: Stream, steps: { condition?: ProtoCond; stmt: ProtoStmt }[]) {
    const stepResults: (ProtoStmtResult | null)[] = [];
    const stepErrors: (ProtoError | null)[] = [];
    const holds = (cond: ProtoCond): boolean => {
      switch (cond.type) {
        case 'ok':
          return stepResults[cond.step] != null;
        case 'error':
          return stepErrors[cond.step] != null;
        case 'not':
          return !holds(cond.cond);
        case 'and':
          return cond.conds.every(holds);
        case 'or':
          return cond.conds.some(holds);
        case 'is_autocommit':
          return !db.inTransaction;
        default:
          throw new RequestError('INVALID_REQUEST', `Unknown batch condition ${JSON.stringify((cond as { type?: unknown }).type)}`);
      }
    };
    for (const step of steps) {
      if (step.condition && !holds(step.condition)) {
        stepResults.push(null);
        stepErrors.push(null);
        continue;
      }
      try {
        stepResults.push(execute(stream, step.stmt));
        stepErrors.push(null);
      } catch (err) {
        stepResults.push(null);
        stepErrors.push(asRequestError(err));
      }
    }
    return { step_results: stepResults, step_errors: stepErrors };
  }

  function describe(stream: Stream, request: StreamRequest) {
    const sql = sqlOf(stream, request);
    const prepared = db.prepare(sql);
    let cols: { name: string; decltype: string | null }[] = [];
    try {
      prepared.raw(true);
      cols = prepared.columns().map((c) => ({ name: c.name, decltype: c.type }));
    } catch {
      cols = [];
    }
    const isExplain = /^\s*explain\b/i.test(stripComments(sql));
    // sqlite3_stmt_readonly: a statement that opens a write transaction (Transaction p2 != 0) writes.
    let isReadonly = true;
    if (!isExplain) {
      const plan = db.prepare(`EXPLAIN ${sql}`);
      plan.raw(true);
      const columns = plan.columns().map((c) => c.name);
      const opcode = columns.indexOf('opcode');
      const p2 = columns.indexOf('p2');
      for (const row of plan.all() as unknown[][]) {
        if (row[opcode] === 'Transaction' && Number(row[p2]) !== 0) isReadonly = false;
      }
    }
    return { params: parameterNames(sql).map((name) => ({ name })), cols, is_explain: isExplain, is_readonly: isReadonly };
  }

  function handle(stream: Stream, request: StreamRequest, version: number) {
    switch (request.type) {
      case 'execute':
        return { type: 'execute', result: execute(stream, request.stmt as ProtoStmt) };
      case 'batch':
        return { type: 'batch', result: batch(stream, (request.batch as { steps: { condition?: ProtoCond; stmt: ProtoStmt }[] }).steps) };
      case 'sequence':
        db.exec(sqlOf(stream, request));
        return { type: 'sequence' };
      case 'describe':
        return { type: 'describe', result: describe(stream, request) };
      case 'store_sql': {
        if (typeof request.sql_id !== 'number' || typeof request.sql !== 'string')
          throw new RequestError('INVALID_REQUEST', 'store_sql needs sql_id and sql');
        if (stream.sqls.has(request.sql_id)) throw new RequestError('SQL_ID_IN_USE', `SQL id ${request.sql_id} is already stored`);
        stream.sqls.set(request.sql_id, request.sql);
        return { type: 'store_sql' };
      }
      case 'close_sql':
        stream.sqls.delete(request.sql_id as number);
        return { type: 'close_sql' };
      case 'get_autocommit':
        if (version < 3) throw new RequestError('INVALID_REQUEST', 'get_autocommit needs Hrana 3');
        return { type: 'get_autocommit', is_autocommit: !db.inTransaction };
      case 'close':
        closeStream(stream);
        return { type: 'close' };
      default:
        throw new RequestError('INVALID_REQUEST', `Unknown request type ${JSON.stringify(request.type)}`);
    }
  }

  async function pipeline(body: unknown, version: number) {
    const { baton, requests: list } = (body ?? {}) as { baton?: unknown; requests?: unknown };
    if (!Array.isArray(list) || list.some((r) => typeof r !== 'object' || r === null || typeof (r as StreamRequest).type !== 'string')) {
      throw new HttpError(400, 'INVALID_REQUEST', 'Body must be { baton?, requests: [{ type, ... }] }');
    }
    let stream: Stream;
    if (baton === undefined || baton === null) {
      stream = { id: nextStreamId++, sqls: new Map(), closed: false };
    } else {
      const found = typeof baton === 'string' ? streams.get(baton) : undefined;
      if (!found)
        throw new HttpError(
          400,
          'STREAM_EXPIRED',
          'Unknown or expired baton: the stream was closed, timed out or its baton was already used',
        );
      streams.delete(baton as string);
      clearTimeout(found.timer);
      stream = found;
    }
    await acquire(stream);
    if (stream.closed) throw new HttpError(400, 'STREAM_EXPIRED', 'The stream timed out while waiting');
    const results = (list as StreamRequest[]).map((request) => {
      if (stream.closed) return { type: 'error', error: { message: 'The stream is closed', code: 'STREAM_CLOSED' } };
      try {
        return { type: 'ok', response: handle(stream, request, version) };
      } catch (err) {
        return { type: 'error', error: asRequestError(err) };
      }
    });
    settleOwnership(stream);
    return { baton: stream.closed ? null : issueBaton(stream), base_url: null, results };
  }

  async function readBody(req: IncomingMessage): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY_BYTES) throw new HttpError(413, 'BODY_TOO_LARGE', 'Request body too large');
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }

  function send(res: ServerResponse, status: number, body: unknown) {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  }

  async function route(req: IncomingMessage, res: ServerResponse) {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    requests[path] = (requests[path] ?? 0) + 1;
    if (options.authToken !== undefined && req.headers.authorization !== `Bearer ${options.authToken}`) {
      throw new HttpError(401, 'UNAUTHORIZED', 'Missing or wrong Authorization bearer token');
    }
    if (req.method === 'GET' && (path === '/' || path === '/health' || path === '/v2' || path === '/v3')) {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
      return;
    }
    const version = path === '/v2/pipeline' ? 2 : path === '/v3/pipeline' ? 3 : 0;
    if (req.method === 'POST' && version) {
      let body: unknown;
      try {
        body = JSON.parse(await readBody(req));
      } catch (err) {
        if (err instanceof HttpError) throw err;
        throw new HttpError(400, 'INVALID_JSON', 'Body is not JSON');
      }
      send(res, 200, await pipeline(body, version));
      return;
    }
    // /v3-protobuf (the client's version probe), /v3/cursor and anything else: not spoken here.
    throw new HttpError(404, 'NOT_FOUND', `${req.method} ${path} is not served by this Hrana test server`);
  }

  const server = createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (err instanceof HttpError) send(res, err.status, { message: err.message, code: err.code });
      else send(res, 500, { message: String((err as Error)?.message ?? err), code: 'INTERNAL' });
    });
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `http://${host}:${port}`,
    path,
    stats: {
      requests,
      openStreams: () => streams.size,
      waiting: () => waiters.length,
      pipelines: () => (requests['/v2/pipeline'] ?? 0) + (requests['/v3/pipeline'] ?? 0),
    },
    close: async () => {
      for (const stream of streams.values()) closeStream(stream);
      streams.clear();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      db.close();
      if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    },
  };
}

function stripComments(sql: string): string {
  return sql.replace(/--[^\n]*|\/\*[\s\S]*?\*\//g, ' ');
}

/** Bound parameter names in order, as sqlite3_bind_parameter_name reports them (null for a bare ?). */
function parameterNames(sql: string): (string | null)[] {
  const names: (string | null)[] = [];
  const seen = new Set<string>();
  const withoutLiterals = stripComments(sql).replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]/g, ' ');
  for (const match of withoutLiterals.matchAll(/\?(\d*)|[:@$][A-Za-z_][A-Za-z0-9_]*/g)) {
    const token = match[0];
    if (token === '?') {
      names.push(null);
    } else if (token.startsWith('?')) {
      const index = Number(match[1]);
      while (names.length < index) names.push(null);
      names[index - 1] = token;
    } else if (!seen.has(token)) {
      seen.add(token);
      names.push(token);
    }
  }
  return names;
}
