import { beforeAll, describe, expect, it } from 'vitest';
import { fold } from '../../worker/db/fold';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { seedCatalogue } from '../helpers/catalogue-fixture';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { PUBLIC_CACHE_SECONDS: 0 } });
  await seedCatalogue(t.deps.db);
});

/** Percent-encodes like a browser; a lone surrogate has no UTF-8 form, so it travels as an invalid byte. */
const enc = (text: string) => text.split('\ud800').map(encodeURIComponent).join('%FF');

const CONTROLS = ['\u0000', '\u0001', '\u0008', '\u001b', '\u007f', '\u0085', '\u200b', '\u2028', '\ufeff', '\ud800'];

describe('control characters never reach SQL text', () => {
  it('fold() turns control and format characters into spaces', () => {
    for (const c of CONTROLS) expect(fold(`phim${c}viet`), JSON.stringify(c)).toBe('phim viet');
    expect(fold('\u0000')).toBe('');
  });

  it('search with a NUL (and every other control character) answers 200, matching as if it were a space', async () => {
    for (const c of CONTROLS) {
      for (const q of [`phim${c}`, `${c}dat rung`, `mắt${c}biếc`, c, `"${c}"`]) {
        const res = await t.request(`/api/product/search?q=${enc(q)}`);
        expect(res.status, JSON.stringify(q)).toBeLessThan(500);
        if (res.status !== 200) expect((await errorOf(res)).message).toMatch(/^q:/);
      }
    }
    const res = await t.request('/api/product/search?q=phim%00');
    expect(res.status).toBe(200);
    const found = (await (await t.request('/api/product/search?q=dat%00rung')).json()) as { data: { title: string }[] };
    expect(found.data.map((f) => f.title)).toContain('Đất Rừng Phương Nam');
  });

  it('listing keyword and the all-films q with control characters answer 200', async () => {
    for (const c of CONTROLS) {
      const e = enc(`rung${c}`);
      expect((await t.request(`/api/product/product-phimbo?keyword=${e}`)).status, JSON.stringify(c)).toBe(200);
      expect((await t.request(`/api/product?q=${e}`)).status, JSON.stringify(c)).toBe(200);
    }
  });
});
