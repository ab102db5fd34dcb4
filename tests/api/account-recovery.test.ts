// Forgotten password, verified addresses and address changes, against a real SMTP server started by the test
// (tests/helpers/smtp-server.ts): the product sends over SMTP_URL with nodemailer, the test reads what arrived.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emailTokens, mailOutbox, users } from '../../worker/db/schema';
import { RECOVERY_MESSAGES } from '../../worker/schemas/account-texts';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, createUser, login } from '../helpers/auth';
import { linkIn, startSmtpServer, type TestSmtpServer } from '../helpers/smtp-server';

let smtp: TestSmtpServer;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpServer();
});
afterAll(() => smtp.close());
beforeEach(async () => {
  smtp.mode = 'accept';
  smtp.received.length = 0;
  t = await createTestApp({ config: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://phimviet.example' } });
});

let ipCounter = 0;
const ip = () => `203.0.113.${(ipCounter++ % 250) + 1}`;
const forgot = (email: string, from = ip()) =>
  t.request('/api/auth/forgot-password', { json: { email }, headers: { 'x-forwarded-for': from } });
const reset = (token: string, password: string) =>
  t.request('/api/auth/reset-password', { json: { token, password }, headers: { 'x-forwarded-for': ip() } });
const tokenOf = (link: string) => new URL(link).searchParams.get('token') ?? '';

async function resetLinkFor(email: string): Promise<string> {
  const res = await forgot(email);
  expect(res.status).toBe(200);
  await t.background();
  const mail = await smtp.waitFor((m) => m.to.includes(email) && m.text.includes('/dat-lai-mat-khau'));
  smtp.received.splice(smtp.received.indexOf(mail), 1);
  return linkIn(mail, '/dat-lai-mat-khau?token=');
}

describe('forgotten password', () => {
  it('answers the same for a known and an unknown address; only the account gets a mail, with a link from PUBLIC_URL', async () => {
    const user = await createUser(t.deps.db, { email: 'lan@example.com', name: 'Lan' });
    const known = await forgot(user.email);
    const unknown = await forgot('khong-co@example.com');
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    const [a, b] = [await known.json(), await unknown.json()];
    expect(a).toEqual(b);
    expect(a).toEqual({ ok: true, message: RECOVERY_MESSAGES.forgotSent });
    await t.background();
    const mail = await smtp.waitFor((m) => m.to.includes(user.email));
    expect(mail.subject).toBe('Đặt lại mật khẩu PhimViet');
    expect(mail.from).toContain('PhimViet');
    expect(mail.html).toContain('Đặt lại mật khẩu');
    const link = linkIn(mail, '/dat-lai-mat-khau?token=');
    expect(link.startsWith('https://phimviet.example/dat-lai-mat-khau?token=')).toBe(true);
    // 256 bits as base64url, and only its hash is stored.
    const token = tokenOf(link);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = await t.deps.db.select().from(emailTokens);
    expect(stored).toHaveLength(1);
    expect(stored[0]!.tokenHash).not.toContain(token);
    expect(smtp.received.filter((m) => m.to.includes('khong-co@example.com'))).toHaveLength(0);
    // Sent: the outbox keeps no token any more.
    const [row] = await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(row).toMatchObject({ status: 'sent', payload: null });
  });

  it('builds the link from PUBLIC_URL, never from the Host header', async () => {
    const user = await createUser(t.deps.db);
    await t.request('/api/auth/forgot-password', {
      json: { email: user.email },
      headers: { host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    await t.background();
    const mail = await smtp.waitFor((m) => m.to.includes(user.email));
    expect(mail.text).not.toContain('evil.example');
    expect(linkIn(mail, '/dat-lai-mat-khau?token=')).toMatch(/^https:\/\/phimviet\.example\//);
  });

  it('sets a new password through the link: sessions end, the old password stops, the link works once, a notice is mailed', async () => {
    const user = await createUser(t.deps.db, { email: 'binh@example.com' });
    const session = await login(t, user);
    const link = await resetLinkFor(user.email);
    const token = tokenOf(link);

    const check = await t.request(`/api/auth/reset-password?token=${token}`);
    expect(check.status).toBe(200);
    expect(await check.json()).toEqual({ ok: true, email: user.email });

    const short = await reset(token, 'ngan');
    expect(short.status).toBe(400);
    expect((await errorOf(short)).message).toMatch(/^password: /);

    const done = await reset(token, 'mat-khau-moi-123');
    expect(done.status).toBe(200);
    expect((await done.json()).message).toBe(RECOVERY_MESSAGES.passwordReset);

    // Every session ended: the access token (epoch) and the refresh token.
    expect((await t.request('/api/account', { headers: bearer(session.token) })).status).toBe(401);
    expect((await t.request('/api/refresh_token', { json: { token: session.refreshToken } })).status).toBe(401);
    // Old password refused, new one works.
    await expect(login(t, user)).rejects.toThrow(/401/);
    await login(t, { email: user.email, password: 'mat-khau-moi-123' });

    await t.background();
    const notice = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject === 'Mật khẩu của bạn đã được thay đổi');
    expect(notice.text).toContain('PhimViet');

    const again = await reset(token, 'mat-khau-khac-456');
    expect(again.status).toBe(400);
    expect(await errorOf(again)).toEqual({ code: 'invalid_token', message: `token: ${RECOVERY_MESSAGES.tokenUsed}` });
  });

  it('a newer link voids the older one; a password change voids every link', async () => {
    const user = await createUser(t.deps.db);
    const first = tokenOf(await resetLinkFor(user.email));
    const second = tokenOf(await resetLinkFor(user.email));
    expect((await reset(first, 'mat-khau-moi-123')).status).toBe(400);
    const session = await login(t, user);
    const changed = await t.request('/api/account/password', {
      json: { currentPassword: user.password, newPassword: 'doi-mat-khau-789' },
      headers: bearer(session.token),
    });
    expect(changed.status).toBe(200);
    const res = await reset(second, 'mat-khau-moi-123');
    expect(res.status).toBe(400);
    expect((await errorOf(res)).code).toBe('invalid_token');
    await t.background();
    await smtp.waitFor((m) => m.to.includes(user.email) && m.subject === 'Mật khẩu của bạn đã được thay đổi');
  });

  it('refuses an expired, forged or truncated token with a clear message and changes nothing', async () => {
    const user = await createUser(t.deps.db);
    const token = tokenOf(await resetLinkFor(user.email));
    const before = (await t.deps.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id)))[0]!.hash;

    const forged = await reset('A'.repeat(43), 'mat-khau-moi-123');
    expect(await errorOf(forged)).toEqual({ code: 'invalid_token', message: `token: ${RECOVERY_MESSAGES.tokenInvalid}` });
    const truncated = await reset(token.slice(0, 30), 'mat-khau-moi-123');
    expect((await errorOf(truncated)).message).toBe(`token: ${RECOVERY_MESSAGES.tokenInvalid}`);
    const empty = await reset('', 'mat-khau-moi-123');
    expect(empty.status).toBe(400);

    t.advance(31 * 60_000);
    const expired = await reset(token, 'mat-khau-moi-123');
    expect(expired.status).toBe(400);
    expect(await errorOf(expired)).toEqual({ code: 'invalid_token', message: `token: ${RECOVERY_MESSAGES.tokenExpired}` });
    const check = await t.request(`/api/auth/reset-password?token=${token}`);
    expect((await errorOf(check)).message).toBe(`token: ${RECOVERY_MESSAGES.tokenExpired}`);

    const after = (await t.deps.db.select({ hash: users.passwordHash }).from(users).where(eq(users.id, user.id)))[0]!.hash;
    expect(after).toBe(before);
    await login(t, user);
  });

  it('limits a flood per address and per IP (429 in Vietnamese), sending nothing more', async () => {
    const user = await createUser(t.deps.db);
    for (let i = 0; i < 3; i++) expect((await forgot(user.email)).status).toBe(200);
    const flood = await forgot(user.email);
    expect(flood.status).toBe(429);
    expect(await errorOf(flood)).toEqual({ code: 'rate_limited', message: RECOVERY_MESSAGES.tooManyResets });
    // Per IP: ten addresses from one network.
    const from = '198.51.100.99';
    for (let i = 0; i < 10; i++) expect((await forgot(`ai-do-${i}@example.com`, from)).status).toBe(200);
    expect((await forgot('ai-do-khac@example.com', from)).status).toBe(429);
    await t.background();
    const rows = await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(rows).toHaveLength(3);
  });

  it('refuses an address that is not one, in Vietnamese, naming the field', async () => {
    const res = await forgot('khong-phai-email');
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'invalid_input', message: `email: ${RECOVERY_MESSAGES.invalidEmail}` });
    expect(await t.deps.db.select().from(mailOutbox)).toHaveLength(0);
  });

  it('mails a Google-only account to sign in with Google, with no link', async () => {
    const [row] = await t.deps.db
      .insert(users)
      .values({ email: 'google@example.com', username: 'Gia', passwordHash: null, googleSub: 'g-1' })
      .returning();
    expect((await forgot(row!.email)).status).toBe(200);
    await t.background();
    const mail = await smtp.waitFor((m) => m.to.includes(row!.email));
    expect(mail.text).toContain('Google');
    expect(mail.text).not.toContain('/dat-lai-mat-khau');
    expect(await t.deps.db.select().from(emailTokens)).toHaveLength(0);
  });

  it('in production without SMTP_URL the page is told to call the hotline (503), and nothing is queued', async () => {
    const prod = await createTestApp({
      config: { APP_ENV: 'production', SMTP_URL: undefined, JWT_SECRET: 'x'.repeat(40), PARTY_SECRET: 'y'.repeat(20) },
    });
    const availability = await prod.request('/api/auth/forgot-password');
    const body = await availability.json();
    expect(body.available).toBe(false);
    expect(body.message).toContain(body.hotline);
    const res = await prod.request('/api/auth/forgot-password', { json: { email: 'ai@example.com' } });
    expect(res.status).toBe(503);
    expect((await errorOf(res)).message).toContain('hotline');
    const ok = await t.request('/api/auth/forgot-password');
    expect((await ok.json()).available).toBe(true);
  });
});

describe('mail that cannot leave', () => {
  it('a refusing server delays no answer; the mail is retried with backoff and shows as failed after the last attempt', async () => {
    smtp.mode = 'refuse';
    const user = await createUser(t.deps.db);
    const res = await forgot(user.email);
    expect(res.status).toBe(200);
    await t.background();
    const [row] = await t.deps.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, user.email));
    expect(row).toMatchObject({ status: 'pending', attempts: 1 });
    expect(row!.lastError).toMatch(/550|Mailbox/);
    expect(row!.nextAttemptAt).toBeGreaterThan(t.deps.now());
  });
});
