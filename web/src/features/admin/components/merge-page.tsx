import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { MERGE_TEXTS, type MergeFilmDto, type MergeSuggestionDto } from '../../../../../worker/schemas/sources';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { dismissSuggestion, mergeFilms, mergeSuggestionsQuery, scanDuplicates } from '../api/sources-api';
import { AdminTabs, RefreshButton } from './admin-controls';
import { AdminHeading } from './admin-layout';

function FilmCell({ film }: { film: MergeFilmDto }) {
  return (
    <div>
      <strong>{film.title}</strong> <span className="muted">({film.slug})</span>
      <div className="muted">
        {film.nameEnglish || '—'} · {film.year ?? '?'} · {film.kind === 'single' ? 'phim lẻ' : film.kind === 'series' ? 'phim bộ' : '?'}
        {film.tmdb ? ` · TMDB ${film.tmdb}` : ''}
        {film.imdbId ? ` · ${film.imdbId}` : ''}
      </div>
      <div className="muted">
        Nguồn: {film.sources.join(', ') || 'thêm tay'} · {formatNumber(film.episodes)} tập · {formatNumber(film.comments)} bình luận ·{' '}
        {formatNumber(film.views)} lượt xem
      </div>
    </div>
  );
}

/**
 * /admin/gop-phim (admin): "Gộp phim" — pairs of films that may be one (a crawl's doubt, or duplicates the scan found),
 * and two films an admin picks. A merge moves everything to the kept film (episodes, comments with their threads,
 * ratings, lists, progress, views, reports) and the other's address answers 301 there; "Hoàn tác" in the audit log
 * puts both back.
 */
