import { afterEach, describe, expect, it } from 'vitest';
import { hasEarlierPageOfOurs, vipGateExit } from '../../web/src/lib/vip-gate';

describe('VIP gate: where the viewer goes after the alert (docs/decisions/0401-vip-error-flags.md)', () => {
  it('goes back one page when that page is ours, whatever the flag', () => {
    expect(vipGateExit('error1', true, '/phim-x')).toEqual({ to: 'back' });
    expect(vipGateExit('error', true, '/phim-x')).toEqual({ to: 'back' });
  });

  it('with no earlier page of ours: a visitor signs in and comes back here; a member without VIP sees the plans', () => {
    expect(vipGateExit('error1', false, '/xem-phim/phim-x/tap-1?server=Vietsub+%231')).toEqual({
      to: '/dang-nhap',
      redirect: '/xem-phim/phim-x/tap-1?server=Vietsub+%231',
    });
    expect(vipGateExit('error', false, '/phim-x')).toEqual({ to: '/dang-ky-goi-vip' });
  });
});

describe('hasEarlierPageOfOurs', () => {
  const g = globalThis as { window?: unknown };
  afterEach(() => {
    delete g.window;
  });

  it("trusts the Navigation API's canGoBack (this site's entries only) where the browser has it", () => {
    g.window = { navigation: { canGoBack: false } };
    expect(hasEarlierPageOfOurs(() => true)).toBe(false);
    g.window = { navigation: { canGoBack: true } };
    expect(hasEarlierPageOfOurs(() => false)).toBe(true);
  });

  it("falls back on the router's history index elsewhere", () => {
    g.window = {};
    expect(hasEarlierPageOfOurs(() => true)).toBe(true);
    expect(hasEarlierPageOfOurs(() => false)).toBe(false);
  });
});
