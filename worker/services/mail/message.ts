// What a mail is once written, and the one interface every way of sending it implements (SMTP from Node with
// nodemailer, SMTP from Workers over cloudflare:sockets with worker-mailer, Resend's HTTP API). Each host picks
// its transport (worker/node.ts, worker/index.ts); the outbox (outbox.ts) is the same on both.
import type { Config } from '../../config';

export interface MailMessage {
  /** `Tên <address>` or a bare address. */
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
}

export interface MailTransport {
  /** Shown in logs and on the admin dashboard: 'smtp', 'resend'. */
  readonly name: string;
  /** Resolves once the server has accepted the message; rejects with its refusal, a timeout or a network error. */
  send(message: MailMessage): Promise<void>;
}

/** A header value with a line break (or NUL) would end the header and start another: mail header injection. */
const HEADER_BREAK = /[\r\n\0]/;

export class MailHeaderError extends Error {
  constructor(field: string) {
    super(`${field}: a mail header cannot carry a line break`);
    this.name = 'MailHeaderError';
  }
}

/** Refuses a message whose From, To or Subject carries CR, LF or NUL, whatever the transport would do with it. */
export function assertSafeHeaders(message: Pick<MailMessage, 'from' | 'to' | 'subject'>): void {
  for (const field of ['from', 'to', 'subject'] as const) if (HEADER_BREAK.test(message[field])) throw new MailHeaderError(field);
}

/** `Tên <a@b>` → { name, address }; a bare address → { address }. */
export function parseAddress(value: string): { name?: string; address: string } {
  const match = value.match(/^\s*"?([^"<]*?)"?\s*<([^<>\s]+@[^<>\s]+)>\s*$/);
  if (match) return { ...(match[1] ? { name: match[1] } : {}), address: match[2] as string };
  return { address: value.trim() };
}

/** The site's name in every mail's From, subject and signature. */
export const SITE_NAME = 'PhimViet';

/** MAIL_FROM, else PhimViet <no-reply@{PUBLIC_URL's host}>. */
export function mailFrom(config: Pick<Config, 'MAIL_FROM' | 'PUBLIC_URL'>): string {
  return config.MAIL_FROM ?? `${SITE_NAME} <no-reply@${new URL(config.PUBLIC_URL).hostname}>`;
}

/** Whether this server can send mail at all: an SMTP URL or a Resend key. */
export function mailConfigured(config: Pick<Config, 'SMTP_URL' | 'RESEND_API_KEY'>): boolean {
  return Boolean(config.SMTP_URL || config.RESEND_API_KEY);
}

export interface SmtpTarget {
  host: string;
  port: number;
  /** TLS from the first byte (smtps://, port 465); otherwise STARTTLS when the server offers it. */
  secure: boolean;
  user?: string;
  pass?: string;
}

/** SMTP_URL → where and how to connect. Defaults: smtps 465, smtp 587 (the edge blocks 25). */
export function parseSmtpUrl(url: string): SmtpTarget {
  const parsed = new URL(url);
  const secure = parsed.protocol === 'smtps:';
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const user = parsed.username ? decodeURIComponent(parsed.username) : undefined;
  const pass = parsed.password ? decodeURIComponent(parsed.password) : undefined;
  return {
    host,
    port: parsed.port ? Number(parsed.port) : secure ? 465 : 587,
    secure,
    ...(user ? { user } : {}),
    ...(pass ? { pass } : {}),
  };
}

/** Rejects after `ms`: a server that accepts the connection and then says nothing must not hold a sender forever. */
export function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer within ${Math.round(ms / 1000)} s`)), ms);
  });
  return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** How long one message may take, connection included. */
export const SEND_TIMEOUT_MS = 20_000;
