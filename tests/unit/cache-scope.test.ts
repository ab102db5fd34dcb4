// lib/cache-scope.ts: what a cached public response depends on, read from its path (docs/decisions/1020).
import { describe, expect, it } from 'vitest';
import { cacheScopeOf } from '../../worker/lib/cache-scope';

describe('cacheScopeOf', () => {
  it("a film's page, watch pages and detail read depend on that film", () => {
    expect(cacheScopeOf('/mat-biec')).toEqual({ film: 'mat-biec' });
    expect(cacheScopeOf('/xem-phim/mat-biec/tap-4')).toEqual({ film: 'mat-biec' });
    expect(cacheScopeOf('/api/product/mat-biec')).toEqual({ film: 'mat-biec' });
    // A film titled "Product …" shares the listings' path; a listing's own name is never a film's.
    expect(cacheScopeOf('/api/product/product-x-files')).toEqual({ film: 'product-x-files' });
    // Its related list ("Vì bạn đã xem", docs/decisions/1090) too.
    expect(cacheScopeOf('/api/related/mat-biec')).toEqual({ film: 'mat-biec' });
    expect(cacheScopeOf('/api/related/mat-biec/x')).toBe('all');
  });

  it('home, listings, genre and country pages, search, categories and the sitemaps are lists', () => {
    for (const path of [
      '/',
      '/phim-bo',
      '/the-loai/hanh-dong',
      '/tim-kiem/mắt',
      '/quy-dinh',
      '/api/product/product-home',
      '/api/product/home-top',
      '/api/product/sidebar',
      '/api/product/search',
      '/api/product/product-phimle',
      '/api/category',
      '/robots.txt',
      '/sitemap.xml',
      '/sitemaps/films-1.xml',
    ])
      expect([path, cacheScopeOf(path)]).toEqual([path, 'lists']);
  });

  it('anything it does not know depends on every change', () => {
    for (const path of ['/api/product/getdetail_xemphim/12', '/api/pages/quy-dinh', '/xem-chung/abc', '/xem-phim/mat-biec', '/%E0%A4%A'])
      expect([path, cacheScopeOf(path)]).toEqual([path, 'all']);
  });
});
