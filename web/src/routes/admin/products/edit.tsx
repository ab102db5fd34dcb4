import { createFileRoute, redirect } from '@tanstack/react-router';
import { FilmEditorPage } from '../../../features/admin/components/film-editor-page';
import { requireAdminArea } from '../../../features/admin/guard';

export const Route = createFileRoute('/admin/products/edit')({
  beforeLoad: requireAdminArea('adminOnly'),
  /** ?film={slug}: the film to edit; without one, back to the list. */
  validateSearch: (raw: Record<string, unknown>): { film?: string } => {
    const film = typeof raw.film === 'string' && /^[a-z0-9+-]{1,200}$/.test(raw.film) ? raw.film : undefined;
    return film ? { film } : {};
  },
  loaderDeps: ({ search }) => ({ film: search.film }),
  loader: ({ deps }) => {
    if (!deps.film) throw redirect({ to: '/admin/products' });
  },
  component: function FilmEditorRoute() {
    const { film } = Route.useSearch();
    return film ? <FilmEditorPage key={film} slug={film} /> : null;
  },
});
