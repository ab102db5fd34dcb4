import { createFileRoute } from '@tanstack/react-router';
import { AutoCrawlPage } from '../../features/admin/components/auto-crawl-page';
import { requireAdminArea } from '../../features/admin/guard';

export const Route = createFileRoute('/admin/auto_crawlphim')({
  beforeLoad: requireAdminArea('adminOnly'),
  component: AutoCrawlPage,
});
