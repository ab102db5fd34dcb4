// /dien-vien/{slug} and /dao-dien/{slug} (issue 40 §1): the person's name, "N phim", their films newest first, 25 a page.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { Breadcrumb } from '../../../components/film/breadcrumb';
import { FilmGrid } from '../../../components/film/film-grid';
import { Pagination } from '../../../components/film/pagination';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { PERSON_ROLES } from '../../../../../worker/schemas/discovery-texts';
import { personQuery } from '../api/catalogue-queries';

export function PersonPage({ kind: role, slug, page }: { kind: 'actor' | 'director'; slug: string; page: number }) {
  const { data, isFetching } = useQuery({ ...personQuery(role, slug, page), placeholderData: keepPreviousData });
  const { path, label } = PERSON_ROLES[role];
  const name = data?.person.name ?? '';
  const total = data?.pagination.totalItems ?? 0;
  usePageMeta({
    title: `${label} ${name}${page > 1 ? ` - Trang ${page}` : ''} | ${SITE_SUFFIX}`,
    description: `${total} phim có ${label.toLowerCase()} ${name}: xem Vietsub, thuyết minh chất lượng cao tại PhimViet.`,
    canonicalPath: page > 1 ? `/${path}/${slug}?page=${page}` : `/${path}/${slug}`,
  });
  if (!data) return null;
  return (
    <div className="container listing person-page">
      <Breadcrumb crumbs={[<span key="role">{label}</span>, <span key="name">{name}</span>]} />
      <h1 className="page-heading">{name}</h1>
      <p className="muted person-count">
        {label} · {total} phim
      </p>
      <div className="listing-results" aria-busy={isFetching}>
        <FilmGrid films={data.data} priorityCount={4} headingLevel={2} />
        <Pagination
          page={data.pagination.page}
          totalPages={data.pagination.totalPages}
          renderLink={(p, props) => (
            <Link to="." search={{ page: p > 1 ? p : undefined } as never} activeOptions={{ exact: true }} {...props} />
          )}
        />
      </div>
    </div>
  );
}
