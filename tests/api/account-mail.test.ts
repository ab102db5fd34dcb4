// Verified addresses, address changes, receipts of every way an order gets paid, VIP reminders, header
// injection and the outbox's retries, against a real SMTP server started by the test.
import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox, users } from '../../worker/db/schema';
import { runScheduledJobs } from '../../worker/scheduled';
import { MAX_ATTEMPTS, deliverMail } from '../../worker/services/mail/outbox';
import { assertSafeHeaders, MailHeaderError } from '../../worker/services/mail/message';
import { createOrder } from '../../worker/services/payments/orders';
import { RECOVERY_MESSAGES } from '../../worker/schemas/account-texts';
import { AUTH_MESSAGES } from '../../worker/schemas/values';
import type { BankTransferResponse, GatewayOrderResponse } from '../../worker/schemas/vip';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, fakeClock, login, signedInUser } from '../helpers/auth';
import { linkIn, startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';

const START = Date.UTC(2026, 0, 15, 5, 0, 0);
const DAY = 86_400_000;
let smtp: TestSmtpServer;
let t: TestApp;
let clock: ReturnType<typeof fakeClock>;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());
beforeEach(async () => {
  smtp.mode = 'accept';
  smtp.received.length = 0;
  clock = fakeClock(START);
  t = await createTestApp({ now: clock.now, config: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://phimviet.example' } });
});

let ipCounter = 0;
const ip = () => `198.18.0.${(ipCounter++ % 250) + 1}`;
const account = async (token: string) =>
  (await (await t.request('/api/account', { headers: bearer(token) })).json()) as { email: string; emailVerified: boolean };
const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';
const mailsTo = (to: string) => smtp.received.filter((m) => m.to.includes(to));

describe('verified addresses', () => {
  it('sign-up mails a link; the account is "Chưa xác minh" until it is opened; the link works once', async () => {
    const email = 'moi@example.com';
    const res = await t.request('/api/dang-ky', {
      json: { email, name: 'Người Mới', password: 'mat-khau-123', acceptPrivacy: true },
      headers: { 'x-forwarded-for': ip() },
    });
    expect(res.status).toBe(201);
    expect((await res.json()).user.emailVerified).toBe(false);
    await t.background();
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe('Xác minh địa chỉ email của bạn trên PhimViet');
    const link = linkIn(mail, '/xac-minh-email?token=');
    expect(link.startsWith('https://phimviet.example/xac-minh-email?token=')).toBe(true);
    const session = await login(t, { email, password: 'mat-khau-123' });
    expect((await account(session.token)).emailVerified).toBe(false);

    const verified = await t.request('/api/auth/verify-email', { json: { token: tokenOf(link) } });
    expect(verified.status).toBe(200);
    expect(await verified.json()).toEqual({ ok: true, email, message: RECOVERY_MESSAGES.emailVerified });
    expect((await account(session.token)).emailVerified).toBe(true);
    const again = await t.request('/api/auth/verify-email', { json: { token: tokenOf(link) } });
    expect(await errorOf(again)).toEqual({ code: 'invalid_token', message: `token: ${RECOVERY_MESSAGES.tokenUsed}` });
    // Nothing left to resend.
    const resend = await t.request('/api/account/email/verification', { method: 'POST', headers: bearer(session.token) });
    expect(resend.status).toBe(409);
  });

  it('"Gửi lại" mails a new link and voids the old one; it is limited', async () => {
    const user = await signedInUser(t);
    const send = () => t.request('/api/account/email/verification', { method: 'POST', headers: bearer(user.session.token) });
    expect((await send()).status).toBe(200);
    await t.background();
    const first = tokenOf(linkIn(await smtp.waitFor((m) => m.to.includes(user.email)), '/xac-minh-email?token='));
    smtp.received.length = 0;
    expect((await send()).status).toBe(200);
    await t.background();
    const second = tokenOf(linkIn(await smtp.waitFor((m) => m.to.includes(user.email)), '/xac-minh-email?token='));
    expect((await t.request('/api/auth/verify-email', { json: { token: first } })).status).toBe(400);
    expect((await t.request('/api/auth/verify-email', { json: { token: second } })).status).toBe(200);
    const other = await signedInUser(t);
    for (let i = 0; i < 5; i++)
      expect((await t.request('/api/account/email/verification', { method: 'POST', headers: bearer(other.session.token) })).status).toBe(
        200,
      );
    const flood = await t.request('/api/account/email/verification', { method: 'POST', headers: bearer(other.session.token) });
    expect(flood.status).toBe(429);
    expect((await errorOf(flood)).message).toBe(RECOVERY_MESSAGES.tooManyMails);
  });

  it('changing the address mails a link to the new one and a notice to the old one; links to the old one stop', async () => {
    const user = await signedInUser(t);
    const oldLink = await t.request('/api/auth/forgot-password', { json: { email: user.email }, headers: { 'x-forwarded-for': ip() } });
    expect(oldLink.status).toBe(200);
    await t.background();
    const resetToken = tokenOf(linkIn(await smtp.waitFor((m) => m.to.includes(user.email)), '/dat-lai-mat-khau?token='));

    const noPassword = await t.request('/api/account/email', {
      json: { email: 'moi-hon@example.com' },
      headers: bearer(user.session.token),
    });
    expect(await errorOf(noPassword)).toEqual({ code: 'invalid_input', message: 'currentPassword: is required' });
    const wrong = await t.request('/api/account/email', {
      json: { email: 'moi-hon@example.com', currentPassword: 'sai' },
      headers: bearer(user.session.token),
    });
    expect((await errorOf(wrong)).message).toBe(`currentPassword: ${RECOVERY_MESSAGES.wrongPassword}`);
    const notAnAddress = await t.request('/api/account/email', {
      json: { email: 'khong hop le', currentPassword: user.password },
      headers: bearer(user.session.token),
    });
    expect(await errorOf(notAnAddress)).toEqual({ code: 'invalid_input', message: `email: ${RECOVERY_MESSAGES.invalidEmail}` });
    const other = await signedInUser(t);
    const taken = await t.request('/api/account/email', {
      json: { email: other.email, currentPassword: user.password },
      headers: bearer(user.session.token),
    });
    expect(taken.status).toBe(409);
    expect((await errorOf(taken)).message).toBe(`email: ${AUTH_MESSAGES.emailTaken}`);

    const res = await t.request('/api/account/email', {
      json: { email: 'Moi-Hon@Example.com', currentPassword: user.password },
      headers: bearer(user.session.token),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, email: 'moi-hon@example.com', message: RECOVERY_MESSAGES.emailChanged });
    expect(await account(user.session.token)).toMatchObject({ email: 'moi-hon@example.com', emailVerified: false });
    await t.background();
    const verify = await smtp.waitFor((m) => m.to.includes('moi-hon@example.com'));
    const notice = await smtp.waitFor((m) => m.to.includes(user.email) && m.text.includes('moi-hon@example.com'));
    expect(notice.subject).toBe('Email tài khoản PhimViet của bạn đã được đổi');
    // The reset link mailed to the old address no longer works; the new address's link verifies it.
    const reset = await t.request('/api/auth/reset-password', {
      json: { token: resetToken, password: 'mat-khau-moi-123' },
      headers: { 'x-forwarded-for': ip() },
    });
    expect(reset.status).toBe(400);
    expect((await t.request('/api/auth/verify-email', { json: { token: tokenOf(linkIn(verify, '/xac-minh-email?token=')) } })).status).toBe(
      200,
    );
    expect((await account(user.session.token)).emailVerified).toBe(true);
    await login(t, { email: 'moi-hon@example.com', password: user.password });
  });
});

describe('header injection', () => {
  it('a name carrying CR/LF is refused at sign-up with a Vietnamese message, nothing is created', async () => {
    const res = await t.request('/api/dang-ky', {
      json: { email: 'crlf@example.com', name: 'An\r\nBcc: victim@example.com', password: 'mat-khau-123', acceptPrivacy: true },
      headers: { 'x-forwarded-for': ip() },
    });
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'invalid_input', message: `name: ${RECOVERY_MESSAGES.lineBreak}` });
    expect(await t.deps.db.select().from(users).where(eq(users.email, 'crlf@example.com'))).toHaveLength(0);
    expect(await t.deps.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it('the mail layer refuses a subject, a recipient or a sender with a line break', () => {
    const ok = { from: 'PhimViet <no-reply@phimviet.example>', to: 'a@example.com', subject: 'Xin chào' };
    expect(() => assertSafeHeaders(ok)).not.toThrow();
    expect(() => assertSafeHeaders({ ...ok, subject: 'Xin chào\r\nBcc: x@example.com' })).toThrow(MailHeaderError);
    expect(() => assertSafeHeaders({ ...ok, to: 'a@example.com\nCc: x@example.com' })).toThrow(MailHeaderError);
    expect(() => assertSafeHeaders({ ...ok, from: 'x\r@example.com' })).toThrow(MailHeaderError);
  });

  it('a mail whose stored name carries a line break (an old row) still leaves with one Subject and no extra header', async () => {
    const [row] = await t.deps.db
      .insert(users)
      .values({ email: 'cu@example.com', username: 'Cũ\r\nBcc: x@example.com', passwordHash: 'x' })
      .returning();
    expect(
      (await t.request('/api/auth/forgot-password', { json: { email: row!.email }, headers: { 'x-forwarded-for': ip() } })).status,
    ).toBe(200);
    await t.background();
    const mail = await smtp.waitFor((m) => m.to.includes('cu@example.com'));
    expect(mail.to).toEqual(['cu@example.com']);
    expect(mail.headers).not.toMatch(/^Bcc:/im);
  });
});

// ---- receipts ----

function vnpayIpnQuery(orderId: string, amountVnd: number): URLSearchParams {
  const params: Record<string, string> = {
    vnp_Amount: String(amountVnd * 100),
    vnp_BankCode: 'NCB',
    vnp_PayDate: '20260115120500',
    vnp_ResponseCode: '00',
    vnp_TmnCode: t.deps.config.VNPAY_TMN_CODE as string,
    vnp_TransactionNo: '14123456',
    vnp_TransactionStatus: '00',
    vnp_TxnRef: orderId,
  };
  const keys = Object.keys(params).sort();
  const data = keys.map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(params[k] as string).replace(/%20/g, '+')}`).join('&');
  const query = new URLSearchParams(params);
  query.set(
    'vnp_SecureHash',
    createHmac('sha512', t.deps.config.VNPAY_HASH_SECRET as string)
      .update(data)
      .digest('hex'),
  );
  return query;
}

const receiptsTo = (email: string) => mailsTo(email).filter((m) => m.subject.startsWith('Biên nhận thanh toán'));

describe('receipts', () => {
  it('VNPay: the IPN that pays mails one receipt (plan, amount, gateway, order code, new expiry); a replay mails none', async () => {
    const user = await signedInUser(t);
    const res = await t.request('/api/product/vnpay', { json: { plan: 'VIP1', months: 3 }, headers: bearer(user.session.token) });
    const { orderId } = (await res.json()) as GatewayOrderResponse;
    for (let i = 0; i < 3; i++) {
      const ipn = await t.request(`/api/payment/vnpay-ipn?${vnpayIpnQuery(orderId, 207_000)}`);
      expect(ipn.status).toBe(200);
    }
    await t.background();
    const receipt = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.startsWith('Biên nhận'));
    expect(receipt.text).toContain('VIP 1 (3 tháng)');
    expect(receipt.text).toContain('207.000 VND');
    expect(receipt.text).toContain('VNPay');
    expect(receipt.text).toContain(orderId);
    // Hạn mới: 12:00 15/01/2026 + 3 months, on the Vietnamese clock.
    expect(receipt.text).toContain('Hạn sử dụng mới: 12:00 15/04/2026');
    expect(receipt.html).toContain('207.000 VND');
    await deliverMail(t.deps);
    expect(receiptsTo(user.email)).toHaveLength(1);
    expect(await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'receipt'))).toHaveLength(1);
  });

  it('MoMo, a SePay bank notification and an admin confirmation each mail a receipt', async () => {
    const cfg = t.deps.config;
    // MoMo: an order as the checkout makes it, then the signed IPN.
    const momoBuyer = await signedInUser(t);
    const momo = await createOrder(t.deps.db, { userId: momoBuyer.id, plan: 'VIP2', months: 1, method: 'momo', now: clock.now() });
    const r = {
      partnerCode: cfg.MOMO_PARTNER_CODE as string,
      orderId: momo.txnRef,
      requestId: momo.txnRef,
      amount: momo.amount,
      orderInfo: 'Thanh toán gói VIP 2',
      orderType: 'momo_wallet',
      transId: 4088878653,
      resultCode: 0,
      message: 'Thành công.',
      payType: 'qr',
      responseTime: 1768453200000,
      extraData: '',
    };
    const raw =
      `accessKey=${cfg.MOMO_ACCESS_KEY}&amount=${r.amount}&extraData=${r.extraData}&message=${r.message}&orderId=${r.orderId}` +
      `&orderInfo=${r.orderInfo}&orderType=${r.orderType}&partnerCode=${r.partnerCode}&payType=${r.payType}&requestId=${r.requestId}` +
      `&responseTime=${r.responseTime}&resultCode=${r.resultCode}&transId=${r.transId}`;
    const signature = createHmac('sha256', cfg.MOMO_SECRET_KEY as string)
      .update(raw)
      .digest('hex');
    expect((await t.request('/api/payment/momo-ipn', { json: { ...r, signature } })).status).toBe(204);

    // Bank transfer paid by SePay's notification.
    const bankBuyer = await signedInUser(t);
    const transfer = (await (
      await t.request('/api/product/bank_transfer', { json: { plan: 'VIP1', months: 1 }, headers: bearer(bankBuyer.session.token) })
    ).json()) as BankTransferResponse;
    const notified = await t.request('/api/payment/sepay-webhook', {
      json: {
        id: 777_001,
        gateway: 'Vietcombank',
        transactionDate: '2026-01-15 12:05:00',
        accountNumber: cfg.BANK_ACCOUNT_NUMBER,
        code: null,
        content: `FT123.${transfer.paymentCode}.CT tu 001`,
        transferType: 'in',
        transferAmount: transfer.amount,
        accumulated: 0,
        subAccount: null,
        referenceCode: 'FT123',
        description: '',
      },
      headers: { authorization: `Apikey ${cfg.SEPAY_API_KEY}` },
    });
    expect(notified.status).toBe(200);

    // Bank transfer confirmed by an admin.
    const handBuyer = await signedInUser(t);
    const byHand = (await (
      await t.request('/api/product/bank_transfer', { json: { plan: 'VIP1', months: 6 }, headers: bearer(handBuyer.session.token) })
    ).json()) as BankTransferResponse;
    const boss = await signedInUser(t);
    await t.deps.db.run(sql`update users set roles = 'user,admin' where id = ${boss.id}`);
    expect(
      (await t.request(`/api/admin/orders/${byHand.orderId}/confirm`, { method: 'POST', headers: bearer(boss.session.token) })).status,
    ).toBe(200);

    await t.background();
    const [m, b, h] = await Promise.all([
      smtp.waitFor((x) => x.to.includes(momoBuyer.email) && x.subject.startsWith('Biên nhận')),
      smtp.waitFor((x) => x.to.includes(bankBuyer.email) && x.subject.startsWith('Biên nhận')),
      smtp.waitFor((x) => x.to.includes(handBuyer.email) && x.subject.startsWith('Biên nhận')),
    ]);
    expect(m.text).toContain('Ví MoMo');
    expect(m.text).toContain('VIP 2 (1 tháng)');
    expect(b.text).toContain('Chuyển khoản ngân hàng');
    expect(b.text).toContain(transfer.paymentCode);
    expect(h.text).toContain('VIP 1 (6 tháng)');
    expect(h.subject).toContain(byHand.paymentCode);
  });
});

describe('VIP reminders', () => {
  it('three days before expiry: one reminder per subscription period, from the scheduler; a renewal starts a new period', async () => {
    const user = await signedInUser(t);
    const order = await createOrder(t.deps.db, { userId: user.id, plan: 'VIP1', months: 1, method: 'vnpay', now: clock.now() });
    expect((await t.request(`/api/payment/vnpay-ipn?${vnpayIpnQuery(order.txnRef, order.amount)}`)).status).toBe(200);
    await t.background();
    await runScheduledJobs(t.deps);
    const reminders = () => mailsTo(user.email).filter((m) => m.subject.includes('sắp hết hạn'));
    expect(reminders()).toHaveLength(0);
    // Expiry 15/02 12:00; four days before: nothing, then within three days: one, whatever the number of ticks.
    clock.advance(31 * DAY - 4 * DAY);
    await runScheduledJobs(t.deps);
    expect(reminders()).toHaveLength(0);
    clock.advance(1.5 * DAY);
    await runScheduledJobs(t.deps);
    await runScheduledJobs(t.deps);
    clock.advance(DAY);
    await runScheduledJobs(t.deps);
    await smtp.waitFor((m) => m.to.includes(user.email) && m.subject === 'Gói VIP 1 của bạn sắp hết hạn');
    expect(reminders()).toHaveLength(1);
    expect(reminders()[0]!.text).toContain('/dang-ky-goi-vip/VIP1');
    // Renewed: the new period gets its own reminder three days before its end.
    const renewal = await createOrder(t.deps.db, { userId: user.id, plan: 'VIP1', months: 1, method: 'vnpay', now: clock.now() });
    expect((await t.request(`/api/payment/vnpay-ipn?${vnpayIpnQuery(renewal.txnRef, renewal.amount)}`)).status).toBe(200);
    await runScheduledJobs(t.deps);
    expect(reminders()).toHaveLength(1);
    clock.advance(27 * DAY);
    await runScheduledJobs(t.deps);
    expect(reminders()).toHaveLength(2);
  });
});

describe('the outbox', () => {
  it('a refusing server: retried with backoff, then failed for good and shown to admins; nothing is lost meanwhile', async () => {
    smtp.mode = 'refuse';
    const user = await signedInUser(t);
    expect((await t.request('/api/account/email/verification', { method: 'POST', headers: bearer(user.session.token) })).status).toBe(200);
    await t.background();
    const row = async () => (await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email)))[0]!;
    expect(await row()).toMatchObject({ status: 'pending', attempts: 1 });
    // Not due yet: a tick sends nothing.
    await deliverMail(t.deps);
    expect((await row()).attempts).toBe(1);
    for (let attempt = 2; attempt <= MAX_ATTEMPTS; attempt++) {
      clock.advance(4 * 60 * 60_000);
      await runScheduledJobs(t.deps);
      expect((await row()).attempts).toBe(attempt);
    }
    expect(await row()).toMatchObject({ status: 'failed', payload: null });
    const boss = await signedInUser(t);
    await t.deps.db.run(sql`update users set roles = 'user,admin' where id = ${boss.id}`);
    const stats = await (await t.request('/api/admin/stats', { headers: bearer(boss.session.token) })).json();
    expect(stats.mail.failed).toBe(1);
    expect(stats.mail.recentFailures[0]).toMatchObject({
      to: user.email,
      kind: 'verify_email',
      kindLabel: 'Xác minh email',
      attempts: MAX_ATTEMPTS,
    });
    expect(stats.mail.recentFailures[0].lastError).toMatch(/550/);
  });

  it('a server that comes back gets what waited; a hung server delays no answer', async () => {
    smtp.mode = 'refuse';
    const user = await signedInUser(t);
    await t.request('/api/account/email/verification', { method: 'POST', headers: bearer(user.session.token) });
    await t.background();
    smtp.mode = 'accept';
    clock.advance(2 * 60_000);
    await runScheduledJobs(t.deps);
    await smtp.waitFor((m) => m.to.includes(user.email));

    smtp.mode = 'hang';
    const other = await signedInUser(t);
    const answered = await t.request('/api/account/email/verification', { method: 'POST', headers: bearer(other.session.token) });
    // Answered while the server has not said a word: the send runs after the response.
    expect(answered.status).toBe(200);
    const [row] = await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, other.email));
    expect(['pending', 'sending']).toContain(row!.status);
  });
});
