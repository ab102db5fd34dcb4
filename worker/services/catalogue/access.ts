import type { Viewer } from '../../lib/context';
import type { VipBlock } from '../../schemas/catalogue';

export type VipAccess = 'allowed' | VipBlock;

/**
 * docs/decisions/0003-vip-access.md: a VIP-only film is viewable with permission VIP1 or VIP2. No viewer or no permission at all
 * → 'error1' (sign in and buy); permissions lacking both → 'error' (buy). Admins manage the catalogue and
 * may always watch (docs/decisions/0003-vip-access.md).
 */
export function vipAccess(vipOnly: boolean, viewer: Viewer | null): VipAccess {
  if (!vipOnly) return 'allowed';
  if (viewer?.roles.includes('admin')) return 'allowed';
  if (viewer?.permissions.includes('VIP1') || viewer?.permissions.includes('VIP2')) return 'allowed';
  if (!viewer || viewer.permissions.length === 0) return 'error1';
  return 'error';
}
