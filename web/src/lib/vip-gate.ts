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

/**
 * Whether "back one page" lands on a page of ours in this tab. Not `history.length`: a new tab that showed
 * a blank page or another site first has more than one entry. The Navigation API lists only this site's
 * entries, contiguous with this one, so `navigation.canGoBack` is exactly that (a page of ours loaded by
 * its own URL after another of ours counts); where a browser lacks it, the router's own index in
 * `history.state` (0 on the first page the app showed in this document) stands in.
 */
export function hasEarlierPageOfOurs(routerCanGoBack: () => boolean): boolean {
  const navigation = (window as { navigation?: { canGoBack?: unknown } }).navigation;
  return typeof navigation?.canGoBack === 'boolean' ? navigation.canGoBack : routerCanGoBack();
}

/** Where the gate goes after its alert (docs/decisions/0401-vip-error-flags.md). */
export type VipGateExit = { to: 'back' } | { to: '/dang-nhap'; redirect: string } | { to: '/dang-ky-goi-vip' };

/**
 * After the spec's alert: back one page when that page is ours; otherwise (a shared link opened in a new
 * tab) on to what the message asks for, signing in (then back to this film) or the VIP plans.
 */
export function vipGateExit(block: VipBlock, earlierPageOfOurs: boolean, here: string): VipGateExit {
  if (earlierPageOfOurs) return { to: 'back' };
  return block === 'error1' ? { to: '/dang-nhap', redirect: here } : { to: '/dang-ky-goi-vip' };
}

/**
 * The spec's alert, then back one page, or when this tab holds no earlier page of ours, /dang-nhap or
 * /dang-ky-goi-vip in place of the refused page. Once per film.
 */
export function useVipGate(block: VipBlock | null, slug: string): void {
  const router = useRouter();
  const navigate = useNavigate();
  const told = useRef<string | null>(null);
  useEffect(() => {
    if (!block || told.current === slug) return;
    told.current = slug;
    const earlier = hasEarlierPageOfOurs(() => router.history.canGoBack());
    const exit = vipGateExit(block, earlier, router.state.location.href);
    if (exit.to === 'back') {
      // 'error' (signed in, no VIP): the alert offers the plans; 'error1' keeps the spec's plain alert.
      if (block === 'error' && window.confirm(`${VIP_MESSAGES.error}\n\n${VIP_PLANS_PROMPT}`)) {
        void navigate({ to: '/dang-ky-goi-vip' });
        return;
      }
      if (block === 'error1') window.alert(VIP_MESSAGES[block]);
      router.history.back();
      return;
    }
    // Nothing of ours to go back to: the spec's plain alert, then where it points, replacing the refused
    // page (back from there leaves the tab as it came, and never returns to this alert).
    window.alert(VIP_MESSAGES[block]);
    if (exit.to === '/dang-nhap') void navigate({ to: '/dang-nhap', search: { redirect: exit.redirect }, replace: true });
    else void navigate({ to: '/dang-ky-goi-vip', replace: true });
  }, [block, slug, router, navigate]);
}
