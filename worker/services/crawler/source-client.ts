// Polite access to one source: a minimum gap between request starts shared by every worker, and
// retries with exponential backoff for failures that may pass (5xx, 429, timeouts, network).
import { CrawlFetchError, guardedFetchJson, type GuardOptions } from './fetch-guard';

export interface SourceClientOptions extends GuardOptions {
  /** Minimum gap between the starts of two requests (config.CRAWL_DELAY_MS). */
  delayMs: number;
  /** Retries after the first attempt. */
  retries: number;
  /** First backoff; doubled on each retry. */
  retryBaseMs: number;
}

export interface SourceClient {
  getJson(url: string): Promise<unknown>;
  /** Requests sent, retries included. */
  readonly requests: number;
}

export function createSourceClient(options: SourceClientOptions): SourceClient {
  let nextSlot = 0;
  let requests = 0;

  async function politeTurn(): Promise<void> {
    const now = Date.now();
    const slot = Math.max(now, nextSlot);
    nextSlot = slot + options.delayMs;
    if (slot > now) await sleep(slot - now);
  }

  return {
    get requests() {
      return requests;
    },
    async getJson(url: string): Promise<unknown> {
      for (let attempt = 0; ; attempt++) {
        await politeTurn();
        requests++;
        try {
          return await guardedFetchJson(url, options);
        } catch (err) {
          if (!(err instanceof CrawlFetchError) || !err.retryable || attempt >= options.retries) throw err;
          await sleep(options.retryBaseMs * 2 ** attempt);
        }
      }
    },
  };
}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Runs fn over items with at most `limit` in flight. After a failure no new item starts; the first
 * error is rethrown once the items already in flight have settled, so nothing runs on afterwards.
 */
export async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  let firstError: { error: unknown } | undefined;
  const worker = async () => {
    while (!firstError && next < items.length) {
      const index = next++;
      try {
        await fn(items[index] as T, index);
      } catch (error) {
        firstError ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (firstError) throw firstError.error;
}

/** A FIFO mutex: one holder at a time, in the order they asked. */
export function createMutex() {
  let tail: Promise<void> = Promise.resolve();
  return async function withLock<R>(fn: () => Promise<R>): Promise<R> {
    const previous = tail;
    let release!: () => void;
    tail = new Promise<void>((resolve) => (release = resolve));
    await previous;
    try {
      return await fn();
    } finally {
      release();
    }
  };
}
