import { lt, or } from 'drizzle-orm';
import { crawlLog, emailTokens, rateLimits, refreshTokens, viewEvents, webauthnChallenges } from './db/schema';
import type { AppDeps } from './lib/context';
import { crawlTick } from './services/admin/crawls';
import { lightCrawl } from './services/crawler/light-crawl';
import { cancelStaleOrders } from './services/payments/orders';
import { reconcilePendingOrders } from './services/payments/reconcile';
import { refreshTrending } from './services/catalogue/trending';
import { pruneHistory } from './services/library/progress';
import { notifyNewEpisodes } from './services/push/notifier';
import { CRAWL_LOG_RETENTION_MS } from './services/sources/registry';
import { deliverMail, pruneOutbox } from './services/mail/outbox';
import { remindExpiringPlans } from './services/payments/vip-reminders';
import { retentionMs } from './schemas/retention';
import { completeDueErasures } from './services/account/erasure';
import { pruneErasedMoney } from './services/payments/data-rights';
import { duties } from './wiring';
import { refreshRelated } from './services/related/related';

// Every figure below is the one the privacy page shows (worker/schemas/retention.ts).
/** Trending looks back 30 days at most; older view events only cost space. */
const VIEW_EVENT_RETENTION = retentionMs('viewEvents');
const RATE_LIMIT_RETENTION = retentionMs('rateLimits');
const EMAIL_LINK_RETENTION = retentionMs('emailLink');

export interface ScheduledJob {
  name: string;
  run: (deps: AppDeps, now: number) => Promise<void>;
}

/** Housekeeping that keeps the tables the API writes on every request from growing without bound. */
export const housekeeping: ScheduledJob = {
  name: 'housekeeping',
  async run({ db }, now) {
    await db.batch([
      db.delete(viewEvents).where(lt(viewEvents.viewedAt, now - VIEW_EVENT_RETENTION)),
      db.delete(rateLimits).where(lt(rateLimits.windowStart, now - RATE_LIMIT_RETENTION)),
      db.delete(refreshTokens).where(lt(refreshTokens.expiresAt, now)),
      db.delete(crawlLog).where(lt(crawlLog.at, now - CRAWL_LOG_RETENTION_MS)),
      // Mailed links a day after they were used or ran out; passkey challenges once expired; old mail.
      db
        .delete(emailTokens)
        .where(or(lt(emailTokens.expiresAt, now - EMAIL_LINK_RETENTION), lt(emailTokens.usedAt, now - EMAIL_LINK_RETENTION))),
      db.delete(webauthnChallenges).where(lt(webauthnChallenges.expiresAt, now)),
      pruneOutbox(db, now),
    ]);
  },
};

/**
 * Three days before a VIP plan runs out: a mail and a push, once per subscription period
 * (services/payments/vip-reminders.ts). Runs before the mail job, so its mails leave in this tick.
 */
export const vipReminders: ScheduledJob = {
  name: 'vip-reminders',
  async run(deps, now) {
    const n = await remindExpiringPlans(deps, now);
    if (n > 0) console.log(`[scheduled] ${n} VIP expiry reminder(s) queued`);
  },
};

/** Mail the requests' own sends did not deliver: retries with backoff until sent or failed (services/mail/outbox.ts). */
export const mail: ScheduledJob = {
  name: 'mail',
  async run(deps) {
    const { sent, retrying, failed } = await deliverMail(deps);
    if (sent + retrying + failed > 0) console.log(`[scheduled] mail: ${sent} sent, ${retrying} to retry, ${failed} failed`);
  },
};

/**
 * Gateway orders pending 15 minutes or more whose IPN never came: VNPay (querydr) and MoMo (query) are asked and a
 * final answer is recorded as the IPN would have (services/payments/reconcile.ts). Runs before stale-orders, so an
 * order paid at the gateway is settled before its lifetime would cancel it.
 */
export const reconcileOrders: ScheduledJob = {
  name: 'reconcile-orders',
  async run(deps, now) {
    const { paid, failed, error } = await reconcilePendingOrders(deps, now);
    if (paid + failed + error > 0) console.log(`[scheduled] reconciliation: ${paid} paid, ${failed} failed, ${error} not answered`);
  },
};

/** Unpaid VIP orders past their lifetime (services/payments/orders.ts) become 'cancelled'. */
export const staleOrders: ScheduledJob = {
  name: 'stale-orders',
  async run({ db }, now) {
    const n = await cancelStaleOrders(db, now);
    if (n > 0) console.log(`[scheduled] cancelled ${n} unpaid order(s) past their lifetime`);
  },
};

