// Bank transfers that confirm themselves (issue 27): SePay's webhook as SePay documents it (JSON body,
// `Authorization: Apikey <key>`, answer {"success": true}), the payment code in the note, replays and
// concurrent duplicates, "Giao dịch chưa khớp" and an admin's attach / dismiss, all audited.
import { eq, sql } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLog, bankTransactions, payments, subscriptions } from '../../worker/db/schema';
import type { AdminBankTransactionsResponse, AdminOrdersResponse, BankTransferResponse, Order } from '../../worker/schemas/vip';
import { runScheduledJobs } from '../../worker/scheduled';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, fakeClock, signedInUser } from '../helpers/auth';

const START = Date.UTC(2026, 0, 15, 5, 0, 0);
const DAY = 24 * 60 * 60 * 1000;
const WEBHOOK = '/api/payment/sepay-webhook';

let t: TestApp;
let clock: ReturnType<typeof fakeClock>;

beforeEach(async () => {
  clock = fakeClock(START);
  t = await createTestApp({ now: clock.now });
});

const key = () => t.deps.config.SEPAY_API_KEY as string;
const account = () => t.deps.config.BANK_ACCOUNT_NUMBER as string;

async function buyer() {
  const user = await signedInUser(t);
  return { ...user, auth: bearer(user.session.token) };
}

async function admin() {
  const user = await buyer();
  await t.deps.db.run(sql`update users set roles = 'user,admin' where id = ${user.id}`);
  return user;
}

async function bankTransfer(auth: Record<string, string>, plan = 'VIP1', months = 3): Promise<BankTransferResponse> {
  const res = await t.request('/api/product/bank_transfer', { json: { plan, months }, headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as BankTransferResponse;
}

let nextId = 92_700;
/** A notification as SePay posts it, for an incoming transfer to the configured account. */
function notification(overrides: Record<string, unknown> = {}) {
  nextId += 1;
  return {
    id: nextId,
    gateway: 'Vietcombank',
    transactionDate: '2026-01-15 12:05:00',
    accountNumber: account(),
    code: null,
    content: 'chuyen tien',
    transferType: 'in',
    transferAmount: 207_000,
    accumulated: 19_077_000,
    subAccount: null,
    referenceCode: `MBVCB.${3278907687 + nextId}`,
    description: '',
    ...overrides,
  };
}

const deliver = (body: unknown, authorization: string | null = `Apikey ${key()}`) =>
  t.request(WEBHOOK, { json: body, headers: authorization === null ? {} : { authorization } });

async function delivered(body: unknown) {
  const res = await deliver(body);
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ success: true });
}

