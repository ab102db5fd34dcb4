// drizzle's migrator runs only journal entries newer than the newest applied one: an entry merged in with an
// older `when` would be skipped on every database already past it, silently (drizzle-orm #5316, #5769).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../worker/db/node-client';

interface JournalEntry {
  idx: number;
  when: number;
  tag: string;
}

const journal = JSON.parse(readFileSync(join(MIGRATIONS_DIR, 'meta/_journal.json'), 'utf8')) as { entries: JournalEntry[] };

describe('the migrations journal', () => {
  it('has timestamps that only increase, so no migration is ever skipped', () => {
    const late = journal.entries.filter((entry, i) => i > 0 && entry.when <= journal.entries[i - 1]!.when);
    expect(late.map((entry) => entry.tag)).toEqual([]);
  });

  it('names each migration once, with its SQL file present', () => {
    const tags = journal.entries.map((entry) => entry.tag);
    expect(new Set(tags).size).toBe(tags.length);
    expect(tags.filter((tag) => !existsSync(join(MIGRATIONS_DIR, `${tag}.sql`)))).toEqual([]);
  });
});
