import { redirect } from '@tanstack/react-router';
import type { Session } from '../../lib/session';
import { type AdminArea, canEnterAdmin, canUse } from './access';

/**
 * beforeLoad of the admin routes: someone signed out goes to /dang-nhap and comes back here after
 * signing in; someone signed in who holds none of the listed roles or permissions goes to /not-found.
 * Only a mirror: the API answers 401/403 on its own.
 */
export function requireAdminArea(area: AdminArea | 'any') {
  return ({ context, location }: { context: { auth: Session | null }; location: { href: string } }) => {
    if (!context.auth) throw redirect({ to: '/dang-nhap', search: { redirect: location.href }, replace: true });
    const allowed = area === 'any' ? canEnterAdmin(context.auth) : canUse(context.auth, area);
    if (!allowed) throw redirect({ to: '/not-found', replace: true });
  };
}
