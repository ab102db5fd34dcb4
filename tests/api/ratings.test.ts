import { beforeEach, describe, expect, it } from 'vitest';
import { ratings } from '../../worker/db/schema';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, fakeClock, insertFilm, signedInUser } from '../helpers/auth';

let t: TestApp;

beforeEach(async () => {
  t = await createTestApp({ now: fakeClock().now });
  await insertFilm(t.deps.db, 'mat-biec', 'Mắt Biếc');
  await insertFilm(t.deps.db, 'lat-mat-8', 'Lật Mặt 8');
});

const rate = (token: string | null, json: unknown) => t.request('/api/product/rating_star', { json, headers: token ? bearer(token) : {} });

describe('POST /api/product/rating_star', () => {
  it('records the rating and answers with it and the film summary', async () => {
    const user = await signedInUser(t);
    const res = await rate(user.session.token, { titlefilm: 'mat-biec', id: user.id, email: user.email, starselect: 8 });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ rating: 8, general_assessment: { totalRatings: 1, averageRating: 8 } });
  });

  it('keeps one rating per user per film: rating again updates it', async () => {
    const user = await signedInUser(t);
    await rate(user.session.token, { titlefilm: 'mat-biec', starselect: 3 });
    const again = await (await rate(user.session.token, { titlefilm: 'mat-biec', starselect: 9 })).json();
    expect(again).toEqual({ rating: 9, general_assessment: { totalRatings: 1, averageRating: 9 } });
    expect(await t.deps.db.$count(ratings)).toBe(1);
    // Another film is rated separately.
    expect((await (await rate(user.session.token, { titlefilm: 'lat-mat-8', starselect: 2 })).json()).general_assessment).toEqual({
      totalRatings: 1,
      averageRating: 2,
    });
  });

  it('averages over users to one decimal', async () => {
    const stars = [7, 8, 8];
    let last: { general_assessment: unknown } | undefined;
    for (const s of stars)
      last = await (await rate((await signedInUser(t)).session.token, { titlefilm: 'mat-biec', starselect: s })).json();
    expect(last!.general_assessment).toEqual({ totalRatings: 3, averageRating: 7.7 });
  });

  it('takes identity from the token: id and email in the body are ignored', async () => {
    const a = await signedInUser(t);
    const b = await signedInUser(t);
    await rate(b.session.token, { titlefilm: 'mat-biec', starselect: 10 });
    const res = await (await rate(a.session.token, { titlefilm: 'mat-biec', id: b.id, email: b.email, starselect: 1 })).json();
    expect(res.general_assessment).toEqual({ totalRatings: 2, averageRating: 5.5 });
  });

  it.each([0, 11, -1, 5.5, 'abc', null, '', true])('refuses starselect %j with 400 naming starselect', async (starselect) => {
    const user = await signedInUser(t);
    const res = await rate(user.session.token, { titlefilm: 'mat-biec', starselect });
    expect(res.status).toBe(400);
    expect((await errorOf(res)).message).toMatch(/^starselect: /);
  });

  it('accepts the bounds 1 and 10, and a numeric string', async () => {
    const user = await signedInUser(t);
    expect((await (await rate(user.session.token, { titlefilm: 'mat-biec', starselect: 1 })).json()).rating).toBe(1);
    expect((await (await rate(user.session.token, { titlefilm: 'mat-biec', starselect: 10 })).json()).rating).toBe(10);
    expect((await (await rate(user.session.token, { titlefilm: 'mat-biec', starselect: '6' })).json()).rating).toBe(6);
  });

  it('needs a signed-in user and a known film', async () => {
    expect((await rate(null, { titlefilm: 'mat-biec', starselect: 5 })).status).toBe(401);
    const user = await signedInUser(t);
    expect((await rate(user.session.token, { titlefilm: 'khong-co', starselect: 5 })).status).toBe(404);
    expect((await errorOf(await rate(user.session.token, { starselect: 5 }))).message).toBe('titlefilm: is required');
  });

  it("shows on the film detail: the viewer's own rating and the summary", async () => {
    const user = await signedInUser(t);
    await rate(user.session.token, { titlefilm: 'mat-biec', starselect: 7 });
    const detail = await (await t.request('/api/product/mat-biec', { headers: bearer(user.session.token) })).json();
    expect(detail.rating_star).toEqual({ rating: 7 });
    expect(detail.general_assessment).toEqual({ totalRatings: 1, averageRating: 7 });
    const anonymous = await (await t.request('/api/product/mat-biec')).json();
    expect(anonymous.rating_star).toEqual({ rating: null });
  });
});