export function MergePage() {
  usePageMeta({ title: `${MERGE_TEXTS.title} | Quản trị`, robots: 'noindex' });
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<'open' | 'dismissed'>('open');
  const [swapped, setSwapped] = useState<Set<number>>(new Set());
  const [keep, setKeep] = useState('');
  const [drop, setDrop] = useState('');
  const [formError, setFormError] = useState('');
  const list = useQuery(mergeSuggestionsQuery(status));
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['admin', 'merge-suggestions'] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'films'] });
  };

  const merge = useMutation({
    mutationFn: (pair: { keep: string; drop: string }) => mergeFilms(pair),
    onSuccess: (res, pair) => {
      toast.success(`${res.message}: ${pair.drop} → ${res.slug}`, { description: 'Có thể hoàn tác trong Nhật ký.' });
      setKeep('');
      setDrop('');
      refresh();
    },
    onError: (error) => toast.error('Không gộp được phim', { description: messageOf(error) }),
  });
  const dismiss = useMutation({
    mutationFn: (id: number) => dismissSuggestion(id),
    onSuccess: (res) => {
      toast.success(res.message);
      refresh();
    },
    onError: (error) => toast.error('Không bỏ qua được gợi ý', { description: messageOf(error) }),
  });
  const scan = useMutation({
    mutationFn: scanDuplicates,
    onSuccess: (res) => {
      toast.success(res.found ? `Tìm thấy ${res.found} cặp phim có thể trùng` : 'Không thấy phim trùng nào');
      refresh();
    },
    onError: (error) => toast.error('Không tìm được phim trùng', { description: messageOf(error) }),
  });

  const pairOf = (s: MergeSuggestionDto) => (swapped.has(s.id) ? { keep: s.drop, drop: s.keep } : { keep: s.keep, drop: s.drop });
  const confirmMerge = (pair: { keep: { slug: string; title: string }; drop: { slug: string; title: string } }) => {
    if (window.confirm(`Gộp "${pair.drop.title}" (${pair.drop.slug}) vào "${pair.keep.title}" (${pair.keep.slug})?`))
      merge.mutate({ keep: pair.keep.slug, drop: pair.drop.slug });
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const [k, d] = [keep.trim(), drop.trim()];
    if (!k || !d) {
      setFormError('Vui lòng nhập đường dẫn (slug) của cả hai phim.');
      return;
    }
    if (k === d) {
      setFormError('Hai phim phải khác nhau.');
      return;
    }
    setFormError('');
    confirmMerge({ keep: { slug: k, title: k }, drop: { slug: d, title: d } });
  };

  return (
    <section>
      <AdminHeading title={MERGE_TEXTS.title}>
        <button type="button" className="btn btn-ghost btn-sm" disabled={scan.isPending} onClick={() => scan.mutate()}>
          {scan.isPending ? 'Đang tìm…' : 'Tìm phim trùng'}
        </button>
        <RefreshButton query={list} />
        <Link to="/admin/audit" className="btn btn-ghost btn-sm">
          Nhật ký
        </Link>
      </AdminHeading>
      <p className="muted" style={{ marginBottom: 12 }}>
        Gộp chuyển mọi thứ sang phim được giữ lại: các nguồn và server, tập phim, bình luận, đánh giá (mỗi thành viên giữ đánh giá mới
        nhất), tủ phim, tiến độ xem, lượt xem, báo lỗi. Đường dẫn cũ chuyển hướng 301 sang phim được giữ lại. Có thể hoàn tác trong Nhật ký.
      </p>
      <AdminTabs
        label="Gợi ý gộp phim"
        options={[
          { key: 'open', label: 'Gợi ý' },
          { key: 'dismissed', label: 'Đã bỏ qua' },
        ]}
        value={status}
        onChange={setStatus}
        style={{ marginBottom: 12 }}
      />
      {list.isError && (
        <p className="field-error" role="alert">
          {messageOf(list.error)}
        </p>
      )}
      <div className="admin-table-wrap">
        <table className="admin-table" aria-label="Gợi ý gộp phim">
          <thead>
            <tr>
              <th>Lý do</th>
              <th>Phim giữ lại</th>
              <th>Phim gộp vào</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {list.data?.data.map((s) => {
              const pair = pairOf(s);
              return (
                <tr key={s.id} data-suggestion={s.id}>
                  <td>
                    {s.reason}
                    <div className="muted">{formatDateTime(s.createdAt)}</div>
                  </td>
                  <td>
                    <FilmCell film={pair.keep} />
                  </td>
                  <td>
                    <FilmCell film={pair.drop} />
                  </td>
                  <td>
                    <div className="admin-toolbar">
                      <button
                        type="button"
                        className="btn btn-primary btn-sm"
                        disabled={merge.isPending}
                        aria-label={`${MERGE_TEXTS.merge}: ${pair.drop.title} vào ${pair.keep.title}`}
                        onClick={() => confirmMerge(pair)}
                      >
                        {MERGE_TEXTS.merge}
                      </button>
                      <button
                        type="button"
                        className="btn btn-ghost btn-sm"
                        onClick={() =>
                          setSwapped((prev) => {
                            const next = new Set(prev);
                            if (next.has(s.id)) next.delete(s.id);
                            else next.add(s.id);
                            return next;
                          })
                        }
                      >
                        Đổi phim giữ lại
                      </button>
                      {s.status === 'open' && (
                        <button
                          type="button"
                          className="btn btn-ghost btn-sm"
                          disabled={dismiss.isPending}
                          onClick={() => dismiss.mutate(s.id)}
                        >
                          Khác nhau
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {list.data?.data.length === 0 && <p className="admin-empty">Không có gợi ý nào.</p>}
        {list.isPending && <p className="admin-empty">Loading...</p>}
      </div>
      <form className="admin-card" onSubmit={submit} noValidate aria-label="Gộp hai phim">
        <h2>Gộp hai phim bất kỳ</h2>
        <div className="admin-toolbar">
          <label className="admin-field">
            Phim giữ lại (slug)
            <input className="admin-input" value={keep} onChange={(e) => setKeep(e.target.value)} placeholder="ngoi-truong-xac-song" />
          </label>
          <label className="admin-field">
            Phim gộp vào (slug)
            <input className="admin-input" value={drop} onChange={(e) => setDrop(e.target.value)} placeholder="ngoi-truong-xac-song-2" />
          </label>
        </div>
        {formError && (
          <p className="field-error" role="alert">
            {formError}
          </p>
        )}
        <button type="submit" className="btn btn-primary" disabled={merge.isPending}>
          {MERGE_TEXTS.merge}
        </button>
      </form>
    </section>
  );
}
