import { queryOptions } from '@tanstack/react-query';
import type { EpisodeResponse } from '../../../../../worker/schemas/catalogue';
import { api, unwrap } from '../../../lib/api-client';

export const episodeQuery = (slug: string, episode: number, server: string | undefined) =>
  queryOptions({
    queryKey: ['episode', slug, episode, server ?? ''],
    queryFn: (): Promise<EpisodeResponse> =>
      unwrap(api.api.product[':slug'][':episode'].$get({ param: { slug, episode: `tap-${episode}` }, query: { server } })),
  });

export interface ErrorReport {
  slug: string;
  episode: number;
  server_name: string;
  reason: string;
  message: string;
}

/** POST /api/product/report_error (stored for admins, rate limited). */
export async function reportError(report: ErrorReport): Promise<void> {
  const res = await fetch('/api/product/report_error', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(report),
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
    throw Object.assign(new Error(body?.error?.message ?? `Request failed with status code ${res.status}`), { status: res.status });
  }
}
