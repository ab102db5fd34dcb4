// Node host: keep libSQL's prepared statements (docs/decisions/1013-prepared-statement-cache.md).
//
// @libsql/client's local client prepares every statement again on every call (its executeStmt calls
// Database.prepare, then Statement.columns twice), so a comment POST compiled its dozen statements, a recursive
// thread query among them, each time: about a quarter of the request's CPU. SQLite statements are made to be
// reused: this keeps the newest STATEMENTS_PER_CONNECTION of each connection by their SQL text and hands the same
// statement back. It is safe because the client runs each statement to its end synchronously (`all` or `run`,
// which reset it first), one at a time per connection, and SQLite re-prepares a kept statement by itself when the
// schema changes (a migration). Columns are read once per kept statement: drizzle names every column it selects,
// so a statement's columns cannot change while its text stays the same; a statement that returns no rows refuses raw
// mode at once.
import Database from 'libsql';

export const STATEMENTS_PER_CONNECTION = 512;

interface KeptStatement {
  readonly reader: boolean;
  columns(): unknown[];
  raw(on?: boolean): KeptStatement;
}
type Prepare = (this: object, sql: string) => KeptStatement;

let installed = false;

/** Installs the cache on libSQL's Database once per process (idempotent). */
export function keepPreparedStatements(): void {
  if (installed) return;
  installed = true;
  const proto = Database.prototype as unknown as { prepare: Prepare };
  const prepare = proto.prepare;
  const kept = new WeakMap<object, Map<string, KeptStatement>>();
  proto.prepare = function keptPrepare(sql) {
    let statements = kept.get(this);
    if (!statements) {
      statements = new Map();
      kept.set(this, statements);
    }
    const hit = statements.get(sql);
    if (hit) {
      // Newest last: the first key is the one least recently used.
      statements.delete(sql);
      statements.set(sql, hit);
      return hit;
    }
    const statement = prepare.call(this, sql);
    const columns = statement.columns.bind(statement);
    let known: unknown[] | undefined;
    statement.columns = () => (known ??= columns());
    // The client asks every statement for raw rows and takes the refusal as "returns no rows": for a write, refuse
    // with one error made once rather than a native error converted on every call.
    if (!statement.reader) {
      const refusal = new TypeError('The statement returns no rows');
      statement.raw = () => {
        throw refusal;
      };
    }
    statements.set(sql, statement);
    if (statements.size > STATEMENTS_PER_CONNECTION) statements.delete(statements.keys().next().value!);
    return statement;
  };
}
