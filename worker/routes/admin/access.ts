// Access to the admin API: 401 without a token, 403 without the right.
import { requireAny } from '../../lib/auth-middleware';
import { ADMIN_ACCESS } from '../../schemas/admin';

/** Users, products list/edit/delete/VIP1, crawls, error reports, analytics, settings, audit. */
export const adminOnly = requireAny(ADMIN_ACCESS.adminOnly);
/** Dashboard, add film, add or change episodes; the services narrow a VIP2 holder to their own films. */
export const adminOrVip2 = requireAny(ADMIN_ACCESS.adminOrVip2);
