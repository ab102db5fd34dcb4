import { describe, expect, it } from 'vitest';
import { createTestApp } from '../helpers/app';

describe('GET /api/health', () => {
  it('answers ok after a real query', async () => {
    const { request } = await createTestApp();
    const res = await request('/api/health');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, db: 'ok' });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
  it('answers unknown API paths with the JSON error shape', async () => {
    const { request } = await createTestApp();
    const res = await request('/api/nope');
    expect(res.status).toBe(404);
    expect((await res.json()).error.code).toBe('not_found');
  });
});
