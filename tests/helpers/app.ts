import { createApp } from '../../worker/app';
import { loadConfig, type Config } from '../../worker/config';
import type { AppDeps } from '../../worker/lib/context';
import type { ErrorBody } from '../../worker/schemas/errors';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { nodeMailTransport } from '../../worker/services/mail/node-smtp';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  /** app.request with JSON helpers. */
  request: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
  /**
   * Resolves once every piece of work a handler left running after its response (waitUntil, e.g. the
   * room push) has finished: tests wait for that event instead of sleeping.
   */
  background: () => Promise<void>;
  /** Moves the default clock forward (cache expiry, token expiry); no effect when `now` is overridden. */
  advance: (ms: number) => void;
}

/** A fresh app on a fresh :memory: libSQL migrated with the real migrations. */
export async function createTestApp(overrides: Partial<Omit<AppDeps, 'config'>> & { config?: Partial<Config> } = {}): Promise<TestApp> {
  const { db } = await openMigratedDatabase(':memory:');
  const config = { ...loadConfig({ APP_ENV: 'test' }), ...overrides.config };
  let offset = 0;
  const deps: AppDeps = {
    db,
    now: () => Date.now() + offset,
    fetch: globalThis.fetch,
    // With SMTP_URL (a test's own SMTP server, tests/helpers/smtp-server.ts) mail really leaves, as on the Node host.
    mail: nodeMailTransport(config, overrides.fetch ?? globalThis.fetch),
    ...overrides,
    config,
  };
  const app = createApp(deps);
  // The Workers contract: work after the response is handed to waitUntil, which this context records.
  const pending: Promise<unknown>[] = [];
  const executionCtx = {
    waitUntil: (promise: Promise<unknown>) => void pending.push(promise),
    passThroughOnException: () => undefined,
    props: {},
  };
  const request = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    if (json !== undefined) {
      rest.method ??= 'POST';
      rest.body = JSON.stringify(json);
      rest.headers = { 'content-type': 'application/json', ...(rest.headers as Record<string, string> | undefined) };
    }
    return Promise.resolve(app.request(path, rest, undefined, executionCtx));
  };
  return {
    app,
    deps,
    request,
    background: async () => {
      while (pending.length > 0) await Promise.allSettled(pending.splice(0));
    },
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** The `{ error }` body every API failure carries (worker/lib/errors.ts). */
export async function errorOf(res: Response): Promise<ErrorBody['error']> {
  return ((await res.json()) as ErrorBody).error;
}
