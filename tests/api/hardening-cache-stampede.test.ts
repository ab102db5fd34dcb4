import { describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../../worker/db/node-client';
import { createTestApp } from '../helpers/app';
import { seedCatalogue } from '../helpers/catalogue-fixture';

describe('public read cache under a burst', () => {
  it('concurrent misses of one URL run the handler once; the others get its answer', async () => {
    const { db, client } = await openMigratedDatabase(':memory:');
    const t = await createTestApp({ db });
    await seedCatalogue(db);
    let statements = 0;
    const execute = client.execute.bind(client);
    const batch = client.batch.bind(client);
    Object.assign(client, {
      execute: (...args: Parameters<typeof execute>) => {
        statements++;
        return execute(...args);
      },
      batch: (...args: Parameters<typeof batch>) => {
        statements += args[0].length;
        return batch(...args);
      },
    });
    const burst = await Promise.all(Array.from({ length: 20 }, () => t.request('/api/product/product-home')));
    const bodies = await Promise.all(burst.map((r) => r.text()));
    expect(burst.every((r) => r.status === 200)).toBe(true);
    expect(new Set(bodies).size).toBe(1);
    // One home page's worth of statements (14: its lists, the two Top 10 rows and the top-ups on a catalogue with
    // few plays) and one read of the catalogue versions (two statements, lib/public-cache.ts), not twenty.
    expect(statements).toBeLessThanOrEqual(16);
    expect(burst.filter((r) => r.headers.get('x-cache') === 'miss')).toHaveLength(1);
  });
});
