import { createMiddleware } from 'hono/factory';
import { verifyAccessToken } from '../services/auth/access-token';
import { loadViewer } from '../services/auth/viewer';
import type { AppEnv, Session, Viewer } from './context';
import { forbidden, unauthorized } from './errors';

/** The token in 'Authorization: Bearer <token>', or null. */
function bearerToken(header: string | undefined): string | null {
  const match = header?.match(/^Bearer\s+(\S+)\s*$/i);
  return match?.[1] ?? null;
}

/**
 * Sets c.var.session from a verified access token, and from nothing else (no userId/roles headers). No
 * database work: a missing, invalid or expired token leaves the session null. The viewer itself (roles,
 * permissions, whether the session epoch is still current) is read from the database on every request
 * that needs it, so a revoked permission or "sign out everywhere" applies at once, not when the token
 * expires: by the guards below before the handler, or by the handler's own first batch
 * (services/auth/viewer.ts: batchWithViewer), which costs no extra round trip.
 */
export const viewerMiddleware = createMiddleware<AppEnv>(async (c, next) => {
  const token = bearerToken(c.req.header('authorization'));
  const { config, now } = c.var.deps;
  const claims = token ? await verifyAccessToken(config, token, now()) : null;
  c.set('session', claims ? { userId: Number(claims.sub), epoch: claims.epoch, ...(claims.sid ? { sid: claims.sid } : {}) } : null);
  await next();
});

/** The viewer behind the request's verified token, read once per request; null without one or when it is retired. */
export async function viewerOf(vars: AppEnv['Variables'] & { viewer?: Viewer | null }): Promise<Viewer | null> {
  // A second guard on the same route (a sub-app's and a route's own) reuses what the first read.
  if (vars.viewer !== undefined) return vars.viewer;
  return vars.session ? loadViewer(vars.db, vars.session, vars.deps.now()) : null;
}

/** Sets c.var.viewer (null when signed out) for a handler that behaves differently for a viewer. */
export const withViewer = createMiddleware<AppEnv & { Variables: { viewer: Viewer | null } }>(async (c, next) => {
  c.set('viewer', await viewerOf(c.var));
  await next();
});

/** 401 JSON unless the request carries a valid access token of a current viewer; afterwards c.var.viewer is set. */
export const requireViewer = createMiddleware<AppEnv & { Variables: { viewer: Viewer } }>(async (c, next) => {
  const viewer = await viewerOf(c.var);
  if (!viewer) throw unauthorized();
  c.set('viewer', viewer);
  await next();
});

/**
 * 401 JSON unless the request carries a verified access token; c.var.session is then set. For reads that
 * load the viewer in their own batch (batchWithViewer) and answer 401 themselves when it comes back null.
 */
export const requireSession = createMiddleware<AppEnv & { Variables: { session: Session } }>(async (c, next) => {
  if (!c.var.session) throw unauthorized();
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
  return createMiddleware<AppEnv & { Variables: { viewer: Viewer } }>(async (c, next) => {
    const viewer = await viewerOf(c.var);
    if (!viewer) throw unauthorized();
    if (!viewerMatches(viewer, rule)) throw forbidden();
    c.set('viewer', viewer);
    await next();
  });
}

/** requireAny with roles only, e.g. requireRole('admin'). */
export const requireRole = (...roles: string[]) => requireAny({ roles });
