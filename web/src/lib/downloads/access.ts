import type { Session } from '../session';

/** Downloads are a VIP perk: members with VIP1 or VIP2, and admins (issue 26). A lapsed VIP keeps what was downloaded. */
export const canDownload = (s: Session | null): boolean =>
  !!s && (s.roles.includes('admin') || s.permissions.includes('VIP1') || s.permissions.includes('VIP2'));
