import { Hono } from 'hono';
import { requireViewer } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { setRefreshCookie } from '../lib/refresh-cookie';
import { validate } from '../lib/validate';
import { changePassword, getAccount, logoutEverywhere } from '../services/auth/accounts';
import { changeEmail, resendVerification } from '../services/auth/email-address';
import { listDevices, signOutDevice, signOutOtherDevices } from '../services/auth/devices';
import { addPasskey, listPasskeys, passkeyRegistrationOptions, removePasskey } from '../services/auth/passkeys';
import { type AccountResponse, addPasskeyBodySchema, changeEmailBodySchema, changePasswordBodySchema } from '../schemas/account';
import type { LoginResponse } from '../schemas/auth';
import { DEVICE_MESSAGES, PASSKEY_MESSAGES } from '../schemas/account-texts';
import { sendMailSoon } from '../lib/mail-soon';
import { z } from 'zod';
import { assertFreshSignIn } from '../services/auth/fresh-sign-in';
import { cancelErasure, eraseOwnAccountNow, requestErasure } from '../services/account/erasure';
import { exportMemberData, limitExports } from '../services/account/data-export';
import { ACCOUNT_DATA_TEXTS, requestDeletionBodySchema, type RequestDeletionResponse } from '../schemas/account-data';
import { formatVietnamTime } from '../services/mail/templates';

const deviceParam = z.object({ id: z.string().min(1, 'is required').max(100, 'is too long') });
const passkeyParam = z.object({ id: z.string().min(1, 'is required').max(1024, 'is too long') });

/** The signed-in user's own account: /api/account. */
export const accountRoutes = new Hono<AppEnv>()
  .use(requireViewer)
  .get('/', async (c) => {
    const account = await getAccount(c.var.db, c.var.viewer.id);
    // Subscriptions as the viewer was read for this request (no second query).
    const { subscriptions } = c.var.viewer;
    // Permissions as the API applies them (admin-granted ∪ subscriptions), plus the subscriptions themselves.
    const body: AccountResponse = {
      ...account,
      permissions: c.var.viewer.permissions,
      subscription: subscriptions[0] ?? null,
      subscriptions,
    };
    return c.json(body, 200);
  })
  .post('/password', validate('json', changePasswordBodySchema), async (c) => {
    const input = c.req.valid('json');
    const { refreshToken, ...session } = await changePassword(c.var.deps, c.var.viewer.id, input, {
      userAgent: c.req.header('user-agent') ?? '',
    });
    // "Mật khẩu của bạn đã được thay đổi".
    sendMailSoon(c);
    if (input.remember) setRefreshCookie(c, refreshToken);
    const body: LoginResponse = input.remember ? session : { ...session, refreshToken };
    return c.json({ message: 'Đổi mật khẩu thành công', ...body }, 200);
  })
  .post('/logout-all', async (c) => {
    await logoutEverywhere(c.var.deps, c.var.viewer.id);
    return c.json({ ok: true as const, message: 'Bạn đã đăng xuất khỏi mọi thiết bị.' }, 200);
  })
  // ---- the address (docs/decisions/0980) ----
  .post('/email', validate('json', changeEmailBodySchema), async (c) => {
    const result = await changeEmail(c.var.deps, c.var.viewer.id, c.req.valid('json'));
    sendMailSoon(c);
    return c.json({ ok: true as const, ...result }, 200);
  })
  .post('/email/verification', async (c) => {
    const message = await resendVerification(c.var.deps, c.var.viewer.id);
    sendMailSoon(c);
    return c.json({ ok: true as const, message }, 200);
  })
  // ---- signed-in devices ----
  .get('/devices', async (c) => c.json({ data: await listDevices(c.var.db, c.var.viewer.id, c.var.session?.sid, c.var.deps.now()) }, 200))
  .post('/devices/logout-others', async (c) => {
    const count = await signOutOtherDevices(c.var.db, c.var.viewer.id, c.var.session?.sid, c.var.deps.now());
    return c.json({ ok: true as const, count, message: DEVICE_MESSAGES.othersSignedOut }, 200);
  })
  .delete('/devices/:id', validate('param', deviceParam), async (c) => {
    const { id } = c.req.valid('param');
    await signOutDevice(c.var.db, c.var.viewer.id, id, c.var.deps.now());
    return c.json({ ok: true as const, current: id === c.var.session?.sid, message: DEVICE_MESSAGES.signedOut }, 200);
  })
  // ---- passkeys ----
  .get('/passkeys', async (c) => c.json({ data: await listPasskeys(c.var.db, c.var.viewer.id) }, 200))
  .post('/passkeys/options', async (c) => c.json(await passkeyRegistrationOptions(c.var.deps, c.var.viewer.id), 200))
  .post('/passkeys', validate('json', addPasskeyBodySchema), async (c) => {
    const passkey = await addPasskey(c.var.deps, c.var.viewer.id, c.req.valid('json'), { userAgent: c.req.header('user-agent') ?? '' });
    return c.json({ ok: true as const, message: PASSKEY_MESSAGES.added, passkey }, 201);
  })
  .delete('/passkeys/:id', validate('param', passkeyParam), async (c) => {
    await removePasskey(c.var.db, c.var.viewer.id, c.req.valid('param').id);
    return c.json({ ok: true as const, message: PASSKEY_MESSAGES.removed }, 200);
  })
  // ---- data rights (issue 39, docs/decisions/1041 and 1042) ----
  .post('/deletion', validate('json', requestDeletionBodySchema), async (c) => {
    const now = c.var.deps.now();
    await assertFreshSignIn(c.var.db, c.var.session, now);
    const deletion = await requestErasure(c.var.deps, c.var.viewer.id, c.req.valid('json'), now);
    // The acknowledgement with the erasure date leaves right after the answer.
    sendMailSoon(c);
    const body: RequestDeletionResponse = {
      ok: true,
      message: ACCOUNT_DATA_TEXTS.deletionRequested(formatVietnamTime(deletion.dueAt)),
      deletion,
    };
    return c.json(body, 200);
  })
  .delete('/deletion', async (c) => {
    await cancelErasure(c.var.db, c.var.viewer.id, c.var.deps.now());
    return c.json({ ok: true as const, message: ACCOUNT_DATA_TEXTS.restored }, 200);
  })
  .post('/deletion/now', async (c) => {
    const now = c.var.deps.now();
    await assertFreshSignIn(c.var.db, c.var.session, now);
    await eraseOwnAccountNow(c.var.deps, c.var.duties.erase, c.var.viewer.id, now);
    return c.json({ ok: true as const, message: ACCOUNT_DATA_TEXTS.erased }, 200);
  })
  .get('/export', async (c) => {
    const now = c.var.deps.now();
    await assertFreshSignIn(c.var.db, c.var.session, now);
    await limitExports(c.var.db, c.var.viewer.id, now);
    const file = await exportMemberData(c.var.db, c.var.duties.export, c.var.viewer.id, now);
    c.header('Content-Disposition', `attachment; filename="phimviet-du-lieu-${new Date(now).toISOString().slice(0, 10)}.json"`);
    return c.json(file, 200);
  });
