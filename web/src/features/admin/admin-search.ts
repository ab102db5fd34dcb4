/**
 * Query string of the paged admin lists (?page=&q=), written without zod: validateSearch runs in
 * the entry chunk. A bad value falls back to the first page / no filter instead of failing.
 */
export interface PagedSearch {
  page?: number;
  q?: string;
}

export function validatePagedSearch(raw: Record<string, unknown>): PagedSearch {
  const n = typeof raw.page === 'number' ? raw.page : typeof raw.page === 'string' && /^\d+$/.test(raw.page) ? Number(raw.page) : NaN;
  const q = typeof raw.q === 'string' ? raw.q.trim().slice(0, 100) : typeof raw.q === 'number' ? String(raw.q) : '';
  return { page: Number.isInteger(n) && n >= 1 && n <= 10_000 ? n : undefined, q: q || undefined };
}
