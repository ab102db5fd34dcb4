import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../worker/db/schema';
import { seedDemoAccounts } from '../../worker/services/auth/demo-accounts';
import { createTestApp } from '../helpers/app';
import { login } from '../helpers/auth';

describe('seedDemoAccounts', () => {
  it('creates admin, VIP1, VIP2 and a plain user whose printed credentials sign in with those rights', async () => {
    const t = await createTestApp();
    const accounts = await seedDemoAccounts(t.deps.db);
    expect(accounts.map((a) => [a.label, a.email, a.roles, a.permissions])).toEqual([
      ['admin', 'admin@phimviet.local', ['admin'], []],
      ['VIP1', 'vip1@phimviet.local', ['user'], ['VIP1']],
      ['VIP2', 'vip2@phimviet.local', ['user'], ['VIP2']],
      ['user', 'user@phimviet.local', ['user'], []],
    ]);
    for (const account of accounts) {
      const session = await login(t, account);
      expect(session).toMatchObject({ email: account.email, roles: account.roles, permissions: account.permissions });
    }
  });

  it('is idempotent: a second run creates nothing and leaves changed accounts as they are', async () => {
    const t = await createTestApp();
    await seedDemoAccounts(t.deps.db);
    await t.deps.db.update(users).set({ permissions: 'VIP1' }).where(eq(users.email, 'user@phimviet.local'));
    const before = await t.deps.db.select().from(users).orderBy(users.id);
    const again = await seedDemoAccounts(t.deps.db);
    expect(again).toHaveLength(4);
    expect(await t.deps.db.select().from(users).orderBy(users.id)).toEqual(before);
  });
});
