// The privacy page states how long each kind of data is kept; the scheduler applies it. Both read
// worker/schemas/retention.ts: this test holds the page's text and the scheduler's deletions to the same figures.
import { beforeEach, describe, expect, it } from 'vitest';
import { emailTokens, mailOutbox, rateLimits, refreshTokens, viewEvents, watchProgress } from '../../worker/db/schema';
import { housekeeping, watchHistory } from '../../worker/scheduled';
import { PRIVACY_DATA, PRIVACY_PROCESSORS } from '../../worker/schemas/privacy';
import { RETENTION_DAYS, type RetentionKind } from '../../worker/schemas/retention';
import { issueRefreshToken } from '../../worker/services/auth/refresh-tokens';
import { createTestApp, type TestApp } from '../helpers/app';
import { createUser, insertFilm } from '../helpers/auth';

const DAY = 86_400_000;
let t: TestApp;

beforeEach(async () => {
  t = await createTestApp();
});

const rowText = (id: string) => PRIVACY_DATA.find((r) => r.id === id)?.kept ?? '';

describe('the privacy page says what the scheduler does', () => {
  const shown: [RetentionKind, string][] = [
    ['watchHistory', 'history'],
    ['session', 'sessions'],
    ['emailLink', 'email_links'],
    ['mailSent', 'mail'],
    ['mailFailed', 'mail'],
    ['rateLimits', 'rate_limits'],
    ['viewEvents', 'view_events'],
  ];
  it.each(shown)('the page shows the %s figure in the "%s" row', (kind, row) => {
    expect(rowText(row)).toContain(`${RETENTION_DAYS[kind]} ngày`);
  });

  it('the scheduler deletes each kind just past its figure and keeps it just before', async () => {
    const now = Date.UTC(2026, 5, 1);
    const { db } = t.deps;
    const user = await createUser(db);
    const film = await insertFilm(db, 'phim-luu-giu');
    const past = (kind: RetentionKind) => now - RETENTION_DAYS[kind] * DAY - 1;
    const within = (kind: RetentionKind) => now - RETENTION_DAYS[kind] * DAY + 1;

    await db.insert(viewEvents).values([
      { filmId: film, viewedAt: past('viewEvents') },
      { filmId: film, viewedAt: within('viewEvents') },
    ]);
    await db.insert(rateLimits).values([
      { key: 'login:ip:old', count: 1, windowStart: past('rateLimits') },
      { key: 'login:ip:new', count: 1, windowStart: within('rateLimits') },
    ]);
    await db.insert(mailOutbox).values([
      { kind: 'receipt', toAddress: 'a@example.com', status: 'sent', createdAt: past('mailSent') },
      { kind: 'receipt', toAddress: 'b@example.com', status: 'sent', createdAt: within('mailSent') },
      { kind: 'receipt', toAddress: 'c@example.com', status: 'failed', createdAt: past('mailFailed') },
      { kind: 'receipt', toAddress: 'd@example.com', status: 'failed', createdAt: within('mailFailed') },
    ]);
    await db.insert(emailTokens).values([
      {
        userId: user.id,
        purpose: 'verify_email',
        tokenHash: 'old',
        email: 'a@example.com',
        expiresAt: now + DAY,
        usedAt: past('emailLink'),
      },
      {
        userId: user.id,
        purpose: 'verify_email',
        tokenHash: 'new',
        email: 'a@example.com',
        expiresAt: now + DAY,
        usedAt: within('emailLink'),
      },
    ]);
    // A session issued just over its lifetime ago has expired; one issued just under has not.
    await issueRefreshToken(db, user.id, past('session'));
    await issueRefreshToken(db, user.id, within('session'));
    await db.insert(watchProgress).values([
      { userId: user.id, filmId: film, episode: 1, position: 10, duration: 100, updatedAt: past('watchHistory') },
      { userId: user.id, filmId: film, episode: 2, position: 10, duration: 100, updatedAt: within('watchHistory') },
    ]);

    await housekeeping.run(t.deps, now);
    await watchHistory.run(t.deps, now);

    expect((await db.select().from(viewEvents)).map((r) => r.viewedAt)).toEqual([within('viewEvents')]);
    expect((await db.select().from(rateLimits)).map((r) => r.key)).toEqual(['login:ip:new']);
    expect((await db.select().from(mailOutbox)).map((r) => r.toAddress).sort()).toEqual(['b@example.com', 'd@example.com']);
    expect((await db.select().from(emailTokens)).map((r) => r.tokenHash)).toEqual(['new']);
    expect(await db.$count(refreshTokens)).toBe(1);
    expect((await db.select().from(watchProgress)).map((r) => r.episode)).toEqual([2]);
  });
});

describe('the privacy page names every processor', () => {
  it.each(['VNPay', 'MoMo', 'SePay', 'email', 'Cloudflare', 'Turso', 'Google'])('names %s', (name) => {
    expect(PRIVACY_PROCESSORS.some((p) => p.name.includes(name) || (name === 'email' && /email/i.test(p.name)))).toBe(true);
  });
});
