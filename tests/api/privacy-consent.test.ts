import { eq } from 'drizzle-orm';
import { beforeEach, describe, expect, it } from 'vitest';
import { auditLog, consentRecords, users } from '../../worker/db/schema';
import { CONSENT_TEXTS, PRIVACY_POLICY_VERSION } from '../../worker/schemas/privacy';
import { createTestApp, errorOf, type TestApp } from '../helpers/app';
import { bearer, fakeClock, signedInUser } from '../helpers/auth';

let t: TestApp;
let clock: ReturnType<typeof fakeClock>;

beforeEach(async () => {
  clock = fakeClock();
  t = await createTestApp({ now: clock.now });
});

const signUp = (json: Record<string, unknown>) =>
  t.request('/api/dang-ky', { json: { email: 'an@example.com', name: 'An', password: 'mat-khau-123', ...json } });

describe('sign-up records consent to the privacy policy', () => {
  it.each([
    ['missing', {}],
    ['false (the box left unticked)', { acceptPrivacy: false }],
    ['a string', { acceptPrivacy: 'true' }],
  ])('refuses a sign-up whose acceptPrivacy is %s: 400 naming the field, no account', async (_name, json) => {
    const res = await signUp(json);
    expect(res.status).toBe(400);
    expect(await errorOf(res)).toEqual({ code: 'invalid_input', message: `acceptPrivacy: ${CONSENT_TEXTS.required}` });
    expect(await t.deps.db.$count(users)).toBe(0);
    expect(await t.deps.db.$count(consentRecords)).toBe(0);
  });

  it('with the box ticked: 201 and one consent row with the policy version, the time and how', async () => {
    const res = await signUp({ acceptPrivacy: true });
    expect(res.status).toBe(201);
    const { user } = await res.json();
    expect(await t.deps.db.select().from(consentRecords)).toEqual([
      { id: expect.any(Number), userId: user.id, policyVersion: PRIVACY_POLICY_VERSION, acceptedAt: clock.now(), method: 'sign_up' },
    ]);
  });
});

describe('a new policy version asks signed-in members once', () => {
  it('a member who accepted an older version is asked; accepting records a row and the question stops', async () => {
    const member = await signedInUser(t);
    const headers = bearer(member.session.token);
    await t.deps.db
      .insert(consentRecords)
      .values({ userId: member.id, policyVersion: '2025-01-01', acceptedAt: clock.now() - 1000, method: 'sign_up' });

    const before = await (await t.request('/api/privacy/consent', { headers })).json();
    expect(before).toEqual({
      currentVersion: PRIVACY_POLICY_VERSION,
      acceptedVersion: '2025-01-01',
      acceptedAt: clock.now() - 1000,
      needed: true,
    });

    clock.advance(60_000);
    const accepted = await t.request('/api/privacy/consent', { json: { version: PRIVACY_POLICY_VERSION }, headers });
    expect(accepted.status).toBe(200);
    expect(await accepted.json()).toMatchObject({ acceptedVersion: PRIVACY_POLICY_VERSION, acceptedAt: clock.now(), needed: false });
    // Asked once: the next visit is not asked, and accepting again adds nothing.
    expect((await (await t.request('/api/privacy/consent', { headers })).json()).needed).toBe(false);
    await t.request('/api/privacy/consent', { json: { version: PRIVACY_POLICY_VERSION }, headers });
    const rows = await t.deps.db.select().from(consentRecords).where(eq(consentRecords.userId, member.id));
    expect(rows.map((r) => [r.policyVersion, r.method])).toEqual([
      ['2025-01-01', 'sign_up'],
      [PRIVACY_POLICY_VERSION, 'prompt'],
    ]);
  });

  it('a member with no consent on record (signed up before consent was asked) is asked too', async () => {
    const member = await signedInUser(t);
    const status = await (await t.request('/api/privacy/consent', { headers: bearer(member.session.token) })).json();
    expect(status).toMatchObject({ acceptedVersion: null, needed: true });
  });

  it('a member who just signed up is not asked again', async () => {
    await signUp({ acceptPrivacy: true });
    const session = await (await t.request('/api/dang-nhap', { json: { email: 'an@example.com', password: 'mat-khau-123' } })).json();
    expect((await (await t.request('/api/privacy/consent', { headers: bearer(session.token) })).json()).needed).toBe(false);
  });

  it('refuses a version that is not the current one (409) and answers 401 signed out', async () => {
    const member = await signedInUser(t);
    const stale = await t.request('/api/privacy/consent', { json: { version: '2020-01-01' }, headers: bearer(member.session.token) });
    expect(stale.status).toBe(409);
    expect((await t.request('/api/privacy/consent')).status).toBe(401);
    expect(await t.deps.db.$count(consentRecords)).toBe(0);
  });
});

