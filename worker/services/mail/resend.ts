// Resend's HTTP API (one POST with a bearer key): the transport when RESEND_API_KEY is set, on either host.
import type { Config } from '../../config';
import { assertSafeHeaders, type MailTransport, SEND_TIMEOUT_MS } from './message';

export function resendTransport(config: Pick<Config, 'RESEND_API_KEY' | 'RESEND_API_URL'>, fetchImpl: typeof fetch): MailTransport {
  const key = config.RESEND_API_KEY;
  if (!key) throw new Error('RESEND_API_KEY is not set');
  return {
    name: 'resend',
    async send(message) {
      assertSafeHeaders(message);
      const res = await fetchImpl(config.RESEND_API_URL, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ from: message.from, to: [message.to], subject: message.subject, text: message.text, html: message.html }),
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`Resend answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    },
  };
}
