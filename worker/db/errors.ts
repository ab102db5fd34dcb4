/** True when the database refused a write for a unique constraint (libSQL wraps the SQLite error in causes). */
export function isUniqueViolation(err: unknown): boolean {
  for (let e: unknown = err; e; e = (e as { cause?: unknown }).cause) {
    if (e instanceof Error && /UNIQUE constraint failed/i.test(e.message)) return true;
  }
  return false;
}
