import { Link } from '@tanstack/react-router';
import { usePageMeta, SITE_NAME } from '../../lib/page-meta';

export function NotFoundPage() {
  usePageMeta({ title: `Page Not Found | ${SITE_NAME}`, description: 'Trang bạn tìm không tồn tại.', robots: 'noindex' });
  return (
    <section className="container status-page">
      <p className="status-code" aria-hidden="true">
        404
      </p>
      <h1>Page Not Found</h1>
      <p className="muted">Trang bạn tìm không tồn tại hoặc đã được chuyển đi.</p>
      <Link to="/" className="btn btn-primary">
        Về trang chủ
      </Link>
    </section>
  );
}
