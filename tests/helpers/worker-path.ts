// The app on the Worker path: @libsql/client/web, as worker/index.ts builds it, against a fresh Hrana test
// server seeded with the catalogue fixture. Each pipeline the server sees is one network round trip to Turso
// in production; `measure` counts them for one request.
import { createClient } from '@libsql/client/web';
import { drizzle } from 'drizzle-orm/libsql/web';
import { createApp } from '../../worker/app';
import { loadConfig } from '../../worker/config';
import { type Db, schema } from '../../worker/db/client';
import { openDatabase } from '../../worker/db/node-client';
import { seedCatalogue } from './catalogue-fixture';
import { type HranaServer, startHranaServer } from './hrana-server';

export interface WorkerPath {
  server: HranaServer;
  app: ReturnType<typeof createApp>;
  /** The app's own database handle (through Hrana): what a test changes behind the app's back. */
  db: Db;
  /** One request: its round trips, status, response and body (JSON when it parses, else the text). */
  measure: (path: string, init?: RequestInit) => Promise<{ trips: number; status: number; res: Response; body: unknown }>;
  close: () => Promise<void>;
}

/**
 * Seeds the catalogue (and `seed`'s rows) through a file connection, which is fast, then builds the app over
 * Hrana with no response cache (every request reads the database) and makes the client's first call, the
 * protocol version probe, which is no endpoint's cost.
 */
export async function startWorkerPath(seed?: (db: Db) => Promise<void>): Promise<WorkerPath> {
  const server = await startHranaServer();
  const local = openDatabase(`file:${server.path}`);
  await seedCatalogue(local.db);
  await seed?.(local.db);
  local.client.close();
  const client = createClient({ url: server.url });
  const db = drizzle(client, { schema });
  const config = loadConfig({ APP_ENV: 'test', PUBLIC_CACHE_SECONDS: '0' });
  const app = createApp({ db, config, now: Date.now, fetch: globalThis.fetch });
  await app.request('/api/health');
  const measure: WorkerPath['measure'] = async (path, init) => {
    const before = server.stats.pipelines();
    const res = await app.request(path, init);
    const text = await res.text();
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // not JSON: the text is the body
    }
    return { trips: server.stats.pipelines() - before, status: res.status, res, body };
  };
  return {
    server,
    app,
    db,
    measure,
    close: async () => {
      client.close();
      await server.close();
    },
  };
}
