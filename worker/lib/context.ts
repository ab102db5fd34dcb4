import type { Config } from '../config';
import type { Subscription } from '../schemas/vip';
import type { Db } from '../db/client';
import type { FilmRecordCache } from '../services/catalogue/detail';
import type { CachedResponse } from './public-cache';
import type { TtlCache } from './ttl-cache';
import type { MailTransport } from '../services/mail/message';
import type { PushQueue } from '../services/push/notifier';
import type { Duties } from './duties';

/** The signed-in person behind a request, taken only from a verified access token. */
export interface Viewer {
  id: number;
  email: string;
  name: string;
  roles: string[];
  /** Admin-granted ∪ those of active subscriptions (services/auth/viewer.ts). */
  permissions: string[];
  /** Active subscriptions, highest plan first, read with the viewer. */
  subscriptions: Subscription[];
}

/**
 * A verified access token's claims (lib/auth-middleware.ts): who, and the session epoch the token belongs
 * to. Not yet a viewer: the user's roles, permissions and whether the epoch is still current are read from
 * the database (services/auth/viewer.ts), either by the route's guard or in the handler's own first batch.
 */
export interface Session {
  userId: number;
  epoch: number;
  /** The refresh-token family (the device) the token was issued to; absent in tokens of older builds. */
  sid?: string;
}

/** Everything host-specific the shared app needs; each host (node.ts, index.ts) builds one. */
export interface AppDeps {
  db: Db;
  config: Config;
  /** Clock in unix ms; tests pass a fake one. */
  now: () => number;
  /** Outbound HTTP (crawler, PartyKit push, payment and sign-in providers); tests pass stand-ins. */
  fetch: typeof fetch;
  /**
   * How mail leaves (services/mail): nodemailer on Node, worker-mailer on Workers, Resend's API on either.
   * Absent: mails wait in the outbox (no SMTP_URL, or a test that does not send).
   */
  mail?: MailTransport;
  /**
   * Where new-episode push chunks go (services/push/notifier.ts): Cloudflare Queues on Workers, the pool on Node.
   * Absent: they are sent in the notifier's own call (tests, scripts).
   */
  pushQueue?: PushQueue;
}

export interface AppCaches {
  responses: TtlCache<CachedResponse>;
  films: FilmRecordCache;
  /** The catalogue version the film records belong to (services/catalogue/version.ts): every change empties them. */
  version: number;
  /** The lists' version the responses belong to (home, listings, search, categories: all lists). */
  lists: number;
}

export type AppEnv = {
  Variables: {
    deps: AppDeps;
    db: Db;
    /** Set by viewerMiddleware from a verified token; c.var.viewer exists only behind a guard that read it (lib/auth-middleware.ts). */
    session: Session | null;
    /** Per app instance (lib/ttl-cache.ts), emptied when the catalogue version changes (lib/public-cache.ts). */
    caches: AppCaches;
    /** The registries of undo, erasure and export, filled by the composition root (worker/wiring.ts). */
    duties: Duties;
  };
};
