import { inArray } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../../db/schema';
import { hashPassword } from './password';
import { consentForNewAccount } from '../privacy/consent';

export interface DemoAccount {
  /** Short name for the start script's listing: admin, VIP1, VIP2, user. */
  label: string;
  email: string;
  password: string;
  name: string;
  roles: string[];
  permissions: string[];
}

/** Known accounts for local demos only; the start script never seeds them when APP_ENV is production. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  { label: 'admin', email: 'admin@phimviet.local', password: 'admin-demo-123', name: 'Quản trị viên', roles: ['admin'], permissions: [] },
  {
    label: 'VIP1',
    email: 'vip1@phimviet.local',
    password: 'vip1-demo-123',
    name: 'Thành viên VIP 1',
    roles: ['user'],
    permissions: ['VIP1'],
  },
  {
    label: 'VIP2',
    email: 'vip2@phimviet.local',
    password: 'vip2-demo-123',
    name: 'Thành viên VIP 2',
    roles: ['user'],
    permissions: ['VIP2'],
  },
  { label: 'user', email: 'user@phimviet.local', password: 'user-demo-123', name: 'Người xem', roles: ['user'], permissions: [] },
];

/**
 * Creates the demo accounts that are missing and returns every demo credential. Idempotent: an
 * existing demo account (maybe with roles changed in the admin UI since) is left as it is.
 */
export async function seedDemoAccounts(db: Db): Promise<DemoAccount[]> {
  const existing = await db
    .select({ email: users.email })
    .from(users)
    .where(
      inArray(
        users.email,
        DEMO_ACCOUNTS.map((a) => a.email),
      ),
    );
  const have = new Set(existing.map((u) => u.email));
  const missing = DEMO_ACCOUNTS.filter((a) => !have.has(a.email));
  if (missing.length > 0) {
    const rows = await Promise.all(
      missing.map(async (a) => ({
        email: a.email,
        username: a.name,
        passwordHash: await hashPassword(a.password),
        roles: a.roles.join(','),
        permissions: a.permissions.join(','),
      })),
    );
    await db.insert(users).values(rows).onConflictDoNothing({ target: users.email });
    // A demo account stands for a member who signed up ticking the privacy box: it has that consent on record.
    const now = Date.now();
    for (const a of missing) await consentForNewAccount(db, a.email, 'sign_up', now);
  }
  return DEMO_ACCOUNTS.map((a) => ({ ...a, roles: [...a.roles], permissions: [...a.permissions] }));
}
