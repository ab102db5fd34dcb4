import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { deviceId } from '../../../lib/device-id';
import type { SkipReport } from '../skip-runs';

/** The episode's learned intro and credits start on this server (GET /api/segments/{slug}/tap-{n}?server=, public). */
export const segmentsQuery = (slug: string, episode: number, server: string) =>
  queryOptions({
    queryKey: ['segments', slug, episode, server],
    queryFn: async () =>
      (await unwrap(api.api.segments[':slug'][':episode'].$get({ param: { slug, episode: `tap-${episode}` }, query: { server } }))).data,
    staleTime: 5 * 60_000,
    retry: false,
  });

/** POST /api/segments/report with this device's id (the one plays use); failures are dropped (a nicety). */
export function sendSkipReport(at: { slug: string; episode: number; server: string }, report: SkipReport): void {
  void unwrap(api.api.segments.report.$post({ json: { ...at, device: deviceId(), ...report } })).catch(() => undefined);
}
