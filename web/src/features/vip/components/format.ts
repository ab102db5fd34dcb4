// The route files use isPlanId in their params check, which is in the first-load bundle: values.ts, not
// vip.ts, so zod stays out of it (docs/decisions/0007-web-search-params-without-zod.md).
import { PLAN_IDS } from '../../../../../worker/schemas/values';
import type { PlanId } from '../../../../../worker/schemas/vip';
import { formatNumber } from '../../../lib/format';

/** 69.000 VND */
export const formatVnd = (n: number) => `${formatNumber(n)} VND`;

/** dd/mm/yyyy on the Vietnamese calendar. */
export const formatDate = (ms: number) => new Date(ms).toLocaleDateString('vi-VN', { timeZone: 'Asia/Ho_Chi_Minh' });

/** Today plus N calendar months, the day clamped to the month's end (as the server computes expiry). */
export function addMonths(from: Date, months: number): Date {
  const d = new Date(from);
  const day = d.getDate();
  d.setDate(1);
  d.setMonth(d.getMonth() + months);
  const last = new Date(d.getFullYear(), d.getMonth() + 1, 0).getDate();
  d.setDate(Math.min(day, last));
  return d;
}

export const isPlanId = (p: unknown): p is PlanId => (PLAN_IDS as readonly unknown[]).includes(p);

/** The price query value is read from its leading digits (display only: the server prices orders). */
export function leadingPrice(raw: unknown): number | undefined {
  const match = String(raw ?? '').match(/^\d+/);
  const n = match ? Number(match[0]) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}
