import { Hono } from 'hono';
import { z } from 'zod';
import { requireViewer, withViewer } from '../lib/auth-middleware';
import type { AppEnv } from '../lib/context';
import { validate } from '../lib/validate';
import { acceptConsentBodySchema, privacyRequestBodySchema, privacyRequestStatusBodySchema } from '../schemas/privacy';
import { acceptConsent, consentStatus } from '../services/privacy/consent';
import { createPrivacyRequest, listPrivacyRequests, setPrivacyRequestStatus } from '../services/privacy/requests';
import { clientIp } from '../services/rate-limit';
import { adminOnly } from './admin/access';

/**
 * /api/privacy: the signed-in member's consent to the current policy (GET, and POST when a new version is
 * accepted) and the privacy page's request form (signed in or not) (docs/decisions/1050, 1052).
 */
export const privacyRoutes = new Hono<AppEnv>()
  .get('/consent', requireViewer, async (c) => c.json(await consentStatus(c.var.db, c.var.viewer.id), 200))
  .post('/consent', requireViewer, validate('json', acceptConsentBodySchema), async (c) =>
    c.json(await acceptConsent(c.var.db, c.var.viewer.id, c.req.valid('json').version, c.var.deps.now()), 200),
  )
  .post('/requests', withViewer, validate('json', privacyRequestBodySchema), async (c) => {
    const viewer = c.var.viewer;
    const receipt = await createPrivacyRequest(
      c.var.db,
      { ...c.req.valid('json'), viewer: viewer ? { id: viewer.id, email: viewer.email } : null, ip: clientIp(c.req.raw.headers) },
      c.var.deps.now(),
    );
    return c.json(receipt, 201);
  });

const idParam = z.object({ id: z.coerce.number({ error: 'must be a number' }).int('must be a whole number').positive('must be positive') });

/** GET /api/admin/privacy-requests, PATCH /api/admin/privacy-requests/{id} (admin). */
export const adminPrivacyRoutes = new Hono<AppEnv>()
  .get('/privacy-requests', adminOnly, async (c) => c.json({ data: await listPrivacyRequests(c.var.db) }, 200))
  .patch('/privacy-requests/:id', adminOnly, validate('param', idParam), validate('json', privacyRequestStatusBodySchema), async (c) =>
    c.json(
      await setPrivacyRequestStatus(c.var.db, c.var.viewer, c.req.valid('param').id, c.req.valid('json').status, c.var.deps.now()),
      200,
    ),
  );
