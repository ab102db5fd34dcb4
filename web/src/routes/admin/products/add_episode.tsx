import { createFileRoute } from '@tanstack/react-router';
import { AddEpisodePage } from '../../../features/admin/components/add-episode-page';
import { requireAdminArea } from '../../../features/admin/guard';

export const Route = createFileRoute('/admin/products/add_episode')({
  beforeLoad: requireAdminArea('adminOrVip2'),
  /** ?film={slug} preselects the film (the add-film page links here after a save). */
  validateSearch: (raw: Record<string, unknown>): { film?: string } => {
    const film = typeof raw.film === 'string' && /^[a-z0-9+-]{1,200}$/.test(raw.film) ? raw.film : undefined;
    return film ? { film } : {};
  },
  component: function AddEpisodeRoute() {
    const { film } = Route.useSearch();
    return <AddEpisodePage key={film ?? ''} initialFilm={film} />;
  },
});