async function order(auth: Record<string, string>, orderId: string): Promise<Order> {
  const res = await t.request(`/api/vip/orders/${orderId}`, { headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as Order;
}

/** The order's status in the database (a test that moves the clock days ahead outlives the access token). */
const statusOf = async (orderId: string) => (await t.deps.db.select().from(payments).where(eq(payments.txnRef, orderId)))[0]?.status;

const count = async (table: typeof subscriptions | typeof bankTransactions) =>
  (await t.deps.db.select({ n: sql<number>`count(*)` }).from(table))[0]?.n;
const audits = (action: string) => t.deps.db.select().from(auditLog).where(eq(auditLog.action, action));

async function unmatched(auth: Record<string, string>) {
  const res = await t.request('/api/admin/bank-transactions', { headers: auth });
  expect(res.status).toBe(200);
  return (await res.json()) as AdminBankTransactionsResponse;
}

describe('the payment code', () => {
  it('is the whole note: PV and 8 characters without look-alikes, unique per order, shown to the admin', async () => {
    const user = await buyer();
    const codes = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const details = await bankTransfer(user.auth, 'VIP1', 1);
      expect(details.paymentCode).toMatch(/^PV[23456789ABCDEFGHJKMNPQRSTUVWXYZ]{8}$/);
      expect(details.note).toBe(details.paymentCode);
      expect(details.paymentCode.length).toBeLessThanOrEqual(19);
      expect(details.autoConfirm).toBe(true);
      codes.add(details.paymentCode);
      expect((await order(user.auth, details.orderId)).paymentCode).toBe(details.paymentCode);
    }
    expect(codes.size).toBe(5);
    const boss = await admin();
    const listed = (await (
      await t.request('/api/admin/orders?method=bank_transfer', { headers: boss.auth })
    ).json()) as AdminOrdersResponse;
    expect(new Set(listed.data.map((o) => o.paymentCode))).toEqual(codes);
    // The database refuses a second order with the same code (createOrder draws again on that clash).
    const [first] = await t.deps.db.select().from(payments).limit(1);
    await expect(
      t.deps.db.insert(payments).values({ ...first!, id: undefined, txnRef: 'f'.repeat(32), paymentCode: first!.paymentCode }),
    ).rejects.toThrow();
  });
});

describe('POST /api/payment/sepay-webhook: who may call it and what it takes', () => {
  it('a wrong, missing or differently-schemed key is 401 and stores nothing', async () => {
    for (const authorization of [null, 'Apikey wrong-key-0123456789', `Bearer ${key()}`, `Apikey ${key()}x`, 'Apikey ']) {
      const res = await deliver(notification(), authorization);
      expect(res.status).toBe(401);
      expect((await errorOf(res)).code).toBe('unauthorized');
    }
    expect(await count(bankTransactions)).toBe(0);
  });

  it('bad bodies are a 4xx naming the field, never a 500, and store nothing', async () => {
    const auth = { authorization: `Apikey ${key()}`, 'content-type': 'application/json' };
    const malformed = await t.request(WEBHOOK, { method: 'POST', headers: auth, body: '{"id": 1,' });
    expect(malformed.status).toBe(400);
    expect((await errorOf(malformed)).message).toMatch(/body/);
    const cases: [Record<string, unknown>, string][] = [
      [{ transferAmount: '207000' }, 'transferAmount'],
      [{ transferAmount: undefined }, 'transferAmount'],
      [{ transferAmount: 1.5 }, 'transferAmount'],
      [{ transferType: 'sideways' }, 'transferType'],
      [{ id: 'abc' }, 'id'],
      [{ id: undefined }, 'id'],
      [{ accountNumber: 42 }, 'accountNumber'],
      [{ content: null }, 'content'],
      [{ code: 12 }, 'code'],
    ];
    for (const [change, field] of cases) {
      const res = await deliver(notification(change));
      expect(res.status, field).toBe(400);
      expect((await errorOf(res)).message.startsWith(`${field}:`), field).toBe(true);
    }
    for (const body of [[], 'text', 7]) expect((await deliver(body)).status).toBe(400);
    const huge = await deliver(notification({ content: 'x'.repeat(70 * 1024) }));
    expect(huge.status).toBe(413);
    expect(await count(bankTransactions)).toBe(0);
  });

  it('without SEPAY_API_KEY it answers 503 and the bank page says transfers are confirmed by hand', async () => {
    t = await createTestApp({ now: clock.now, config: { SEPAY_API_KEY: undefined } });
    const res = await t.request(WEBHOOK, { json: notification(), headers: { authorization: 'Apikey anything-at-all-123' } });
    expect(res.status).toBe(503);
    expect((await errorOf(res)).code).toBe('payment_unavailable');
    const user = await buyer();
    expect((await bankTransfer(user.auth)).autoConfirm).toBe(false);
  });
});

describe('a matching transfer pays the order once', () => {
  it('the code inside the bank words, in lower case: paid, VIP granted, audited with the notification; a replay changes nothing', async () => {
    const user = await buyer();
    const details = await bankTransfer(user.auth);
    const body = notification({
      content: `MBVCB.3278907687.${details.paymentCode.toLowerCase()}.CT tu 0011223344 NGUYEN VAN A toi ${account()}`,
    });
    await delivered(body);
    const paid = await order(user.auth, details.orderId);
    expect(paid).toMatchObject({ status: 'paid', transactionNo: `sepay:${body.id}`, paidAt: START });
    expect(paid.expiresAt).toBe(Date.UTC(2026, 3, 15, 5, 0, 0));
    const me = (await (await t.request('/api/account', { headers: user.auth })).json()) as { permissions: string[] };
    expect(me.permissions).toContain('VIP1');
    const [entry, ...more] = await audits('order.bank_confirm');
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actorId: null, actorEmail: `sepay:${body.id}`, target: details.orderId });
    expect(JSON.parse(entry!.after!)).toMatchObject({
      status: 'paid',
      amount: 207_000,
      paymentCode: details.paymentCode,
      confirmedBy: 'SePay',
      bankNotification: { id: String(body.id), referenceCode: body.referenceCode },
    });
    const [stored] = await t.deps.db.select().from(bankTransactions);
    expect(stored).toMatchObject({ status: 'matched', matchedCode: details.paymentCode, providerId: String(body.id) });
    expect(JSON.parse(stored!.raw)).toEqual(body);

    // SePay retries (up to 7 times): the same id changes nothing.
    clock.advance(60_000);
    for (let i = 0; i < 3; i++) await delivered(body);
    expect(await count(subscriptions)).toBe(1);
    expect(await count(bankTransactions)).toBe(1);
    expect(await audits('order.bank_confirm')).toHaveLength(1);
    expect((await order(user.auth, details.orderId)).paidAt).toBe(START);
  });

  it('the code in SePay`s own `code` field, separators dropped by the bank, pays too', async () => {
    const user = await buyer();
    const details = await bankTransfer(user.auth);
    await delivered(notification({ code: details.paymentCode, content: 'IBFT 0011223344 chuyen khoan' }));
    expect((await order(user.auth, details.orderId)).status).toBe('paid');
  });

  it('concurrent duplicates of one notification credit once', async () => {
    const user = await buyer();
    const details = await bankTransfer(user.auth);
    const body = notification({ content: details.paymentCode });
    const answers = await Promise.all(Array.from({ length: 6 }, () => deliver(body)));
    for (const res of answers) {
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ success: true });
    }
    expect(await count(subscriptions)).toBe(1);
    expect(await count(bankTransactions)).toBe(1);
    expect(await audits('order.bank_confirm')).toHaveLength(1);
    expect((await order(user.auth, details.orderId)).status).toBe('paid');
  });

  it('two different notifications naming one order: the second lands in "Giao dịch chưa khớp"', async () => {
    const user = await buyer();
    const details = await bankTransfer(user.auth);
    await delivered(notification({ content: details.paymentCode }));
    await delivered(notification({ content: details.paymentCode }));
    expect(await count(subscriptions)).toBe(1);
    const boss = await admin();
    expect((await unmatched(boss.auth)).data.map((x) => x.reason)).toEqual(['order_not_pending']);
  });
});

