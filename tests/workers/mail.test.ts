// The Worker's mail path inside workerd: the transport is worker-mailer over cloudflare:sockets (never
// nodemailer), a sign-up and a password reset put their mails in the outbox, and waitUntil sends them over
// SMTP to a real server the test runs (tests/workers/global-setup.ts), whose inbox the test reads.
import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { env } from 'cloudflare:workers';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../worker/config';
import worker from '../../worker/index';
import { workersMailTransport } from '../../worker/services/mail/workers-smtp';

const mailApi = (env as unknown as { MAIL_API: string }).MAIL_API;

async function post(path: string, json: unknown) {
  const ctx = createExecutionContext();
  const request = new Request(`https://phimviet.example.workers.dev${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'cf-connecting-ip': `198.51.100.${Math.floor(Math.random() * 200) + 20}` },
    body: JSON.stringify(json),
  }) as Request<unknown, IncomingRequestCfProperties>;
  const res = await worker.fetch(request, env, ctx);
  // The mail leaves in waitUntil, after the answer.
  await waitOnExecutionContext(ctx);
  return res;
}

async function inboxOf(email: string): Promise<{ subject: string; text: string }[]> {
  const res = await fetch(`${mailApi}/mail/api/messages?to=${encodeURIComponent(email)}`);
  return ((await res.json()) as { data: { subject: string; text: string }[] }).data;
}

describe('Workers entry: mail', () => {
  it('picks the SMTP transport over cloudflare:sockets from SMTP_URL', () => {
    const config = loadConfig(env as unknown as Record<string, unknown>);
    expect(config.SMTP_URL).toMatch(/^smtp:\/\/127\.0\.0\.1:\d+$/);
    expect(workersMailTransport(config, fetch)?.name).toBe('smtp');
  });

  it('a sign-up and a forgotten password reach the SMTP server from workerd', async () => {
    const email = `thu-workerd-${Date.now()}@example.com`;
    expect((await post('/api/dang-ky', { email, name: 'Thư Workerd', password: 'mat-khau-workerd', acceptPrivacy: true })).status).toBe(
      201,
    );
    const forgot = await post('/api/auth/forgot-password', { email });
    expect(forgot.status).toBe(200);
    const mails = await inboxOf(email);
    const subjects = mails.map((m) => m.subject);
    expect(subjects).toContain('Xác minh địa chỉ email của bạn trên PhimViet');
    expect(subjects).toContain('Đặt lại mật khẩu PhimViet');
    const reset = mails.find((m) => m.subject === 'Đặt lại mật khẩu PhimViet')!;
    // The link's origin is PUBLIC_URL's (wrangler.toml), never the request's.
    expect(reset.text).toMatch(/https:\/\/phimviet\.example\.workers\.dev\/dat-lai-mat-khau\?token=[A-Za-z0-9_-]{43}/);
  });
});
