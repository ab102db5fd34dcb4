// Built only for what the plain path below does not cover: building an Intl formatter loads locale data,
// a long task of its own on a slow phone (it was most of a film page's first render).
let numberFormat: Intl.NumberFormat | undefined;

/**
 * A number as `Intl.NumberFormat('vi-VN')` writes it ('1.234.567', '1.234,5'; at most three decimals), without
 * building the formatter: views, votes and prices are on the first screen of the film and watch pages.
 */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n) || Math.abs(n) >= 1e21 || Object.is(n, -0) || (n < 0 && Math.abs(n) < 0.0005)) {
    numberFormat ??= new Intl.NumberFormat('vi-VN');
    return numberFormat.format(n);
  }
  const [whole = '0', fraction = ''] = Math.abs(n).toFixed(3).split('.');
  const decimals = fraction.replace(/0+$/, '');
  return `${n < 0 ? '-' : ''}${whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.')}${decimals ? `,${decimals}` : ''}`;
}

/** '12:04' or '1:02:03'. */
export function formatClock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
}

/** Local date-time of a unix-ms instant, Vietnamese format. */
export function formatDateTime(ms: number): string {
  return new Date(ms).toLocaleString('vi-VN');
}

/** The spec's episode badge: the word 'Tập' is appended when missing. */
export function episodeBadge(sotap: string): string {
  const text = sotap.trim();
  if (!text) return '';
  return /tập/i.test(text) ? text : `${text} Tập`;
}

/** Average shown to one decimal, or 'N/A'. */
export function formatRating(average: number | null | undefined): string {
  return average == null || Number.isNaN(average) ? 'N/A' : average.toFixed(1);
}
