// How long the product keeps what it stores: one table of figures that the scheduler applies (worker/scheduled.ts,
// services/mail/outbox.ts, services/library/progress.ts, services/auth/refresh-tokens.ts) and the privacy page shows
// (worker/schemas/privacy.ts), so the two can never say different things (docs/decisions/1050).

export const DAY_MS = 24 * 60 * 60 * 1000;

/** Days each kind of row is kept before the scheduler deletes it. */
export const RETENTION_DAYS = {
  /** A member's watch progress and history, counted from the last time the episode was watched. */
  watchHistory: 365,
  /** A refresh token (one row of the device list), from when it was issued: deleted once expired. */
  session: 30,
  /** A mailed link (verification, password reset), after it was used or ran out. */
  emailLink: 1,
  /** A sent mail in the outbox. */
  mailSent: 30,
  /** A mail that could not be delivered. */
  mailFailed: 90,
  /** Rate-limit counters (their keys hold IP addresses and email addresses). */
  rateLimits: 1,
  /** Anonymous view events (film and time, no person) behind the trending lists. */
  viewEvents: 35,
} as const;

export type RetentionKind = keyof typeof RETENTION_DAYS;

export const retentionMs = (kind: RetentionKind): number => RETENTION_DAYS[kind] * DAY_MS;