describe('what pays nothing', () => {
  it('money out and other accounts are stored and ignored, even with a valid code', async () => {
    const user = await buyer();
    const details = await bankTransfer(user.auth);
    await delivered(notification({ content: details.paymentCode, transferType: 'out' }));
    await delivered(notification({ content: details.paymentCode, accountNumber: '9999888877' }));
    expect((await order(user.auth, details.orderId)).status).toBe('pending');
    expect(await count(subscriptions)).toBe(0);
    const rows = await t.deps.db.select().from(bankTransactions);
    expect(rows.map((r) => [r.status, r.reason])).toEqual([
      ['ignored', 'money_out'],
      ['ignored', 'other_account'],
    ]);
    const boss = await admin();
    expect((await unmatched(boss.auth)).data).toEqual([]);
  });

  it('less, more, an unknown code, no code or an expired order: "Giao dịch chưa khớp", nothing paid', async () => {
    const user = await buyer();
    const expired = await bankTransfer(user.auth, 'VIP1', 1);
    clock.advance(8 * DAY);
    await runScheduledJobs(t.deps);
    expect(await statusOf(expired.orderId)).toBe('cancelled');
    const user2 = await buyer();
    const details = await bankTransfer(user2.auth);
    await delivered(notification({ content: details.paymentCode, transferAmount: 206_000 }));
    await delivered(notification({ content: details.paymentCode, transferAmount: 208_000 }));
    await delivered(notification({ content: 'PV7K3D9Q2CZ chuyen tien' }));
    await delivered(notification({ content: 'chuyen tien xem phim' }));
    await delivered(notification({ content: expired.paymentCode, transferAmount: 69_000 }));
    expect(await statusOf(details.orderId)).toBe('pending');
    expect(await count(subscriptions)).toBe(0);
    const boss = await admin();
    const list = await unmatched(boss.auth);
    expect(list.data.map((x) => x.reason).sort()).toEqual([
      'amount_mismatch',
      'amount_mismatch',
      'no_code',
      'order_not_pending',
      'unknown_code',
    ]);
    const short = list.data.find((x) => x.amount === 206_000);
    expect(short).toMatchObject({
      status: 'unmatched',
      matchedCode: details.paymentCode,
      order: { orderId: details.orderId, amount: 207_000 },
    });
    expect(list.data.find((x) => x.reason === 'unknown_code')?.matchedCode).toBe('PV7K3D9Q2C');
    expect((await t.request('/api/admin/bank-transactions', { headers: user2.auth })).status).toBe(403);
    expect((await t.request('/api/admin/bank-transactions?status=nope', { headers: boss.auth })).status).toBe(400);
  });
});

