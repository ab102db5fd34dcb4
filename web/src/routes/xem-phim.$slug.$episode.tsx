import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense } from 'react';
import { createFileRoute, Navigate, notFound, redirect } from '@tanstack/react-router';
import { filmComments } from '../app/film-slots';
import { episodeDownload } from '../app/watch-slots';
import { filmQuery } from '../features/catalogue/api/catalogue-queries';
import { WatchPage } from '../features/player/components/watch-page';
import { parseEpisodeSegment } from '../features/player/episode-segment';
import { isNotFound } from '../lib/api-client';
import { useSession } from '../lib/session';
import { useAdoptMergedDownloads, useStoredFilm } from '../lib/downloads/store';
import { awaitOnFirstLoad } from '../lib/first-load';

/** "Xem chung" (signed-in members only) and the party's texts and schemas it brings: loaded after the page, never for visitors. */
const StartPartyButton = lazy(() =>
  import('../features/watch-party/components/start-party-button').then((m) => ({ default: m.StartPartyButton })),
);
function PartyButton(at: { slug: string; episode: number; server: string | undefined }) {
  if (!useSession()) return null;
  return (
    <Suspense fallback={null}>
      <StartPartyButton {...at} />
    </Suspense>
  );
}

export const Route = createFileRoute('/xem-phim/$slug/$episode')({
  /** ?server= picks one of the film's servers (by name); absent means the first. */
  validateSearch: (raw: Record<string, unknown>): { server?: string } =>
    typeof raw.server === 'string' && raw.server.length > 0 && raw.server.length <= 100 ? { server: raw.server } : {},
  loader: async ({ context, params, location }) => {
    if (parseEpisodeSegment(params.episode) === undefined) throw notFound();
    // The page shows its own 'Loading...' / 'Error: {message}' states...
    const query = filmQuery(params.slug);
    await awaitOnFirstLoad(context.queryClient.ensureQueryData(query));
    // ...but an unknown film is the not-found page (a 404 from the host that renders it).
    if (isNotFound(context.queryClient.getQueryState(query.queryKey)?.error)) throw notFound();
    // A film merged into another (issue 32): the API answered 301 to the kept film; the page moves there too.
    const kept = context.queryClient.getQueryData(query.queryKey)?.datafilm.slug;
    if (kept && kept !== params.slug)
      throw redirect({
        to: '/xem-phim/$slug/$episode',
        params: { slug: kept, episode: params.episode },
        search: location.search as { server?: string },
        replace: true,
        statusCode: 301,
      });
  },
  component: function WatchRoute() {
    const { slug, episode } = Route.useParams();
    const { server } = Route.useSearch();
    const film = useQuery(filmQuery(slug));
    // With no network, a film with downloaded episodes opens from what the device kept (issue 26).
    const stored = useStoredFilm(slug, !!film.error && !film.data);
    // Episodes downloaded under the old slug of a film merged into this one are this film's (issue 32).
    useAdoptMergedDownloads(film.data);
    // Arrived here before the film did (a later navigation): a merged-away slug still moves to the kept film's page.
    const kept = film.data?.datafilm.slug;
    if (kept && kept !== slug)
      return <Navigate to="/xem-phim/$slug/$episode" params={{ slug: kept, episode }} search={server ? { server } : {}} replace />;
    return (
      <WatchPage
        film={film}
        episode={parseEpisodeSegment(episode)!}
        server={server}
        comments={filmComments}
        download={episodeDownload}
        storedFilm={stored}
        together={(at) => <PartyButton {...at} />}
      />
    );
  },
});
