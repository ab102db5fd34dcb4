import { useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import type { FilmDetailResponse } from '../../../worker/schemas/catalogue';
import { VIP_ERROR_CODES, VIP_MESSAGES, type VipBlock } from '../../../worker/schemas/values';
import { ApiError } from './api-client';

/** The 'error' alert's way to the plans (docs/decisions/0401-vip-error-flags.md). */
export const VIP_PLANS_PROMPT = 'Bấm OK để xem các gói VIP, hoặc Hủy để quay lại.';

/**
 * Why the viewer may not watch: the film detail's error1/error flag, or the episode endpoint's
 * 401 vip_login_required / 403 vip_required (the same rule, worker/services/catalogue/access.ts).
 */
export function vipBlockOf(film: FilmDetailResponse | undefined, episodeError?: unknown): VipBlock | null {
  if (film?.error1) return 'error1';
  if (film?.error) return 'error';
  if (episodeError instanceof ApiError) {
    if (episodeError.code === VIP_ERROR_CODES.error1) return 'error1';
    if (episodeError.code === VIP_ERROR_CODES.error) return 'error';
  }
  return null;
}

/** The spec's alert, then back one page (home when this page was opened directly). Once per film. */
export function useVipGate(block: VipBlock | null, slug: string): void {
  const router = useRouter();
  const navigate = useNavigate();
  const told = useRef<string | null>(null);
  useEffect(() => {
    if (!block || told.current === slug) return;
    told.current = slug;
    // 'error' (signed in, no VIP): the alert offers the plans; 'error1' keeps the spec's plain alert.
    if (block === 'error' && window.confirm(`${VIP_MESSAGES.error}\n\n${VIP_PLANS_PROMPT}`)) {
      void navigate({ to: '/dang-ky-goi-vip' });
      return;
    }
    if (block === 'error1') window.alert(VIP_MESSAGES[block]);
    if (window.history.length > 1) router.history.back();
    else void navigate({ to: '/' });
  }, [block, slug, router, navigate]);
}