describe('an admin resolves "Giao dịch chưa khớp"', () => {
  it('attach pays the order with the admin as author and the notification as evidence; once', async () => {
    const user = await buyer();
    const details = await bankTransfer(user.auth);
    const body = notification({ content: `${details.paymentCode} thieu`, transferAmount: 200_000 });
    await delivered(body);
    const boss = await admin();
    const [tx] = (await unmatched(boss.auth)).data;
    const attach = (id: number, orderId: unknown) =>
      t.request(`/api/admin/bank-transactions/${id}/attach`, { json: { orderId }, headers: boss.auth });
    expect((await t.request(`/api/admin/bank-transactions/${tx!.id}/attach`, { json: { orderId: details.orderId } })).status).toBe(401);
    expect((await attach(tx!.id, 'not-a-code')).status).toBe(400);
    expect((await attach(tx!.id, 'PV22222222')).status).toBe(404);
    expect((await attach(999, details.orderId)).status).toBe(404);
    const ok = await attach(tx!.id, details.paymentCode.toLowerCase());
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ ok: true, orderId: details.orderId, paymentCode: details.paymentCode });
    expect((await order(user.auth, details.orderId)).status).toBe('paid');
    const [entry, ...more] = await audits('bank_transaction.attach');
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actorId: boss.id, actorEmail: boss.email, target: details.orderId });
    expect(JSON.parse(entry!.after!)).toMatchObject({
      confirmedBy: boss.email,
      bankNotification: { id: String(body.id), referenceCode: body.referenceCode },
    });
    expect((await attach(tx!.id, details.orderId)).status).toBe(409);
    expect(await count(subscriptions)).toBe(1);
    expect((await unmatched(boss.auth)).data).toEqual([]);
    const attached = (await (
      await t.request('/api/admin/bank-transactions?status=attached', { headers: boss.auth })
    ).json()) as AdminBankTransactionsResponse;
    expect(attached.data[0]).toMatchObject({
      id: tx!.id,
      resolvedBy: { id: boss.id, email: boss.email },
      order: { orderId: details.orderId, status: 'paid' },
    });
  });

  it('a transfer that came after its order expired can be attached to it', async () => {
    const user = await buyer();
    const details = await bankTransfer(user.auth);
    clock.advance(8 * DAY);
    await runScheduledJobs(t.deps);
    await delivered(notification({ content: details.paymentCode }));
    const boss = await admin();
    const [tx] = (await unmatched(boss.auth)).data;
    expect(tx?.reason).toBe('order_not_pending');
    const ok = await t.request(`/api/admin/bank-transactions/${tx!.id}/attach`, { json: { orderId: details.orderId }, headers: boss.auth });
    expect(ok.status).toBe(200);
    expect(await statusOf(details.orderId)).toBe('paid');
    expect(await count(subscriptions)).toBe(1);
  });

  it('dismiss needs a reason, is audited, and leaves the list', async () => {
    await delivered(notification({ content: 'tien nha thang 1' }));
    const boss = await admin();
    const [tx] = (await unmatched(boss.auth)).data;
    const dismiss = (reason: unknown) =>
      t.request(`/api/admin/bank-transactions/${tx!.id}/dismiss`, { json: { reason }, headers: boss.auth });
    const refused = await dismiss('');
    expect(refused.status).toBe(400);
    expect((await errorOf(refused)).message).toMatch(/^reason:/);
    expect((await dismiss('Không phải tiền mua gói')).status).toBe(200);
    expect((await dismiss('lần nữa')).status).toBe(409);
    expect((await unmatched(boss.auth)).data).toEqual([]);
    const [entry, ...more] = await audits('bank_transaction.dismiss');
    expect(more).toEqual([]);
    expect(entry).toMatchObject({ actorId: boss.id, actorEmail: boss.email });
    expect(JSON.parse(entry!.after!)).toEqual({ status: 'dismissed', resolution: 'Không phải tiền mua gói' });
  });
});

describe('admin confirmation stays for transfers that came without notification', () => {
  it('an admin confirms a pending transfer; a later notification for it pays nothing more', async () => {
    const user = await buyer();
    const details = await bankTransfer(user.auth);
    const boss = await admin();
    expect((await t.request(`/api/admin/orders/${details.orderId}/confirm`, { method: 'POST', headers: boss.auth })).status).toBe(200);
    await delivered(notification({ content: details.paymentCode }));
    expect(await count(subscriptions)).toBe(1);
    expect(await audits('order.confirm')).toHaveLength(1);
    expect(await audits('order.bank_confirm')).toHaveLength(0);
  });
});
