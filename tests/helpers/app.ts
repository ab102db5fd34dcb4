import { createApp } from '../../worker/app';
import { loadConfig, type Config } from '../../worker/config';
import type { AppDeps } from '../../worker/lib/context';
import type { ErrorBody } from '../../worker/schemas/errors';
import { openMigratedDatabase } from '../../worker/db/node-client';

export interface TestApp {
  app: ReturnType<typeof createApp>;
  deps: AppDeps;
  /** app.request with JSON helpers. */
  request: (path: string, init?: RequestInit & { json?: unknown }) => Promise<Response>;
  /** Moves the default clock forward (cache expiry, token expiry); no effect when `now` is overridden. */
  advance: (ms: number) => void;
}

/** A fresh app on a fresh :memory: libSQL migrated with the real migrations. */
export async function createTestApp(overrides: Partial<Omit<AppDeps, 'config'>> & { config?: Partial<Config> } = {}): Promise<TestApp> {
  const { db } = await openMigratedDatabase(':memory:');
  const config = { ...loadConfig({ APP_ENV: 'test' }), ...overrides.config };
  let offset = 0;
  const deps: AppDeps = { db, now: () => Date.now() + offset, fetch: globalThis.fetch, ...overrides, config };
  const app = createApp(deps);
  const request = (path: string, init: RequestInit & { json?: unknown } = {}) => {
    const { json, ...rest } = init;
    if (json !== undefined) {
      rest.method ??= 'POST';
      rest.body = JSON.stringify(json);
      rest.headers = { 'content-type': 'application/json', ...(rest.headers as Record<string, string> | undefined) };
    }
    return Promise.resolve(app.request(path, rest));
  };
  return {
    app,
    deps,
    request,
    advance: (ms) => {
      offset += ms;
    },
  };
}

/** The `{ error }` body every API failure carries (worker/lib/errors.ts). */
export async function errorOf(res: Response): Promise<ErrorBody['error']> {
  return ((await res.json()) as ErrorBody).error;
}
