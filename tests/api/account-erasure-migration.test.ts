// The account_erasure migration rebuilds payments and subscriptions (SQLite changes a foreign key only by a
// table rebuild) so that deleting a member sets their orders' user_id null instead of deleting them. The
// rebuild must keep every row and every link a database already holds (docs/decisions/1041).
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { migrate } from 'drizzle-orm/libsql/migrator';
import { MIGRATIONS_DIR, openDatabase } from '../../worker/db/node-client';
import { migrationsBefore } from '../helpers/migrations';
import { bankTransactions, payments, subscriptions, users } from '../../worker/db/schema';

const TAG = '20261128025057_account_erasure';

describe('account_erasure migration', () => {
  it('keeps every order, subscription and bank link, and then a deleted member no longer deletes them', async () => {
    // The migrations as they were before this one.
    const before = migrationsBefore(TAG);
    try {
      const database = openDatabase(':memory:');
      await database.client.execute('PRAGMA foreign_keys = ON');
      await migrate(database.db, { migrationsFolder: before.folder });
      const { client } = database;
      await client.execute("insert into users (id, email, username, created_at, updated_at) values (7, 'a@example.com', 'A', 1, 1)");
      await client.execute(
        "insert into payments (id, user_id, plan, months, amount, gateway, txn_ref, status, created_at) values (3, 7, 'VIP1', 1, 50000, 'bank_transfer', 'R-3', 'paid', 1)",
      );
      await client.execute(
        "insert into subscriptions (id, user_id, plan, payment_id, starts_at, expires_at, created_at) values (5, 7, 'VIP1', 3, 1, 2, 1)",
      );
      await client.execute(
        "insert into bank_transactions (id, provider_id, gateway, transaction_date, account_number, content, transfer_type, transfer_amount, reference_code, raw, status, payment_id, received_at) values (9, 'p9', 'VCB', 'd', '1', 'c', 'in', 50000, 'r', '{}', 'matched', 3, 1)",
      );

      await migrate(database.db, { migrationsFolder: MIGRATIONS_DIR });
      const { db } = database;
      expect(await db.select({ id: payments.id, userId: payments.userId, ref: payments.txnRef }).from(payments)).toEqual([
        { id: 3, userId: 7, ref: 'R-3' },
      ]);
      expect(
        await db.select({ id: subscriptions.id, userId: subscriptions.userId, paymentId: subscriptions.paymentId }).from(subscriptions),
      ).toEqual([{ id: 5, userId: 7, paymentId: 3 }]);
      expect(await db.select({ paymentId: bankTransactions.paymentId }).from(bankTransactions)).toEqual([{ paymentId: 3 }]);
      expect((await client.execute('PRAGMA foreign_key_check')).rows).toHaveLength(0);

      await db.delete(users).where(eq(users.id, 7));
      expect(await db.select({ userId: payments.userId }).from(payments)).toEqual([{ userId: null }]);
      expect(await db.select({ userId: subscriptions.userId }).from(subscriptions)).toEqual([{ userId: null }]);
      expect(await db.select({ paymentId: bankTransactions.paymentId }).from(bankTransactions)).toEqual([{ paymentId: 3 }]);
      client.close();
    } finally {
      before.remove();
    }
  });
});
