import type { CrawlRunDto } from '../../../../../worker/schemas/admin';
import { formatDateTime, formatNumber } from '../../../lib/format';

export const RUN_STATE: Record<CrawlRunDto['state'], { text: string; badge: string }> = {
  running: { text: 'đang chạy', badge: 'badge-run' },
  done: { text: 'xong', badge: 'badge-ok' },
  failed: { text: 'thất bại', badge: 'badge-bad' },
};
const TRIGGER: Record<CrawlRunDto['trigger'], string> = {
  admin: 'quản trị',
  schedule: 'theo lịch',
  cli: 'dòng lệnh',
  start: 'khởi động',
  light: 'tập mới',
};

/** Crawl runs with their counts (auto-crawl page and dashboard). */
export function RunsTable({ runs }: { runs: CrawlRunDto[] }) {
  return (
    <div className="admin-table-wrap">
      <table className="admin-table" aria-label="Lượt thu thập">
        <thead>
          <tr>
            <th>#</th>
            <th>Nguồn phim</th>
            <th>Nguồn kích hoạt</th>
            <th>Thể loại</th>
            <th>Trạng thái</th>
            <th className="num">Trang</th>
            <th className="num">Mới</th>
            <th className="num">Gộp</th>
            <th className="num">Cập nhật</th>
            <th className="num">Bỏ qua</th>
            <th className="num">Lỗi</th>
            <th>Bắt đầu</th>
            <th>Kết thúc</th>
          </tr>
        </thead>
        <tbody>
          {runs.map((r) => (
            <tr key={r.id}>
              <td className="num">{r.id}</td>
              <td>{r.source.replace(/^https?:\/\//, '')}</td>
              <td>{TRIGGER[r.trigger]}</td>
              <td>{r.categories.length ? r.categories.join(', ') : r.lists.join(', ')}</td>
              <td>
                <span className={`badge ${RUN_STATE[r.state].badge}`}>{RUN_STATE[r.state].text}</span>
              </td>
              <td className="num">
                {r.pagesDone}/{r.pagesTotal ?? '?'}
              </td>
              <td className="num">{formatNumber(r.filmsNew)}</td>
              <td className="num">{formatNumber(r.filmsMerged ?? 0)}</td>
              <td className="num">{formatNumber(r.filmsUpdated)}</td>
              <td className="num">{formatNumber(r.filmsSkipped)}</td>
              <td className="num">{formatNumber(r.filmsFailed)}</td>
              <td>{formatDateTime(r.startedAt)}</td>
              <td>{r.finishedAt ? formatDateTime(r.finishedAt) : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {runs.length === 0 && <p className="admin-empty">Chưa có lượt thu thập nào.</p>}
    </div>
  );
}
