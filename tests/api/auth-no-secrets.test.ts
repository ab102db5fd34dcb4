import { describe, expect, it } from 'vitest';
import { refreshTokens, users } from '../../worker/db/schema';
import { createTestApp } from '../helpers/app';
import { bearer, fakeClock, insertFilm } from '../helpers/auth';
import { createGoogleStandIn, TEST_GOOGLE_CLIENT_ID, TEST_JWKS_URL } from '../helpers/jwks';

describe('no response ever carries a password hash or a stored token hash', () => {
  it('scans the output of every auth, account, comment and rating endpoint, errors included', async () => {
    const clock = fakeClock();
    const google = await createGoogleStandIn();
    const roomFetch = (async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).startsWith(TEST_JWKS_URL) ? google.fetch(input, init) : Response.json({ ok: true })) as typeof fetch;
    const t = await createTestApp({
      now: clock.now,
      fetch: roomFetch,
      config: { GOOGLE_CLIENT_ID: TEST_GOOGLE_CLIENT_ID, GOOGLE_JWKS_URL: TEST_JWKS_URL },
    });
    await insertFilm(t.deps.db, 'mat-biec', 'Mắt Biếc');
    const outputs: string[] = [];
    const call = async (path: string, init: Parameters<typeof t.request>[1] = {}) => {
      const res = await t.request(path, init);
      const text = await res.text();
      outputs.push(`${res.status} ${path} ${[...res.headers].map(([k, v]) => `${k}:${v}`).join(' ')} ${text}`);
      return text ? JSON.parse(text) : null;
    };

    await call('/api/dang-ky', { json: { email: 'an@example.com', name: 'An', password: 'mat-khau-123', acceptPrivacy: true } });
    await call('/api/dang-ky', { json: { email: 'an@example.com', name: 'An', password: 'mat-khau-123', acceptPrivacy: true } }); // 409
    await call('/api/dang-ky', { json: { email: 'an@example.com', name: 'An', password: 'short', acceptPrivacy: true } }); // 400
    await call('/api/dang-nhap', { json: { email: 'an@example.com', password: 'sai-mat-khau' } }); // 401
    const session = await call('/api/dang-nhap', { json: { email: 'an@example.com', password: 'mat-khau-123' } });
    await call('/api/dang-nhap', {
      json: { googleToken: await google.sign({}, { nowSeconds: Math.floor(clock.now() / 1000) }), acceptPrivacy: true },
    });
    await call('/api/dang-nhap', { json: { googleToken: 'bad' } });
    await call('/api/account', { headers: bearer(session.token) });
    const comment = await call('/api/product/comment', {
      json: { titlefilm: 'mat-biec', contentcomment: 'hay' },
      headers: bearer(session.token),
    });
    await call('/api/product/comment', {
      json: { titlefilm: 'mat-biec', contentcomment: 'trả lời', parent_id: comment.id },
      headers: bearer(session.token),
    });
    await call('/api/product/comment', { json: { titlefilm: 'mat-biec', contentcomment: '' }, headers: bearer(session.token) });
    await call('/api/product/mat-biec/comments');
    await call('/api/product/mat-biec', { headers: bearer(session.token) });
    await call('/api/product/rating_star', { json: { titlefilm: 'mat-biec', starselect: 9 }, headers: bearer(session.token) });
    await call('/api/product/rating_star', { json: { titlefilm: 'mat-biec', starselect: 99 }, headers: bearer(session.token) });
    const refreshed = await call('/api/refresh_token', { json: { token: session.refreshToken } });
    await call('/api/refresh_token', { json: { token: session.refreshToken } }); // replay → 401
    const fresh = await call('/api/dang-nhap', { json: { email: 'an@example.com', password: 'mat-khau-123' } });
    await call('/api/account/password', { json: { currentPassword: 'sai', newPassword: 'mat-khau-456' }, headers: bearer(fresh.token) });
    const changed = await call('/api/account/password', {
      json: { currentPassword: 'mat-khau-123', newPassword: 'mat-khau-456' },
      headers: bearer(fresh.token),
    });
    await call('/api/account', { headers: bearer(changed.token) });
    await call('/api/dang-xuat', { json: { token: refreshed.refreshToken } });
    await call('/api/account/logout-all', { method: 'POST', headers: bearer(changed.token) });

    const passwordHashes = (await t.deps.db.select({ h: users.passwordHash }).from(users)).map((r) => r.h).filter((h): h is string => !!h);
    const tokenHashes = (await t.deps.db.select({ h: refreshTokens.tokenHash }).from(refreshTokens)).map((r) => r.h);
    expect(passwordHashes.length).toBeGreaterThan(0);
    expect(tokenHashes.length).toBeGreaterThan(3);
    expect(outputs).toHaveLength(23);
    for (const output of outputs) {
      expect(output).not.toMatch(/pbkdf2/i);
      expect(output).not.toMatch(/password_?hash|token_?hash/i);
      for (const hash of passwordHashes) {
        expect(output).not.toContain(hash);
        for (const part of hash.split('$').slice(2)) expect(output).not.toContain(part);
      }
      for (const hash of tokenHashes) expect(output).not.toContain(hash);
    }
  });
});
