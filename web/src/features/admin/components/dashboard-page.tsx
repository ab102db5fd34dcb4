import { RefreshButton } from './admin-controls';
import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { lazy, type ReactNode, Suspense, useMemo } from 'react';
import type { AdminStats, DayCount, MonthRevenue, TopFilm, UploaderStats } from '../../../../../worker/schemas/admin';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { useSession } from '../../../lib/session';
import { messageOf } from '../api/admin-request';
import { statsQuery } from '../api/site-api';
import { canUse } from '../access';
import { AdminHeading } from './admin-layout';
import { ModerationQueueCard } from './moderation-page';
import { RunsTable } from './runs-table';

// chart.js (~60 kB gzip) only when a chart is on screen, never in the public pages' bundles.
const SeriesChart = lazy(() => import('./chart'));

export const formatVnd = (n: number) => `${formatNumber(n)} ₫`;
const dayLabel = (day: string) => `${day.slice(8, 10)}/${day.slice(5, 7)}`;
const monthLabel = (month: string) => `${month.slice(5, 7)}/${month.slice(0, 4)}`;

export function ViewsChart({ days }: { days: DayCount[] }) {
  const labels = useMemo(() => days.map((d) => dayLabel(d.day)), [days]);
  const values = useMemo(() => days.map((d) => d.views), [days]);
  const total = values.reduce((a, b) => a + b, 0);
  return (
    <Suspense fallback={<div className="chart-box muted">Loading...</div>}>
      <SeriesChart
        type="line"
        labels={labels}
        values={values}
        label="Lượt xem"
        summary={`Lượt xem ${days.length} ngày qua: tổng ${formatNumber(total)}`}
      />
    </Suspense>
  );
}

function RevenueChart({ months }: { months: MonthRevenue[] }) {
  const labels = useMemo(() => months.map((m) => monthLabel(m.month)), [months]);
  const values = useMemo(() => months.map((m) => m.amount), [months]);
  return (
    <Suspense fallback={<div className="chart-box muted">Loading...</div>}>
      <SeriesChart
        type="bar"
        labels={labels}
        values={values}
        label="Doanh thu"
        summary={`Doanh thu ${months.length} tháng qua: tổng ${formatVnd(values.reduce((a, b) => a + b, 0))}`}
        formatValue={formatNumber}
      />
    </Suspense>
  );
}

