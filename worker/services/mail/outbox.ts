// The mail outbox (docs/decisions/0980). A mail is a row written in the same batch as the event it tells of
// (a reset asked, an order paid), so a mail server that is down loses nothing and no request waits for it.
// Right after the request the handler hands deliverMail() to the host's background (waitUntil on Workers, a
// floating promise on Node); the scheduler's tick retries what failed, with backoff, until it is sent or has
// failed MAX_ATTEMPTS times, when it shows on the admin dashboard. Every send is claimed first by one
// conditional update, so the request's sender and the tick never send one mail twice.
import { and, desc, eq, inArray, lt, or, sql } from 'drizzle-orm';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import { retentionMs } from '../../schemas/retention';
import type { AppDeps } from '../../lib/context';
import { fromBase64Url, randomBytes, toBase64Url } from '../../lib/bytes';
import type { MailHealth } from '../../schemas/admin';
import { mailFrom, type MailTransport } from './message';
import { MAIL_KIND_LABELS, type MailKind, type MailParams, RESET_LINK_MINUTES, renderMail } from './templates';

export type MailDeps = Pick<AppDeps, 'db' | 'config' | 'now'> & { mail?: MailTransport };

/** Wait before attempt n+1 after n failures: 1, 5, 15 minutes, 1 and 3 hours; the 6th failure is final. */
export const RETRY_DELAYS_MS = [60_000, 5 * 60_000, 15 * 60_000, 60 * 60_000, 3 * 60 * 60_000];
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
/** A sender that claimed a mail and stopped (an isolate ended, a process died) gives it back after this. */
const LEASE_MS = 2 * 60_000;
/** Mails claimed per pass. */
const BATCH = 20;
/** A reset link is dead after 30 minutes: a mail that could not leave by then is not sent late. */
const EXPIRES_WITH_LINK: Partial<Record<MailKind, number>> = { password_reset: RESET_LINK_MINUTES * 60_000 };

// ---- sealing: a link's token is in the outbox only until the mail is sent, and even then encrypted ----

const SEALED = 'sealed:';
const keys = new Map<string, Promise<CryptoKey>>();

/** AES-256-GCM key derived from JWT_SECRET (HKDF-SHA-256, its own label), once per secret. */
function sealingKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle
      .importKey('raw', new TextEncoder().encode(secret), 'HKDF', false, ['deriveKey'])
      .then((base) =>
        crypto.subtle.deriveKey(
          { name: 'HKDF', hash: 'SHA-256', salt: new Uint8Array(0), info: new TextEncoder().encode('phimviet mail outbox v1') },
          base,
          { name: 'AES-GCM', length: 256 },
          false,
          ['encrypt', 'decrypt'],
        ),
      );
    keys.set(secret, key);
  }
  return key;
}

async function seal(config: Pick<Config, 'JWT_SECRET'>, value: string): Promise<string> {
  const iv = randomBytes(12);
  const cipher = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, await sealingKey(config.JWT_SECRET), new TextEncoder().encode(value));
  const out = new Uint8Array(12 + cipher.byteLength);
  out.set(iv);
  out.set(new Uint8Array(cipher), 12);
  return SEALED + toBase64Url(out);
}

async function unseal(config: Pick<Config, 'JWT_SECRET'>, value: string): Promise<string> {
  if (!value.startsWith(SEALED)) return value;
  const bytes = fromBase64Url(value.slice(SEALED.length));
  const plain = await crypto.subtle.decrypt(
    { name: 'AES-GCM', iv: bytes.slice(0, 12) },
    await sealingKey(config.JWT_SECRET),
    bytes.slice(12),
  );
  return new TextDecoder().decode(plain);
}

// ---- enqueueing ----

export interface NewMail<K extends MailKind> {
  kind: K;
  to: string;
  userId?: number | null;
  params: MailParams[K];
  /** At most one mail per key, ever (insert or nothing). */
  dedupeKey?: string;
}

/** The outbox row of a mail, its token sealed. Insert it (outboxInsert) in the batch of the event it tells of. */
export async function outboxRow<K extends MailKind>(config: Pick<Config, 'JWT_SECRET'>, mail: NewMail<K>, now: number) {
  const params: Record<string, unknown> = { ...mail.params };
  if (typeof params.token === 'string') params.token = await seal(config, params.token);
  return {
    kind: mail.kind,
    toAddress: mail.to,
    userId: mail.userId ?? null,
    payload: JSON.stringify(params),
    dedupeKey: mail.dedupeKey ?? null,
    status: 'pending' as const,
    attempts: 0,
    nextAttemptAt: now,
    createdAt: now,
  };
}

/** The insert of outbox rows, unexecuted (for a caller's batch); a row whose dedupe key exists is skipped. */
export function outboxInsert(db: Db, rows: Awaited<ReturnType<typeof outboxRow>>[]) {
  return db.insert(mailOutbox).values(rows).onConflictDoNothing({ target: mailOutbox.dedupeKey });
}

// ---- sending ----

export interface DeliveryResult {
  sent: number;
  retrying: number;
  failed: number;
}

type ClaimedMail = { id: number; kind: string; toAddress: string; payload: string | null; attempts: number; createdAt: number };

