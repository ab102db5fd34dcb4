import { queryOptions } from '@tanstack/react-query';
import type { EpisodeResponse, ReportErrorInput } from '../../../../../worker/schemas/catalogue';
import { api, unwrap } from '../../../lib/api-client';

export const episodeQuery = (slug: string, episode: number, server: string | undefined) =>
  queryOptions({
    queryKey: ['episode', slug, episode, server ?? ''],
    queryFn: (): Promise<EpisodeResponse> =>
      unwrap(api.api.product[':slug'][':episode'].$get({ param: { slug, episode: `tap-${episode}` }, query: { server } })),
  });

/** POST /api/product/report_error (stored for admins, rate limited). */
export async function reportError(report: ReportErrorInput): Promise<void> {
  await unwrap(api.api.product.report_error.$post({ json: report }));
}
