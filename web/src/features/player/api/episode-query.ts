import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import type { ReportErrorInput } from '../../../../../worker/schemas/error-reports';
import { api, unwrap, unwrapBootOr } from '../../../lib/api-client';
import { readHeaders } from '../../../lib/auth-request';
import { getSession } from '../../../lib/session';
import { vipBlockOf } from '../../../lib/vip-gate';
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

/**
 * On the host: the episode's link comes with the page's HTML (a visitor's page, for a film anyone may watch), so the
 * watch page's start path (stream-start.ts) begins the stream without asking for it first (decision 0952). The
 * server is the one the watch page picks: the requested one, else the first that has links. A link that cannot be
 * read is left out (the browser asks for it as before); the page renders either way.
 */
export async function linkWithThePage(
  queryClient: QueryClient,
  film: FilmDetailResponse | undefined,
  episode: number,
  requested: string | undefined,
): Promise<void> {
  if (!film || vipBlockOf(film)) return;
  const servers = film.datafilm.servers.filter((s) => s.linkfilms.length > 0);
  const current = servers.find((s) => s.server_name === requested) ?? servers[0];
  if (!current) return;
  const query = episodeQuery(film.datafilm.slug, episode, current.server_name);
  try {
    await queryClient.fetchQuery(query);
  } catch {
    queryClient.removeQueries({ queryKey: query.queryKey, exact: true });
  }
}
