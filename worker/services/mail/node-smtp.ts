// SMTP from the Node host: nodemailer. Imported by worker/node.ts only (never by the Worker, whose bundle must
// not carry it): the Worker's SMTP client is workers-smtp.ts.
import nodemailer from 'nodemailer';
import type { Config } from '../../config';
import { isLoopbackHost } from '../../lib/loopback';
import { assertSafeHeaders, type MailTransport, parseSmtpUrl, SEND_TIMEOUT_MS, withTimeout } from './message';
import { resendTransport } from './resend';

export function nodeSmtpTransport(smtpUrl: string): MailTransport {
  const target = parseSmtpUrl(smtpUrl);
  const transporter = nodemailer.createTransport({
    host: target.host,
    port: target.port,
    secure: target.secure,
    ...(target.user ? { auth: { user: target.user, pass: target.pass ?? '' } } : {}),
    // STARTTLS whenever the server offers it; a local catcher's self-signed certificate is accepted.
    tls: { rejectUnauthorized: !isLoopbackHost(target.host) },
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: SEND_TIMEOUT_MS,
  });
  return {
    name: 'smtp',
    async send(message) {
      assertSafeHeaders(message);
      await withTimeout(
        transporter.sendMail({ from: message.from, to: message.to, subject: message.subject, text: message.text, html: message.html }),
        SEND_TIMEOUT_MS + 5_000,
        'SMTP',
      );
    },
  };
}

/** The Node host's transport: Resend when its key is set, else SMTP_URL, else none. */
export function nodeMailTransport(config: Config, fetchImpl: typeof fetch): MailTransport | undefined {
  if (config.RESEND_API_KEY) return resendTransport(config, fetchImpl);
  if (config.SMTP_URL) return nodeSmtpTransport(config.SMTP_URL);
  return undefined;
}
