// The demo source serves every list path the 27 crawl categories map to, so the demo admin can crawl
// by genre or type offline (worker/services/crawler/crawl-lists.ts is the mapping).
import { describe, expect, it } from 'vitest';
import { buildDemoCatalogue } from '../../demo/catalogue';
import { handleDemoRequest } from '../../demo/server';
import { CRAWL_CATEGORY_NAMES } from '../../worker/schemas/admin';
import { crawlListForCategory } from '../../worker/services/crawler/crawl-lists';

const films = buildDemoCatalogue(2026);

describe('demo source list paths', () => {
  it('has 27 crawl category names, each mapped to a list path', () => {
    expect(CRAWL_CATEGORY_NAMES).toHaveLength(27);
    expect(new Set(CRAWL_CATEGORY_NAMES).size).toBe(27);
  });

  it.each(CRAWL_CATEGORY_NAMES.map((name) => [name, crawlListForCategory(name)]))('%s → /%s answers a list with films', (_name, list) => {
    const { status, body } = handleDemoRequest(films, 'http://demo.local/media', 'GET', `/${list}?page=1`);
    expect(status).toBe(200);
    const page = body as { items: unknown[]; pagination: { totalItems: number } };
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.pagination.totalItems).toBeGreaterThan(0);
  });
});
