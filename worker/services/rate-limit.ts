import { sql } from 'drizzle-orm';
import type { Db } from '../db/client';
import { rateLimits } from '../db/schema';
import { tooManyRequests } from '../lib/errors';

/** A fixed-window limit: at most `limit` hits per `windowMs`, counted per key. */
export interface RateLimitRule {
  /** Distinguishes what is limited and for whom, e.g. 'login:ip:203.0.113.7'. */
  key: string;
  limit: number;
  windowMs: number;
}

export interface RateLimitResult {
  allowed: boolean;
  count: number;
  /** When the current window ends, unix ms. */
  resetAt: number;
}

/** Limits used by the API; in one place so the numbers are easy to review. */
export const RATE_LIMITS = {
  loginPerIp: { limit: 30, windowMs: 10 * 60_000 },
  loginPerEmail: { limit: 10, windowMs: 10 * 60_000 },
  registerPerIp: { limit: 10, windowMs: 60 * 60_000 },
  registerPerEmail: { limit: 5, windowMs: 60 * 60_000 },
  commentPerUser: { limit: 5, windowMs: 30_000 },
  /** Comment reports (issue 33): a member reporting more than this is flooding the queue. */
  commentReportPerUser: { limit: 10, windowMs: 10 * 60_000 },
  ratingPerUser: { limit: 20, windowMs: 60_000 },
  /** Broken-episode reports (watch page button). */
  errorReportPerIp: { limit: 10, windowMs: 10 * 60_000 },
  /** New VIP orders (each is a row and, for a gateway, a signed payment request). */
  orderPerUser: { limit: 10, windowMs: 10 * 60_000 },
  /** PUT /api/me/progress: the player writes every 15 s, on pause and on leaving, per device; an outbox drains in batches of 50. */
  progressPerUser: { limit: 60, windowMs: 60_000 },
  /** Push subscriptions registered (each is a row the notifier sends to). */
  pushSubscribePerUser: { limit: 20, windowMs: 60 * 60_000 },
  // ---- account recovery, verification and passkeys (issue 34, docs/decisions/0980) ----
  /** "Quên mật khẩu?": each request may mail someone, so few per address and per network. */
  forgotPasswordPerIp: { limit: 10, windowMs: 15 * 60_000 },
  forgotPasswordPerEmail: { limit: 3, windowMs: 15 * 60_000 },
  /** Reset and verification links opened or submitted (a 256-bit token is not guessable; this stops floods). */
  resetPasswordPerIp: { limit: 30, windowMs: 15 * 60_000 },
  /** Verification mails sent again and address changes (each mails the member). */
  accountMailPerUser: { limit: 5, windowMs: 60 * 60_000 },
  /** Passkey ceremonies started or answered from one network. */
  passkeyPerIp: { limit: 30, windowMs: 10 * 60_000 },
  /** Plays (issue 40 §3): one a film and day counts; a device sends one per film after 120 s, a network many devices. */
  playPerDevice: { limit: 30, windowMs: 10 * 60_000 },
  playPerIp: { limit: 300, windowMs: 10 * 60_000 },
  /** POST /api/segments/report: at most an intro and a credits report per episode watched, per device and network. */
  segmentReportPerDevice: { limit: 20, windowMs: 10 * 60_000 },
  segmentReportPerIp: { limit: 300, windowMs: 10 * 60_000 },
  /** "Tải dữ liệu của tôi" (docs/decisions/1042): each file reads every table of the member. */
  dataExportPerUser: { limit: 5, windowMs: 60 * 60_000 },
} as const;

/** Start of the fixed window that `now` falls in. */
export const windowStartOf = (rule: RateLimitRule, now: number) => Math.floor(now / rule.windowMs) * rule.windowMs;

/**
 * The counting statement, unexecuted, so a caller can batch it with the write it guards (one
 * transaction, one commit). One atomic upsert: concurrent requests in different Worker isolates
 * cannot both slip under the limit; the row either starts a new window at 1 or increments.
 */
export function countHit(db: Db, rule: RateLimitRule, now: number) {
  return db
    .insert(rateLimits)
    .values({ key: rule.key, count: 1, windowStart: windowStartOf(rule, now) })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`case when ${rateLimits.windowStart} = excluded.window_start then ${rateLimits.count} + 1 else 1 end`,
        windowStart: sql`excluded.window_start`,
      },
    })
    .returning({ count: rateLimits.count });
}

/** Counts one hit and says whether it is within the limit. */
export async function hitRateLimit(db: Db, rule: RateLimitRule, now: number): Promise<RateLimitResult> {
  const rows = await countHit(db, rule, now);
  const count = rows[0]?.count ?? 1;
  return { allowed: count <= rule.limit, count, resetAt: windowStartOf(rule, now) + rule.windowMs };
}

/** Counts a hit on every rule (all of them, so each counter stays honest) and throws 429 if any is over. */
export async function enforceRateLimits(db: Db, rules: RateLimitRule[], now: number, message?: string): Promise<void> {
  const results = await Promise.all(rules.map((rule) => hitRateLimit(db, rule, now)));
  if (results.some((r) => !r.allowed)) throw tooManyRequests(message);
}

/** The caller's address (worker/lib/client-ip.ts): one reader for rate limits and error reports. */
export { clientIp } from '../lib/client-ip';
