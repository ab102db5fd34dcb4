import { queryOptions } from '@tanstack/react-query';
import type { AdminSegmentInput } from '../../../../../worker/schemas/segments';
import { api } from '../../../lib/api-client';
import { adminCall } from './admin-request';

/** GET /api/admin/segments?slug= (admin): the film's learned intros and credits, with their reports. */
export const filmSegmentsQuery = (slug: string) =>
  queryOptions({
    queryKey: ['admin', 'segments', slug],
    queryFn: () => adminCall((headers) => api.api.admin.segments.$get({ query: { slug } }, { headers })),
  });

/** PUT /api/admin/segments (admin): fixes, hides or locks one segment (audited). */
export const saveSegment = (input: AdminSegmentInput) => adminCall((headers) => api.api.admin.segments.$put({ json: input }, { headers }));
