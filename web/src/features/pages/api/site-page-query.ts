import { queryOptions } from '@tanstack/react-query';
import type { SitePageSlug } from '../../../../../worker/schemas/pages';
import { api, unwrap } from '../../../lib/api-client';

/** GET /api/pages/{slug}: a footer page's title and text (the admin's, or the default). */
export const sitePageQuery = (slug: SitePageSlug) =>
  queryOptions({
    queryKey: ['site-page', slug],
    queryFn: () => unwrap(api.api.pages[':slug'].$get({ param: { slug } })),
    staleTime: 60_000,
  });