export function TopFilmsTable({ films, label }: { films: TopFilm[]; label: string }) {
  if (films.length === 0) return <p className="muted">Chưa có lượt xem.</p>;
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" aria-label={label}>
        <thead>
          <tr>
            <th>#</th>
            <th>Phim</th>
            <th className="num">Lượt xem</th>
          </tr>
        </thead>
        <tbody>
          {films.map((f, i) => (
            <tr key={f.slug}>
              <td className="num">{i + 1}</td>
              <td>
                <Link to="/$slug" params={{ slug: f.slug }}>
                  {f.title}
                </Link>
              </td>
              <td className="num">{formatNumber(f.views)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** A VIP2 uploader's dashboard: the films they added, their episodes and views (never the site's revenue). */
function UploadsDashboard({ stats, refresh }: { stats: UploaderStats; refresh: ReactNode }) {
  const cards: [string, string][] = [
    ['Phim bạn đã đăng', formatNumber(stats.films)],
    ['Tập phim', formatNumber(stats.episodes)],
    ['Lượt xem', formatNumber(stats.views)],
  ];
  return (
    <section>
      <AdminHeading title="Phim của bạn">{refresh}</AdminHeading>
      <StatCards cards={cards} />
      <ModerationQueueCard summary={stats.moderationQueue} />
      <div className="admin-card">
        <h2>Phim cập nhật gần đây</h2>
        {stats.recentFilms.length === 0 ? (
          <p className="muted">
            Bạn chưa đăng phim nào. <Link to="/admin/products/add_phim">Đăng phim đầu tiên</Link>
          </p>
        ) : (
          <div className="admin-table-wrap">
            <table className="admin-table" aria-label="Phim của bạn">
              <thead>
                <tr>
                  <th>Phim</th>
                  <th className="num">Số tập</th>
                  <th className="num">Lượt xem</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                {stats.recentFilms.map((f) => (
                  <tr key={f.slug}>
                    <td>
                      <Link to="/$slug" params={{ slug: f.slug }}>
                        {f.title}
                      </Link>
                    </td>
                    <td className="num">{formatNumber(f.episodes)}</td>
                    <td className="num">{formatNumber(f.views)}</td>
                    <td>
                      <Link to="/admin/products/add_episode" search={{ film: f.slug }}>
                        Thêm tập
                      </Link>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </div>
    </section>
  );
}

/** /admin/dashboard (admin or VIP2): the real figures of GET /api/admin/stats (a VIP2 uploader: their own). */
export function DashboardPage() {
  usePageMeta({ title: 'Tổng quan | Quản trị', robots: 'noindex' });
  const session = useSession();
  const stats = useQuery(statsQuery());
  if (stats.isError) {
    return (
      <section>
        <AdminHeading title="Tổng quan" />
        <p className="field-error" role="alert">
          Không tải được số liệu: {messageOf(stats.error)}
        </p>
        <button type="button" className="btn btn-ghost" onClick={() => void stats.refetch()}>
          Thử lại
        </button>
      </section>
    );
  }
  const s = stats.data;
  if (!s) return <p className="muted">Loading...</p>;
  if (s.scope === 'uploads') return <UploadsDashboard stats={s} refresh={<RefreshButton query={stats} />} />;
  const cards: [string, string][] = [
    ['Phim', formatNumber(s.films)],
    ['Tập phim', formatNumber(s.episodes)],
    ['Người dùng', formatNumber(s.users)],
    ['Thành viên VIP 1', formatNumber(s.vipMembers.VIP1)],
    ['Thành viên VIP 2', formatNumber(s.vipMembers.VIP2)],
    ['Doanh thu tháng này', formatVnd(s.revenueThisMonth)],
    ['Báo lỗi chưa xử lý', formatNumber(s.openErrorReports)],
    // The mail outbox (issue 34): mail that failed for good after its retries.
    ['Thư gửi lỗi', formatNumber(s.mail.failed)],
  ];
  const isAdmin = canUse(session, 'adminOnly');
  return (
    <section>
      <AdminHeading title="Tổng quan">
        <RefreshButton query={stats} />
      </AdminHeading>
      <StatCards cards={cards} />
      <ModerationQueueCard summary={s.moderationQueue} />
      <div className="chart-grid">
        <div className="admin-card">
          <h2>Lượt xem 30 ngày qua</h2>
          <ViewsChart days={s.viewsPerDay} />
        </div>
        <div className="admin-card">
          <h2>Doanh thu theo tháng (₫)</h2>
          <RevenueChart months={s.revenueByMonth} />
        </div>
      </div>
      <div className="two-cols">
        <div className="admin-card">
          <h2>Phim xem nhiều tuần này</h2>
          <TopFilmsTable films={s.topFilmsWeek} label="Phim xem nhiều tuần này" />
        </div>
        <div className="admin-card">
          <h2>Các lượt thu thập gần đây</h2>
          <RunsTable runs={s.lastCrawlRuns} />
          {isAdmin && (
            <p style={{ marginTop: 10 }}>
              <Link to="/admin/auto_crawlphim">Tới trang thu thập</Link>
            </p>
          )}
        </div>
      </div>
      <MailFailures mail={s.mail} />
    </section>
  );
}

/** Mail that could not leave after every retry (the outbox, issue 34), and how much is still waiting. */
function MailFailures({ mail }: { mail: AdminStats['mail'] }) {
  return (
    <div className="admin-card" data-testid="mail-health">
      <h2>Thư gửi lỗi</h2>
      <p className="muted">
        {mail.failed === 0 ? 'Không có thư nào gửi lỗi.' : `${formatNumber(mail.failed)} thư không gửi được sau khi đã thử lại.`}{' '}
        {mail.pending > 0 && `${formatNumber(mail.pending)} thư đang chờ gửi.`}
      </p>
      {mail.recentFailures.length > 0 && (
        <table className="data-table">
          <thead>
            <tr>
              <th scope="col">Loại thư</th>
              <th scope="col">Người nhận</th>
              <th scope="col">Số lần thử</th>
              <th scope="col">Lỗi cuối</th>
              <th scope="col">Lúc tạo</th>
            </tr>
          </thead>
          <tbody>
            {mail.recentFailures.map((f) => (
              <tr key={f.id}>
                <td>{f.kindLabel}</td>
                <td>{f.to}</td>
                <td>{f.attempts}</td>
                <td>{f.lastError}</td>
                <td>{formatDateTime(f.createdAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </div>
  );
}

/** The figures at the top of a dashboard, one card each: [label, formatted value]. */
function StatCards({ cards }: { cards: readonly (readonly [string, string])[] }) {
  return (
    <dl className="stat-grid">
      {cards.map(([label, value]) => (
        <div key={label} className="stat-card">
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}
