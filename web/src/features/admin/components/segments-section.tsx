import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import type { AdminSegment } from '../../../../../worker/schemas/segments';
import { formatClock } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import { filmSegmentsQuery, saveSegment } from '../api/segments-api';

const KIND_LABELS = { intro: 'Giới thiệu', credits: 'Đoạn kết' } as const;

/**
 * "Đoạn giới thiệu và đoạn kết" on the film's admin page (issue 40 §7): every segment viewers taught, per episode and
 * server, with its reports and how many sought back after skipping; the admin fixes the times, hides or locks one
 * (a locked segment no longer moves with reports). Each save is in the audit log ("Sửa đoạn giới thiệu").
 */
export function SegmentsSection({ slug }: { slug: string }) {
  const segments = useQuery(filmSegmentsQuery(slug));
  const rows = segments.data?.data ?? [];
  return (
    <section className="admin-card" aria-labelledby="segments-heading" style={{ marginTop: 16 }}>
      <h2 id="segments-heading">Đoạn giới thiệu và đoạn kết</h2>
      {segments.isError ? (
        <p className="field-error" role="alert">
          Không tải được: {messageOf(segments.error)}
        </p>
      ) : !segments.data ? (
        <p className="muted">Loading...</p>
      ) : rows.length === 0 ? (
        <p className="muted">Chưa có đoạn nào: người xem chưa bỏ qua đủ nhiều.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table">
            <thead>
              <tr>
                <th scope="col">Tập</th>
                <th scope="col">Server</th>
                <th scope="col">Loại</th>
                <th scope="col">Bắt đầu (giây)</th>
                <th scope="col">Kết thúc (giây)</th>
                <th scope="col">Thiết bị · Lượt · Tua lại</th>
                <th scope="col">Ẩn</th>
                <th scope="col">Khoá</th>
                <th scope="col">
                  <span className="visually-hidden">Lưu</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((s) => (
                <SegmentRow
                  key={`${s.episode}/${s.server}/${s.kind}/${s.start}/${s.end}/${s.hidden}/${s.locked}`}
                  slug={slug}
                  segment={s}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

function SegmentRow({ slug, segment }: { slug: string; segment: AdminSegment }) {
  const queryClient = useQueryClient();
  const [start, setStart] = useState(String(segment.start));
  const [end, setEnd] = useState(String(segment.end));
  const [hidden, setHidden] = useState(segment.hidden);
  const [locked, setLocked] = useState(segment.locked);
  const label = `Tập ${segment.episode} · ${segment.server} · ${KIND_LABELS[segment.kind]}`;
  const save = useMutation({
    mutationFn: () =>
      saveSegment({
        slug,
        episode: segment.episode,
        server: segment.server,
        kind: segment.kind,
        start: Number(start),
        end: segment.kind === 'credits' ? Number(start) : Number(end),
        hidden,
        locked,
      }),
    onSuccess: () => {
      toast.success(`Đã lưu ${label}`);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'segments', slug] });
    },
    onError: (error) => toast.error('Không lưu được đoạn này', { description: messageOf(error) }),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate();
  };
  const id = `segment-${segment.episode}-${segment.server}-${segment.kind}`.replace(/[^a-zA-Z0-9-]/g, '_');
  return (
    <tr>
      <td>{segment.episode}</td>
      <td>{segment.server}</td>
      <td>{KIND_LABELS[segment.kind]}</td>
      <td>
        <input
          form={id}
          type="number"
          min={0}
          step={0.1}
          value={start}
          onChange={(e) => setStart(e.target.value)}
          aria-label={`Bắt đầu: ${label}`}
          title={formatClock(Number(start) || 0)}
        />
      </td>
      <td>
        {segment.kind === 'intro' ? (
          <input
            form={id}
            type="number"
            min={0}
            step={0.1}
            value={end}
            onChange={(e) => setEnd(e.target.value)}
            aria-label={`Kết thúc: ${label}`}
            title={formatClock(Number(end) || 0)}
          />
        ) : (
          '—'
        )}
      </td>
      <td>
        {segment.devices} · {segment.reports} · {segment.against}
      </td>
      <td>
        <input
          form={id}
          type="checkbox"
          checked={hidden}
          onChange={(e) => {
            setHidden(e.target.checked);
            // Hidden by hand stays hidden only locked: the next report would otherwise re-learn it.
            if (e.target.checked) setLocked(true);
          }}
          aria-label={`Ẩn: ${label}`}
        />
      </td>
      <td>
        <input form={id} type="checkbox" checked={locked} onChange={(e) => setLocked(e.target.checked)} aria-label={`Khoá: ${label}`} />
      </td>
      <td>
        <form id={id} onSubmit={submit}>
          <button type="submit" className="btn btn-sm btn-primary" disabled={save.isPending} aria-label={`Lưu ${label}`}>
            Lưu
          </button>
        </form>
      </td>
    </tr>
  );
}
