import { queryOptions } from '@tanstack/react-query';
import type { ReportErrorInput } from '../../../../../worker/schemas/error-reports';
import { api, unwrap, unwrapBootOr } from '../../../lib/api-client';
import { readHeaders } from '../../../lib/auth-request';
import { getSession } from '../../../lib/session';
import { episodePath } from './episode-path';

/** Episode links of a VIP-only film need the viewer's token; one cached copy per viewer. */
export const episodeQuery = (slug: string, episode: number, server: string | undefined) =>
  queryOptions({
    queryKey: ['episode', slug, episode, server ?? '', getSession()?.id ?? ''],
    queryFn: async () =>
      // The watch page's start path may have asked already, before the app loaded (stream/stream-start.ts).
      unwrapBootOr(episodePath(slug, episode, server), async () =>
        api.api.product[':slug'][':episode'].$get(
          { param: { slug, episode: `tap-${episode}` }, query: { server } },
          { headers: await readHeaders() },
        ),
      ),
  });

/** POST /api/product/report_error (stored for admins, rate limited). */
export async function reportError(report: ReportErrorInput): Promise<void> {
  await unwrap(api.api.product.report_error.$post({ json: report }));
}
