import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Breadcrumb } from '../../../components/film/breadcrumb';
import { DEFAULT_SITE_PAGES, type SitePageSlug } from '../../../../../worker/schemas/pages';
import { formatDateTime } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { sitePageQuery } from '../api/site-page-query';

/**
 * /quy-dinh, /dieu-khoan, /bao-mat, /gioi-thieu: the footer's pages. The text is the admin's (settings) or
 * the default; offline or while loading, the default text shows rather than a blank page.
 */
export function SitePageView({ slug, children }: { slug: SitePageSlug; children?: ReactNode }) {
  const page = useQuery(sitePageQuery(slug));
  const { title, body } = page.data ?? DEFAULT_SITE_PAGES[slug];
  usePageMeta({ title: `${title} | PhimViet`, description: body.slice(0, 150) });
  return (
    <div className="container site-page">
      <Breadcrumb crumbs={[<span key="page">{title}</span>]} />
      <article>
        <h1>{title}</h1>
        {body.split(/\n{2,}/).map((paragraph) => (
          <p key={paragraph}>{paragraph}</p>
        ))}
        {page.data?.updatedAt && <p className="muted">Cập nhật lúc {formatDateTime(page.data.updatedAt)}</p>}
        {children}
      </article>
    </div>
  );
}
