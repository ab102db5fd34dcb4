import { useNavigate, useRouter } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import type { FilmDetailResponse } from '../../../worker/schemas/catalogue';
import { VIP_ERROR_CODES, VIP_MESSAGES, type VipBlock } from '../../../worker/schemas/values';
import { ApiError } from './api-client';

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
    window.alert(VIP_MESSAGES[block]);
    if (window.history.length > 1) router.history.back();
    else void navigate({ to: '/' });
  }, [block, slug, router, navigate]);
}
