// formatNumber writes numbers as Intl.NumberFormat('vi-VN') does without building the formatter (its locale data
// is a long task on a phone's first render): the same text for every number the pages show.
import { describe, expect, it } from 'vitest';
import { formatNumber } from '../../web/src/lib/format';

const intl = new Intl.NumberFormat('vi-VN');

describe('formatNumber', () => {
  it('matches Intl vi-VN for counts, prices and decimals', () => {
    const values = [0, 1, 9, 10, 999, 1000, 1001, 12_345, 99_000, 100_000, 1_234_567, 50_000_000, 2 ** 31, Number.MAX_SAFE_INTEGER];
    values.push(-1, -999, -1000, -1_234_567, 0.5, 1.25, 0.125, 1234.5, 7.1, 8.75, -3.5, 0.0004, 1.9996, 999.9999);
    for (let i = 0; i < 2000; i++) values.push(Math.floor(Math.random() * 10 ** (1 + (i % 12))), Math.round(Math.random() * 1e6) / 100);
    for (const n of values) expect(formatNumber(n), String(n)).toBe(intl.format(n));
  });

  it('leaves what it does not write itself to Intl', () => {
    for (const n of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0, 1e21, -0.0001])
      expect(formatNumber(n)).toBe(intl.format(n));
  });
});
