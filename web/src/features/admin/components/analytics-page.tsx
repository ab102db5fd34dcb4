import { AdminTabs } from './admin-controls';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { usePageMeta } from '../../../lib/page-meta';
import { messageOf } from '../api/admin-request';
import { analyticsQuery } from '../api/site-api';
import { AdminHeading } from './admin-layout';
import { TopFilmsTable, ViewsChart } from './dashboard-page';

const PERIODS = [
  { key: 'topFilmsWeek', label: '7 ngày' },
  { key: 'topFilmsMonth', label: '30 ngày' },
  { key: 'topFilmsAllTime', label: 'Mọi lúc' },
] as const;

/** /admin/analytics (admin): views per day and the most watched films by period. */
export function AnalyticsPage() {
  usePageMeta({ title: 'Thống kê | Quản trị', robots: 'noindex' });
  const analytics = useQuery(analyticsQuery());
  const [period, setPeriod] = useState<(typeof PERIODS)[number]['key']>('topFilmsWeek');
  const a = analytics.data;
  return (
    <section>
      <AdminHeading title="Thống kê" />
      {analytics.isError && (
        <p className="field-error" role="alert">
          Không tải được số liệu: {messageOf(analytics.error)}
        </p>
      )}
      {!a && analytics.isPending && <p className="muted">Loading...</p>}
      {a && (
        <>
          <div className="admin-card">
            <h2>Lượt xem 30 ngày qua</h2>
            <ViewsChart days={a.viewsPerDay} />
          </div>
          <div className="admin-card">
            <div className="admin-toolbar" style={{ justifyContent: 'space-between' }}>
              <h2 style={{ margin: 0 }}>Phim xem nhiều</h2>
              <AdminTabs label="Khoảng thời gian" options={PERIODS} value={period} onChange={setPeriod} style={{ margin: 0 }} />
            </div>
            <TopFilmsTable films={a[period]} label="Phim xem nhiều" />
          </div>
        </>
      )}
    </section>
  );
}
