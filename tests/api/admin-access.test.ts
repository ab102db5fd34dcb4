// The roles and permissions rules enforced by the API: every admin endpoint against every kind of viewer. Admin-only
// endpoints admit role admin; dashboard, add film and add or change episodes also admit permission VIP2, the
// episodes only of films the VIP2 holder added (phim-truy-cap was not added by them: 403).
// Visitors get 401, everyone else without the right 403; the allowed ones never get 401/403/5xx.
import { beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, insertFilm, signedInUser } from '../helpers/auth';

type Who = 'visitor' | 'user' | 'VIP1' | 'VIP2' | 'admin';
const WHO: Who[] = ['visitor', 'user', 'VIP1', 'VIP2', 'admin'];

interface Endpoint {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  json?: unknown;
  vip2: boolean;
}

// Bodies are valid where that is harmless, and aimed at nothing real where a write would change state
// other rows rely on (a missing slug answers 404, which still proves the viewer got past the guard).
const ENDPOINTS: Endpoint[] = [
  { method: 'GET', path: '/api/getalluser', vip2: false },
  { method: 'GET', path: '/api/getalluser?page=1&q=a', vip2: false },
  { method: 'POST', path: '/api/update_roles', json: { id_user_update: 999_999, edited_roles: 'admin' }, vip2: false },
  { method: 'POST', path: '/api/update_permissions', json: { id_user_update: 999_999, edited_Permissions: ['VIP1'] }, vip2: false },
  { method: 'POST', path: '/api/admin/users/999999/reset-password', vip2: false },
  { method: 'POST', path: '/api/admin/addphim', json: { title: 'Phim Thêm Tay', category_id: 25 }, vip2: true },
  { method: 'POST', path: '/api/product/edit_productphim', json: { data: { slug: 'khong-co-phim-nay', title: 'X' } }, vip2: false },
  { method: 'DELETE', path: '/api/product/delete_product?title=khong-co-phim-nay', vip2: false },
  { method: 'DELETE', path: '/api/product/delete_products', json: { titles: ['khong-co-phim-nay'] }, vip2: false },
  { method: 'POST', path: '/api/product/edit_packageVIP1', json: { title: 'phim-truy-cap', VIP1: 0 }, vip2: false },
  {
    method: 'POST',
    path: '/api/product/create_xemphim',
    json: { selectedTitle: 'phim-truy-cap', episode: 1, linkfilm: 'https://cdn.example.com/1.m3u8' },
    vip2: false,
  },
  { method: 'GET', path: '/api/product/admin_episodes?title=phim-truy-cap', vip2: false },
  { method: 'POST', path: '/api/product/edit_xemphim', json: { id: 999_999, linkfilm: 'https://cdn.example.com/2.m3u8' }, vip2: true },
  { method: 'DELETE', path: '/api/product/delete_xemphim?id=999999', vip2: false },
  { method: 'POST', path: '/api/crawl', json: { category: 'Không có thể loại này' }, vip2: false },
  { method: 'GET', path: '/api/crawl_runs', vip2: false },
  { method: 'GET', path: '/api/crawl_runs/999999', vip2: false },
  { method: 'GET', path: '/api/schedule_crawl', vip2: false },
  {
    method: 'POST',
    path: '/api/create_scheduled_crawls',
    json: { categories: ['Hành Động'], date: '2099-01-01', time: '08:00' },
    vip2: false,
  },
  { method: 'DELETE', path: '/api/delete_scheduled_crawls?id=999999', vip2: false },
  { method: 'GET', path: '/api/admin/error-reports', vip2: false },
  { method: 'POST', path: '/api/admin/error-reports/999999/resolve', vip2: false },
  { method: 'GET', path: '/api/admin/stats', vip2: true },
  { method: 'GET', path: '/api/admin/analytics', vip2: false },
  { method: 'GET', path: '/api/admin/settings', vip2: false },
  { method: 'PUT', path: '/api/admin/settings', json: { hotline: '1900 0000' }, vip2: false },
  { method: 'GET', path: '/api/admin/audit', vip2: false },
  { method: 'POST', path: '/api/admin/audit/999999/undo', vip2: false },
  { method: 'GET', path: '/api/admin/film?slug=phim-truy-cap', vip2: false },
  { method: 'GET', path: '/api/admin/deleted-films', vip2: false },
  { method: 'POST', path: '/api/admin/deleted-films/999999/restore', vip2: false },
  { method: 'GET', path: '/api/admin/orders?method=bank_transfer&status=pending', vip2: false },
  { method: 'POST', path: '/api/admin/orders/0123456789abcdef0123456789abcdef/confirm', vip2: false },
  { method: 'GET', path: '/api/admin/pages', vip2: false },
];

let t: TestApp;
const tokens: Partial<Record<Who, string>> = {};

beforeAll(async () => {
  t = await createTestApp();
  await insertFilm(t.deps.db, 'phim-truy-cap');
  tokens.user = (await signedInUser(t)).session.token;
  tokens.VIP1 = (await signedInUser(t, { permissions: 'VIP1' })).session.token;
  tokens.VIP2 = (await signedInUser(t, { permissions: 'VIP2' })).session.token;
  tokens.admin = (await signedInUser(t, { roles: 'admin' })).session.token;
});

function call(e: Endpoint, who: Who) {
  const token = tokens[who];
  return t.request(e.path, { method: e.method, ...(e.json === undefined ? {} : { json: e.json }), headers: token ? bearer(token) : {} });
}

describe.each(ENDPOINTS)('$method $path', (e) => {
  it.each(WHO)('as %s', async (who) => {
    const res = await call(e, who);
    const allowed = who === 'admin' || (who === 'VIP2' && e.vip2);
    if (allowed) {
      expect(res.status, await res.clone().text()).toBeLessThan(500);
      expect([401, 403]).not.toContain(res.status);
    } else {
      expect(res.status).toBe(who === 'visitor' ? 401 : 403);
      expect((await errorOf(res)).code).toBe(who === 'visitor' ? 'unauthorized' : 'forbidden');
    }
  });
});

describe('a token that is not valid', () => {
  it('is a visitor: 401 on an admin endpoint', async () => {
    const res = await t.request('/api/getalluser', { headers: bearer('not-a-token') });
    expect(res.status).toBe(401);
  });
});
