import { createMiddleware } from 'hono/factory';
import { verifyAccessToken } from '../services/auth/access-token';
import { loadViewer } from '../services/auth/viewer';
import { activePlans } from '../services/payments/orders';
import type { AppEnv, Viewer } from './context';
import { forbidden, unauthorized } from './errors';

/** The token in 'Authorization: Bearer <token>', or null. */
function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

/**
 * Sets c.var.viewer from a verified access token, and from nothing else (no userId/roles headers).
 * Roles, permissions and the session epoch are read from the database on every request, so a
 * revoked permission or "sign out everywhere" applies at once, not when the token expires.
 * A missing, invalid, expired or retired token leaves the viewer null; routes that need a viewer
 * say so with requireViewer.
 */
export const viewerMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  c.set('viewer', null);
  const token = bearerToken(c.req.header('authorization'));
  if (token) {
    const { config, now } = c.var.deps;
    const claims = await verifyAccessToken(config, token, now());
    const viewer = claims ? await loadViewer(c.var.db, Number(claims.sub), claims.epoch) : null;
    if (viewer) {
      // Effective permissions = admin-granted ∪ active subscriptions, read per request so an expiry or
      // a payment applies to the very next request (docs/decisions/0400-payments.md).
      const plans = await activePlans(c.var.db, viewer.id, now());
      c.set('viewer', { ...viewer, permissions: [...new Set([...viewer.permissions, ...plans])] });
    }
  }
  await next();
});

type ViewerEnv = AppEnv & { Variables: { viewer: Viewer } };

/** 401 JSON unless the request carries a valid access token; afterwards c.var.viewer is non-null. */
export const requireViewer = createMiddleware<ViewerEnv>(async (c, next) => {
  if (!c.var.viewer) throw unauthorized();
  await next();
});

export interface AccessRule {
  roles?: string[];
  permissions?: string[];
}

/** True when the viewer holds any listed role or any listed permission (the route guard of every admin/VIP rule). */
export function viewerMatches(viewer: Viewer | null, rule: AccessRule): boolean {
  if (!viewer) return false;
  return (rule.roles ?? []).some((r) => viewer.roles.includes(r)) || (rule.permissions ?? []).some((p) => viewer.permissions.includes(p));
}

/** 401 without a viewer; 403 unless the viewer holds any listed role or permission. */
export function requireAny(rule: AccessRule) {
  return createMiddleware<ViewerEnv>(async (c, next) => {
    if (!c.var.viewer) throw unauthorized();
    if (!viewerMatches(c.var.viewer, rule)) throw forbidden();
    await next();
  });
}

/** requireAny with roles only, e.g. requireRole('admin'). */
export const requireRole = (...roles: string[]) => requireAny({ roles });