describe('privacy requests land in the back office with their deadlines', () => {
  // The fake clock starts on Thursday 15 January 2026, 19:00 in Vietnam.
  const endOfDayVn = (y: number, m: number, d: number) => Date.UTC(y, m - 1, d, 23, 59, 59, 999) - 7 * 3600_000;

  it('a signed-out request with an email: acknowledgement due after 2 working days (the weekend skipped), settled within 15 days', async () => {
    const res = await t.request('/api/privacy/requests', {
      json: { kind: 'restrict', email: 'Khach@Example.com', message: 'Xin ngừng gửi thư nhắc gia hạn.' },
    });
    expect(res.status).toBe(201);
    const receipt = await res.json();
    // Thursday → Friday (1), Monday (2): the end of Monday 19 January.
    expect(receipt).toEqual({ id: expect.any(Number), acknowledgeBy: endOfDayVn(2026, 1, 19), dueAt: clock.now() + 15 * 86_400_000 });

    const admin = await signedInUser(t, { roles: 'user,admin' });
    const list = await (await t.request('/api/admin/privacy-requests', { headers: bearer(admin.session.token) })).json();
    expect(list.data).toEqual([
      {
        id: receipt.id,
        userId: null,
        email: 'khach@example.com',
        kind: 'restrict',
        message: 'Xin ngừng gửi thư nhắc gia hạn.',
        status: 'new',
        createdAt: clock.now(),
        acknowledgeBy: endOfDayVn(2026, 1, 19),
        dueAt: clock.now() + 15 * 86_400_000,
        acknowledgedAt: null,
        doneAt: null,
      },
    ]);
  });

  it('a request sent on Saturday is due on Tuesday; one sent on Monday on Wednesday', async () => {
    clock.advance(2 * 86_400_000); // Saturday 17 January
    const member = await signedInUser(t);
    const saturday = await (
      await t.request('/api/privacy/requests', {
        json: { kind: 'withdraw', message: 'Rút lại đồng ý.' },
        headers: bearer(member.session.token),
      })
    ).json();
    expect(saturday.acknowledgeBy).toBe(endOfDayVn(2026, 1, 20));
    clock.advance(2 * 86_400_000); // Monday 19 January
    const monday = await (
      await t.request('/api/privacy/requests', { json: { kind: 'object', email: 'x@example.com', message: 'Phản đối.' } })
    ).json();
    expect(monday.acknowledgeBy).toBe(endOfDayVn(2026, 1, 21));
    // Signed in, the account's address is the one on the request.
    const admin = await signedInUser(t, { roles: 'user,admin' });
    const list = await (await t.request('/api/admin/privacy-requests', { headers: bearer(admin.session.token) })).json();
    expect(list.data.find((r: { id: number }) => r.id === saturday.id)).toMatchObject({
      userId: member.id,
      email: member.email,
      kind: 'withdraw',
    });
  });

  it('names a missing email (signed out), a missing message and an unknown kind', async () => {
    const noEmail = await t.request('/api/privacy/requests', { json: { kind: 'correct', message: 'Sửa tên.' } });
    expect(noEmail.status).toBe(400);
    expect((await errorOf(noEmail)).message).toBe('email: is required');
    expect(
      (await errorOf(await t.request('/api/privacy/requests', { json: { kind: 'correct', email: 'a@example.com' } }))).message,
    ).toMatch(/^message: /);
    expect(
      (await errorOf(await t.request('/api/privacy/requests', { json: { kind: 'delete', email: 'a@example.com', message: 'x' } }))).message,
    ).toMatch(/^kind: /);
  });

  it('an admin moves it mới → đã xác nhận → đã xử lý, each step audited once; a member cannot see the list', async () => {
    const { id } = await (
      await t.request('/api/privacy/requests', { json: { kind: 'correct', email: 'a@example.com', message: 'Sửa tên.' } })
    ).json();
    const admin = await signedInUser(t, { roles: 'user,admin' });
    const member = await signedInUser(t);
    expect((await t.request('/api/admin/privacy-requests', { headers: bearer(member.session.token) })).status).toBe(403);
    const patch = (status: string) =>
      t.request(`/api/admin/privacy-requests/${id}`, { method: 'PATCH', json: { status }, headers: bearer(admin.session.token) });

    clock.advance(60_000);
    const acked = await patch('acknowledged');
    expect(acked.status).toBe(200);
    expect(await acked.json()).toMatchObject({ status: 'acknowledged', acknowledgedAt: clock.now(), doneAt: null });
    expect((await patch('acknowledged')).status).toBe(409);
    clock.advance(60_000);
    expect(await (await patch('done')).json()).toMatchObject({ status: 'done', doneAt: clock.now() });
    expect((await patch('done')).status).toBe(409);

    const audit = await t.deps.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.target, String(id)));
    expect(audit.map((a) => [a.action, a.actorEmail])).toEqual([
      ['privacy_request.acknowledge', admin.email],
      ['privacy_request.done', admin.email],
    ]);
  });
});
