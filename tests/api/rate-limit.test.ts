import { beforeEach, describe, expect, it } from 'vitest';
import { clientIp, hitRateLimit, RATE_LIMITS } from '../../worker/services/rate-limit';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { createUser, fakeClock } from '../helpers/auth';

let t: TestApp;
let clock: ReturnType<typeof fakeClock>;

beforeEach(async () => {
  clock = fakeClock();
  t = await createTestApp({ now: clock.now });
});

const signIn = (email: string, headers: Record<string, string>) =>
  t.request('/api/dang-nhap', { json: { email, password: 'mat-khau-sai' }, headers });

describe('fixed-window limiter in the rate_limits table', () => {
  it('counts hits atomically: 20 concurrent hits give 20 distinct counts', async () => {
    const rule = { key: 'test:concurrent', limit: 10, windowMs: 60_000 };
    const results = await Promise.all(Array.from({ length: 20 }, () => hitRateLimit(t.deps.db, rule, clock.now())));
    expect(results.map((r) => r.count).sort((a, b) => a - b)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    expect(results.filter((r) => r.allowed)).toHaveLength(10);
  });

  it('starts over in the next window', async () => {
    const rule = { key: 'test:window', limit: 2, windowMs: 60_000 };
    clock.advance(60_000 - (clock.now() % 60_000)); // the start of a window
    expect((await hitRateLimit(t.deps.db, rule, clock.now())).allowed).toBe(true);
    expect((await hitRateLimit(t.deps.db, rule, clock.now())).allowed).toBe(true);
    expect((await hitRateLimit(t.deps.db, rule, clock.now() + 59_999)).allowed).toBe(false);
    expect(await hitRateLimit(t.deps.db, rule, clock.now() + 60_000)).toMatchObject({ allowed: true, count: 1 });
  });
});

describe('clientIp', () => {
  it("prefers cf-connecting-ip, then the first x-forwarded-for hop, else 'unknown'", () => {
    expect(clientIp(new Headers({ 'cf-connecting-ip': '203.0.113.1', 'x-forwarded-for': '198.51.100.1' }))).toBe('203.0.113.1');
    expect(clientIp(new Headers({ 'x-forwarded-for': ' 198.51.100.1 , 10.0.0.1' }))).toBe('198.51.100.1');
    expect(clientIp(new Headers())).toBe('unknown');
  });
});

describe('login and registration limits (429, Vietnamese)', () => {
  it('limits attempts per email, whatever the IP', async () => {
    await createUser(t.deps.db, { email: 'nan-nhan@example.com' });
    const limit = RATE_LIMITS.loginPerEmail.limit;
    for (let i = 0; i < limit; i++)
      expect((await signIn('nan-nhan@example.com', { 'x-forwarded-for': `198.51.100.${i + 1}` })).status).toBe(401);
    const blocked = await signIn('NAN-NHAN@example.com', { 'x-forwarded-for': '198.51.100.200' });
    expect(blocked.status).toBe(429);
    expect(await errorOf(blocked)).toEqual({
      code: 'rate_limited',
      message: 'Bạn đã thử đăng nhập quá nhiều lần. Vui lòng thử lại sau ít phút.',
    });
    clock.advance(RATE_LIMITS.loginPerEmail.windowMs);
    expect((await signIn('nan-nhan@example.com', { 'x-forwarded-for': '198.51.100.201' })).status).toBe(401);
  });

  it('limits attempts per IP across emails, reading cf-connecting-ip first', async () => {
    const limit = RATE_LIMITS.loginPerIp.limit;
    for (let i = 0; i < limit; i++)
      expect((await signIn(`ai-${i}@example.com`, { 'cf-connecting-ip': '203.0.113.9', 'x-forwarded-for': `10.0.0.${i}` })).status).toBe(
        401,
      );
    expect((await signIn('ai-khac@example.com', { 'cf-connecting-ip': '203.0.113.9' })).status).toBe(429);
    expect((await signIn('ai-khac@example.com', { 'cf-connecting-ip': '203.0.113.10' })).status).toBe(401);
  });

  it('limits registrations per IP', async () => {
    const limit = RATE_LIMITS.registerPerIp.limit;
    const register = (i: number) =>
      t.request('/api/dang-ky', {
        json: { email: `moi-${i}@example.com`, name: 'Mới', password: 'mat-khau-123', acceptPrivacy: true },
        headers: { 'x-forwarded-for': '192.0.2.77' },
      });
    for (let i = 0; i < limit; i++) expect((await register(i)).status).toBe(201);
    const blocked = await register(limit);
    expect(blocked.status).toBe(429);
    expect((await errorOf(blocked)).message).toBe('Bạn đã đăng ký quá nhiều lần. Vui lòng thử lại sau.');
  });
});
