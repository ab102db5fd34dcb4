import type { Viewer } from '../../lib/context';
import type { VipBlock } from '../../schemas/catalogue';

export type VipAccess = 'allowed' | VipBlock;

/**
 * A VIP-only film is viewable with permission VIP1 or VIP2 (admin-granted or by an active subscription).
 * A visitor who is not signed in → 'error1' (sign in and buy); a signed-in user without VIP1/VIP2 → 'error'
 * (buy), not the literal "no permission at all → error1" (docs/decisions/0401-vip-error-flags.md). Admins
 * manage the catalogue and may always watch (docs/decisions/0003-vip-access.md).
 */
export function vipAccess(vipOnly: boolean, viewer: Viewer | null): VipAccess {
  if (!vipOnly) return 'allowed';
  if (viewer?.roles.includes('admin')) return 'allowed';
  if (viewer?.permissions.includes('VIP1') || viewer?.permissions.includes('VIP2')) return 'allowed';
  if (!viewer) return 'error1';
  return 'error';
}