/** Trending windows move forward with the hour and the hourly view rollup is pruned (docs/decisions/0607). */
export const trending: ScheduledJob = {
  name: 'trending',
  run: ({ db }, now) => refreshTrending(db, now),
};

/**
 * Scheduled and admin crawls: asks down sources whose back-off is over whether they answer again (one that does
 * resumes by itself), claims due schedules, advances unfinished runs from their cursor within CRAWL_TICK_BUDGET_MS
 * (Workers minute crons stop after 30 s of CPU), settles schedule statuses. A big category completes over several ticks.
 */
export const crawls: ScheduledJob = {
  name: 'crawls',
  async run(deps) {
    await crawlTick(deps, deps.config.CRAWL_TICK_BUDGET_MS, (line) => console.log(`[scheduled] ${line}`));
  },
};

/**
 * Each enabled source's newest list, every 10 minutes (the job is due by the last light run's start, so the minute
 * Cron Trigger and the Node ticker both run it): details only for what changed, through the film writer; a new
 * episode's release is planned by `new-episodes` right after, in the same tick (docs/decisions/1120).
 */
export const lightCrawls: ScheduledJob = {
  name: 'light-crawl',
  async run(deps) {
    for (const r of await lightCrawl(deps)) {
      if (r.outcome === 'crawled' && (r.summary.filmsNew || r.summary.filmsUpdated || r.summary.filmsMerged))
        console.log(
          `[scheduled] light crawl ${r.source}: ${r.summary.details} detail(s), new ${r.summary.filmsNew}, updated ${r.summary.filmsUpdated}`,
        );
      else if (r.outcome === 'failed') console.log(`[scheduled] light crawl ${r.source} failed: ${r.error}`);
    }
  },
};

/** Members' watch history is kept one year (services/library/progress.ts). */
export const watchHistory: ScheduledJob = {
  name: 'watch-history',
  run: ({ db }, now) => pruneHistory(db, now),
};

/**
 * New-episode pushes the write's own kick did not plan: releases a crawl recorded, or a kick cut short
 * (services/push/notifier.ts). Runs after the crawls, so this tick's releases are planned in this tick. It only
 * writes the chunks and hands them to the host's queue (Cloudflare Queues, the Node host's pool): the sending
 * happens beside the tick, never inside it (docs/decisions/1030).
 */
export const newEpisodes: ScheduledJob = {
  name: 'new-episodes',
  async run(deps) {
    const { chunks, sent, failed, removed } = await notifyNewEpisodes(deps);
    if (chunks + sent + failed > 0)
      console.log(
        `[scheduled] new-episode pushes: ${chunks} chunk(s) planned, ${sent} sent, ${failed} failed, ${removed} subscription(s) gone`,
      );
  },
};

/**
 * "Xóa tài khoản" (docs/decisions/1041): members whose 7-day grace period is over are erased (the job runs every
 * minute, so well within the promised 24 hours), and erased members' money records past their 10 years go.
 */
export const accountErasure: ScheduledJob = {
  name: 'account-erasure',
  async run(deps, now) {
    const erased = await completeDueErasures(deps, duties.erase, now);
    const pruned = await pruneErasedMoney(deps.db, now);
    if (erased + pruned > 0) console.log(`[scheduled] ${erased} account(s) erased, ${pruned} order(s) past retention deleted`);
  },
};

/**
 * "Phim tương tự" (docs/decisions/1090): films without a related list first, then lists older than 6 hours, up to
 * 200 films or 5 s a tick (services/related/related.ts). The film pages show a new list once their cache expires.
 */
export const relatedFilms: ScheduledJob = {
  name: 'related-films',
  async run({ db }, now) {
    const n = await refreshRelated(db, now);
    if (n > 0) console.log(`[scheduled] related films: ${n} list(s) refreshed`);
  },
};

/** Every job the Cron Trigger (Workers) or the minute ticker (Node) runs; each job's failure is isolated. */
export const SCHEDULED_JOBS: ScheduledJob[] = [
  housekeeping,
  trending,
  reconcileOrders,
  staleOrders,
  vipReminders,
  mail,
  crawls,
  lightCrawls,
  newEpisodes,
  watchHistory,
  accountErasure,
  relatedFilms,
];

export async function runScheduledJobs(deps: AppDeps, jobs: ScheduledJob[] = SCHEDULED_JOBS): Promise<{ name: string; ok: boolean }[]> {
  const now = deps.now();
  const results = [];
  for (const job of jobs) {
    try {
      await job.run(deps, now);
      results.push({ name: job.name, ok: true });
    } catch (err) {
      console.error(`[scheduled] ${job.name} failed`, err);
      results.push({ name: job.name, ok: false });
    }
  }
  return results;
}
