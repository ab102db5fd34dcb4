// Created on first use: building an Intl formatter loads locale data (tens of ms on a slow phone).
let numberFormat: Intl.NumberFormat | undefined;

export function formatNumber(n: number): string {
  numberFormat ??= new Intl.NumberFormat('vi-VN');
  return numberFormat.format(n);
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
