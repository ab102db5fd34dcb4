// SMTP from the Workers host: worker-mailer over cloudflare:sockets (ports 587 with STARTTLS and 465 with TLS;
// the edge blocks 25). Imported by worker/index.ts only: the Node host cannot load cloudflare:sockets.
import { WorkerMailer } from 'worker-mailer';
import type { Config } from '../../config';
import { assertSafeHeaders, type MailTransport, parseAddress, parseSmtpUrl, SEND_TIMEOUT_MS, withTimeout } from './message';
import { resendTransport } from './resend';

export function workersSmtpTransport(smtpUrl: string): MailTransport {
  const target = parseSmtpUrl(smtpUrl);
  return {
    name: 'smtp',
    async send(message) {
      assertSafeHeaders(message);
      const from = parseAddress(message.from);
      await withTimeout(
        WorkerMailer.send(
          {
            host: target.host,
            port: target.port,
            secure: target.secure,
            startTls: !target.secure,
            ...(target.user ? { credentials: { username: target.user, password: target.pass ?? '' } } : {}),
            authType: ['plain', 'login'],
            socketTimeoutMs: 10_000,
            responseTimeoutMs: SEND_TIMEOUT_MS,
            logLevel: 4,
          },
          {
            from: from.name ? { name: from.name, email: from.address } : from.address,
            to: message.to,
            subject: message.subject,
            text: message.text,
            html: message.html,
          },
        ),
        SEND_TIMEOUT_MS + 5_000,
        'SMTP',
      );
    },
  };
}

/** The Worker's transport: Resend when its key is set, else SMTP_URL, else none. */
export function workersMailTransport(config: Config, fetchImpl: typeof fetch): MailTransport | undefined {
  if (config.RESEND_API_KEY) return resendTransport(config, fetchImpl);
  if (config.SMTP_URL) return workersSmtpTransport(config.SMTP_URL);
  return undefined;
}
