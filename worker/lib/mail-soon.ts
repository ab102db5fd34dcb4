import type { Context } from 'hono';
import { deliverMail } from '../services/mail/outbox';
import { afterResponse } from './after-response';
import type { AppEnv } from './context';

/**
 * Sends the mail a handler just put in the outbox right after its response (waitUntil on Workers, a
 * floating promise on Node): the member waits for nothing, and the scheduler retries what fails.
 */
export function sendMailSoon(c: Pick<Context<AppEnv>, 'executionCtx' | 'var'>): void {
  afterResponse(c, deliverMail(c.var.deps));
}