/** Claims due mails (pending and due, or a sender's lease run out) for this sender, in one statement. */
async function claim(db: Db, now: number, limit: number): Promise<ClaimedMail[]> {
  const due = or(
    and(eq(mailOutbox.status, 'pending'), sql`${mailOutbox.nextAttemptAt} <= ${now}`),
    and(eq(mailOutbox.status, 'sending'), lt(mailOutbox.leaseUntil, now)),
  );
  return db
    .update(mailOutbox)
    .set({ status: 'sending', attempts: sql`${mailOutbox.attempts} + 1`, leaseUntil: now + LEASE_MS })
    .where(
      and(inArray(mailOutbox.id, db.select({ id: mailOutbox.id }).from(mailOutbox).where(due).orderBy(mailOutbox.id).limit(limit)), due),
    )
    .returning({
      id: mailOutbox.id,
      kind: mailOutbox.kind,
      toAddress: mailOutbox.toAddress,
      payload: mailOutbox.payload,
      attempts: mailOutbox.attempts,
      createdAt: mailOutbox.createdAt,
    });
}

const isKind = (kind: string): kind is MailKind => kind in MAIL_KIND_LABELS;

async function compose(config: Config, mail: ClaimedMail) {
  if (!isKind(mail.kind)) throw new Error(`unknown mail kind ${mail.kind}`);
  const params = JSON.parse(mail.payload ?? '{}') as Record<string, unknown>;
  if (typeof params.token === 'string') params.token = await unseal(config, params.token);
  const rendered = renderMail(config, mail.kind, params as never);
  return { from: mailFrom(config), to: mail.toAddress, ...rendered };
}

/** Settles one claimed mail: only while this sender still holds it (same attempt). */
function settle(db: Db, mail: ClaimedMail, set: Partial<typeof mailOutbox.$inferInsert>) {
  return db
    .update(mailOutbox)
    .set({ leaseUntil: null, ...set })
    .where(and(eq(mailOutbox.id, mail.id), eq(mailOutbox.status, 'sending'), eq(mailOutbox.attempts, mail.attempts)));
}

/**
 * Sends what is due, a batch at a time, until nothing is due (at most `passes` batches). Never throws: a
 * failure is written on the mail. Without a transport (no SMTP_URL) nothing is claimed: mails wait.
 */
export async function deliverMail(deps: MailDeps, passes = 5): Promise<DeliveryResult> {
  const result: DeliveryResult = { sent: 0, retrying: 0, failed: 0 };
  const transport = deps.mail;
  if (!transport) return result;
  try {
    for (let pass = 0; pass < passes; pass++) {
      const now = deps.now();
      const claimed = await claim(deps.db, now, BATCH);
      if (claimed.length === 0) break;
      for (const mail of claimed) {
        const lifetime = isKind(mail.kind) ? EXPIRES_WITH_LINK[mail.kind] : undefined;
        if (lifetime !== undefined && deps.now() - mail.createdAt > lifetime) {
          await settle(deps.db, mail, { status: 'failed', payload: null, lastError: 'Liên kết trong thư đã hết hạn trước khi gửi được' });
          result.failed += 1;
          continue;
        }
        try {
          await transport.send(await compose(deps.config, mail));
          await settle(deps.db, mail, { status: 'sent', sentAt: deps.now(), payload: null, lastError: null });
          result.sent += 1;
        } catch (err) {
          const message = (err instanceof Error ? err.message : String(err)).slice(0, 500);
          const final = mail.attempts >= MAX_ATTEMPTS;
          const delay = RETRY_DELAYS_MS[mail.attempts - 1] ?? RETRY_DELAYS_MS.at(-1)!;
          await settle(
            deps.db,
            mail,
            final
              ? { status: 'failed', payload: null, lastError: message }
              : { status: 'pending', nextAttemptAt: deps.now() + delay, lastError: message },
          );
          if (final) result.failed += 1;
          else result.retrying += 1;
          console.warn(`[mail] ${mail.kind} #${mail.id} attempt ${mail.attempts} failed${final ? ' for good' : ''}: ${message}`);
        }
      }
    }
  } catch (err) {
    console.error('[mail] delivery pass failed', err);
  }
  return result;
}

// ---- the admin's view ----

export async function mailHealth(db: Db): Promise<MailHealth> {
  const [counts, failures] = await db.batch([
    db
      .select({ status: mailOutbox.status, n: sql<number>`count(*)` })
      .from(mailOutbox)
      .where(inArray(mailOutbox.status, ['pending', 'sending', 'failed']))
      .groupBy(mailOutbox.status),
    db
      .select({
        id: mailOutbox.id,
        kind: mailOutbox.kind,
        to: mailOutbox.toAddress,
        attempts: mailOutbox.attempts,
        lastError: mailOutbox.lastError,
        createdAt: mailOutbox.createdAt,
      })
      .from(mailOutbox)
      .where(eq(mailOutbox.status, 'failed'))
      .orderBy(desc(mailOutbox.id))
      .limit(10),
  ]);
  const count = (status: string) => counts.find((c) => c.status === status)?.n ?? 0;
  return {
    pending: count('pending') + count('sending'),
    failed: count('failed'),
    recentFailures: failures.map((f) => ({
      ...f,
      kindLabel: isKind(f.kind) ? MAIL_KIND_LABELS[f.kind] : f.kind,
      lastError: f.lastError ?? '',
    })),
  };
}

/** Sent mails are kept 30 days, failed ones 90 (the dashboard's list), then dropped. */
export function pruneOutbox(db: Db, now: number) {
  return db
    .delete(mailOutbox)
    .where(
      or(
        and(eq(mailOutbox.status, 'sent'), lt(mailOutbox.createdAt, now - retentionMs('mailSent'))),
        and(eq(mailOutbox.status, 'failed'), lt(mailOutbox.createdAt, now - retentionMs('mailFailed'))),
      ),
    );
}
