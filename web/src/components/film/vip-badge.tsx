import type { FilmCard } from '../../../../worker/schemas/catalogue';

/**
 * "VIP" on a VIP-only film (the wire's VIP1 = 1) wherever a film is listed, so a viewer without VIP
 * knows before the tap that it will not open. `overlay` sits on a poster; `inline` follows a title.
 */
export function VipBadge({ film, variant }: { film: Pick<FilmCard, 'VIP1'>; variant: 'overlay' | 'inline' }) {
  if (film.VIP1 !== 1) return null;
  return (
    <span className={variant === 'overlay' ? 'badge badge-vip' : 'vip-inline'} title="Phim dành cho thành viên VIP" data-testid="vip-badge">
      VIP
    </span>
  );
}
