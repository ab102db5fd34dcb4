import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import type { ModerationQueueSummary } from '../../../../../worker/schemas/admin';
import {
  type ModerationItem,
  type ModerationQueueQuery,
  SLOW_MODE_SETTING_TEXT,
  SLOW_MODE_SETTINGS,
  type SlowModeResponse,
  type SlowModeSetting,
  type WordCheckResponse,
  WORD_PHRASE_MAX,
} from '../../../../../worker/schemas/moderation';
import {
  COMMENT_HOLD_TEXT,
  COMMENT_REPORT_REASON_TEXT,
  type CommentReportReason,
  MODERATION_REASON_MAX,
  MUTE_DURATION_TEXT,
  MUTE_DURATIONS,
  type MuteDuration,
  UPLOADER_MUTE_DURATIONS,
  vnDate,
} from '../../../../../worker/schemas/values';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { canUse } from '../access';
import { messageOf } from '../api/admin-request';
import {
  addCommentWord,
  approveComment,
  banMember,
  checkCommentText,
  commentWordsQuery,
  moderationQueueQuery,
  muteMember,
  readSlowMode,
  removeComment,
  removeCommentWord,
  saveSlowMode,
} from '../api/moderation-api';
import { undoAuditEntry } from '../api/site-api';
import { AdminTabs } from './admin-controls';
import { AdminHeading } from './admin-layout';
import { AdminPager } from './admin-pager';

const HOUR = 3_600_000;
/** Decree 147/2024: unlawful content comes down within 24 hours of a request. */
const DEADLINE_HOURS = 24;

const FILTERS: { key: ModerationQueueQuery['filter']; label: string }[] = [
  { key: 'all', label: 'Tất cả' },
  { key: 'held', label: 'Đang giữ lại' },
  { key: 'reported', label: 'Bị báo cáo' },
];

/** "đã chờ 5 giờ" / "đã chờ 2 ngày 3 giờ". */
function waited(ms: number): string {
  const hours = Math.max(0, Math.floor(ms / HOUR));
  if (hours < 1) return `${Math.max(1, Math.floor(ms / 60_000))} phút`;
  return hours < 48 ? `${hours} giờ` : `${Math.floor(hours / 24)} ngày ${hours % 24} giờ`;
}

/** The queue's size and its oldest item's age against the 24-hour clock: the dashboard card and the page's header. */
export function ModerationQueueCard({ summary, link = true }: { summary: ModerationQueueSummary; link?: boolean }) {
  const now = Date.now();
  const age = summary.oldestAt === null ? 0 : now - summary.oldestAt;
  const late = summary.oldestAt !== null && age >= DEADLINE_HOURS * HOUR;
  return (
    <section className={`admin-card moderation-clock${late ? ' late' : ''}`} aria-label="Hàng chờ kiểm duyệt">
      <h2>Bình luận chờ xử lý</h2>
      <p>
        <strong className="moderation-open">{formatNumber(summary.open)}</strong> mục
        {summary.oldestAt !== null && (
          <>
            {' '}
            · mục cũ nhất đã chờ <strong className="moderation-oldest">{waited(age)}</strong>
            {late
              ? ` — quá hạn ${DEADLINE_HOURS} giờ`
              : ` — còn ${Math.max(0, Math.ceil((DEADLINE_HOURS * HOUR - age) / HOUR))} giờ trong hạn ${DEADLINE_HOURS} giờ`}
          </>
        )}
      </p>
      {link && (
        <p>
          <Link to="/admin/binh-luan">Mở hàng chờ kiểm duyệt</Link>
        </p>
      )}
    </section>
  );
}

/**
 * /admin/binh-luan (admin; a VIP2 uploader for the threads of their own films): held and reported comments, newest
 * or most reported first, with what a moderator decides (docs/decisions/0230-comment-moderation.md), and, for
 * admins, the filter's word list.
 */
export function ModerationPage() {
  usePageMeta({ title: 'Bình luận | Quản trị', robots: 'noindex' });
  const session = useSession();
  const isAdmin = canUse(session, 'adminOnly');
  const [filter, setFilter] = useState<ModerationQueueQuery['filter']>('all');
  const [sort, setSort] = useState<ModerationQueueQuery['sort']>('newest');
  const [page, setPage] = useState(1);
  const queue = useQuery(moderationQueueQuery({ filter, sort, page }));
  const data = queue.data;
  return (
    <section>
      <AdminHeading title="Kiểm duyệt bình luận">
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void queue.refetch()}>
          Làm mới
        </button>
      </AdminHeading>
      {data && <ModerationQueueCard summary={data.summary} link={false} />}
      <div className="moderation-toolbar">
        <AdminTabs
          label="Loại"
          options={FILTERS}
          value={filter}
          onChange={(key) => {
            setFilter(key);
            setPage(1);
          }}
        />
        <label className="moderation-sort">
          <span>Sắp xếp</span>
          <select
            className="admin-input"
            value={sort}
            onChange={(e) => {
              setSort(e.target.value as ModerationQueueQuery['sort']);
              setPage(1);
            }}
          >
            <option value="newest">Mới nhất</option>
            <option value="reports">Nhiều báo cáo nhất</option>
          </select>
        </label>
      </div>
      {queue.isError && <p className="field-error">{messageOf(queue.error)}</p>}
      {queue.isPending && <p className="muted">Loading...</p>}
      {data && data.data.length === 0 && <p className="muted">Không có bình luận nào chờ xử lý.</p>}
      {data?.data.map((item) => (
        <QueueItem key={item.id} item={item} isAdmin={isAdmin} />
      ))}
      {data && data.pagination.totalPages > 1 && <AdminPager pagination={data.pagination} onPage={setPage} />}
      <SlowModeCard />
      {isAdmin && <WordList />}
    </section>
  );
}

/**
 * "Chế độ chậm" of one film (issue 38): on, off, or automatic (on by itself when comments pour in faster than 10 a
 * second). Admins for every film, a VIP2 uploader for their own; each change is in the audit log.
 */
function SlowModeCard() {
  const [slug, setSlug] = useState('');
  const [mode, setMode] = useState<SlowModeSetting>('auto');
  const [state, setState] = useState<SlowModeResponse | null>(null);
  const load = useMutation({
    mutationFn: () => readSlowMode(slug.trim()),
    onSuccess: (res) => {
      setState(res);
      setMode(res.mode);
    },
    onError: (e) => toast.error(messageOf(e)),
  });
  const save = useMutation({
    mutationFn: () => saveSlowMode(slug.trim(), mode),
    onSuccess: (res) => {
      setState(res);
      toast.success(res.message ?? 'Đã lưu');
    },
    onError: (e) => toast.error(messageOf(e)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!slug.trim()) return;
    if (state?.slug === slug.trim()) save.mutate();
    else load.mutate();
  };
  return (
    <div className="admin-card moderation-slow">
      <h2>Chế độ chậm</h2>
      <p className="muted">
        Khi bình luận của một phim dồn dập (hơn 10 bình luận mỗi giây), mỗi người chỉ được bình luận một lần mỗi {state?.seconds ?? 10} giây
        cho đến khi lắng xuống. Có thể bật hoặc tắt hẳn cho từng phim.
      </p>
      <form className="admin-form" onSubmit={submit} aria-label="Chế độ chậm của phim">
        <label htmlFor="slow-slug">Đường dẫn phim (slug)</label>
        <input
          id="slow-slug"
          className="admin-input"
          value={slug}
          placeholder="vd. dat-rung-phuong-nam"
          onChange={(e) => {
            setSlug(e.target.value);
            setState(null);
          }}
        />
        {state && (
          <>
            <p role="status">{state.on ? `Đang bật: mỗi người một bình luận mỗi ${state.seconds} giây.` : 'Đang tắt.'}</p>
            <label htmlFor="slow-mode">Chế độ</label>
            <select id="slow-mode" className="admin-input" value={mode} onChange={(e) => setMode(e.target.value as SlowModeSetting)}>
              {SLOW_MODE_SETTINGS.map((m) => (
                <option key={m} value={m}>
                  {SLOW_MODE_SETTING_TEXT[m]}
                </option>
              ))}
            </select>
          </>
        )}
        <button type="submit" className="btn btn-primary btn-sm" disabled={load.isPending || save.isPending}>
          {state ? 'Lưu' : 'Xem'}
        </button>
      </form>
    </div>
  );
}

function reportSummary(byReason: Partial<Record<CommentReportReason, number>>): string {
  return Object.entries(byReason)
    .map(([reason, n]) => `${COMMENT_REPORT_REASON_TEXT[reason as CommentReportReason]} ×${n}`)
    .join(', ');
}

function QueueItem({ item, isAdmin }: { item: ModerationItem; isAdmin: boolean }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [duration, setDuration] = useState<MuteDuration>('1d');
  const [error, setError] = useState('');
  const durations = isAdmin ? MUTE_DURATIONS : UPLOADER_MUTE_DURATIONS;
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: ['admin', 'comments'] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'stats'] });
  };
  const act = useMutation({
    mutationFn: (run: () => Promise<{ message: string; auditId: number }>) => run(),
    onSuccess: (res) => {
      setError('');
      refresh();
      toast.success(res.message, {
        // "Hoàn tác" is the audit log's undo (docs/decisions/0503), offered to admins here too.
        ...(isAdmin
          ? {
              action: {
                label: 'Hoàn tác',
                onClick: () =>
                  void undoAuditEntry(res.auditId)
                    .then((u) => {
                      toast.success(u.message);
                      refresh();
                    })
                    .catch((e: unknown) => toast.error(messageOf(e))),
              },
            }
          : {}),
      });
    },
    onError: (e) => {
      setError(messageOf(e));
      toast.error(messageOf(e));
    },
  });
  const needReason = (run: (reason: string) => Promise<{ message: string; auditId: number }>) => () => {
    const r = reason.trim();
    if (!r) {
      setError('Vui lòng nhập lý do (người viết sẽ thấy).');
      document.getElementById(`reason-${item.id}`)?.focus();
      return;
    }
    act.mutate(() => run(r));
  };
  const a = item.author;
  const status =
    item.status === 'held'
      ? `Đang giữ lại: ${item.holdReason ? COMMENT_HOLD_TEXT[item.holdReason] : ''}`
      : item.status === 'hidden'
        ? 'Đã ẩn do bị báo cáo'
        : 'Bị báo cáo';
  return (
    <article className="admin-card moderation-item" aria-label={`Bình luận của ${a.username}`} data-comment={item.id}>
      <header className="moderation-item-head">
        <Link to="/$slug" params={{ slug: item.film.slug }}>
          {item.film.title}
        </Link>
        {item.episode !== null && <span className="comment-episode">Tập {item.episode}</span>}
        <span className="comment-badge">{status}</span>
        <time className="muted" dateTime={new Date(item.createdAt).toISOString()}>
          {formatDateTime(item.createdAt)}
        </time>
      </header>
      <blockquote className="moderation-text">{item.text}</blockquote>
      {item.rawText && <p className="muted">Nguyên văn: {item.rawText}</p>}
      {item.spoiler && <p className="muted">Đánh dấu có tiết lộ nội dung</p>}
      {item.reports.count > 0 && (
        <p>
          {item.reports.count} báo cáo: {reportSummary(item.reports.byReason)}
          {item.reports.notes.length > 0 && <span className="muted"> — “{item.reports.notes.join('”, “')}”</span>}
        </p>
      )}
      <p className="moderation-author">
        <strong>{a.username}</strong> <span className="muted">({a.email})</span> · tham gia {vnDate(a.createdAt)} ·{' '}
        {formatNumber(a.history.comments)} bình luận · {formatNumber(a.history.removed)} bị gỡ · {formatNumber(a.history.reportsAgainst)}{' '}
        lần bị báo cáo
        {a.mute && (
          <span className="comment-badge">
            {' '}
            Đang bị khóa bình luận{a.mute.until !== null ? ` đến ${vnDate(a.mute.until)}` : ' vĩnh viễn'}
          </span>
        )}
        {a.banned && <span className="comment-badge"> Tài khoản bị khóa</span>}
      </p>
      <div className="moderation-actions">
        <label htmlFor={`reason-${item.id}`}>Lý do (người viết sẽ thấy)</label>
        <input
          id={`reason-${item.id}`}
          className="admin-input"
          value={reason}
          maxLength={MODERATION_REASON_MAX}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={error ? true : undefined}
        />
        <div className="form-actions">
          <button
            type="button"
            className="btn btn-primary btn-sm"
            disabled={act.isPending}
            onClick={() => act.mutate(() => approveComment(item.id, reason.trim() ? { reason: reason.trim() } : {}))}
          >
            Duyệt
          </button>
          {item.reports.byReason.spoiler ? (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={act.isPending}
              onClick={() => act.mutate(() => approveComment(item.id, { spoiler: true }))}
            >
              Duyệt, đánh dấu tiết lộ nội dung
            </button>
          ) : null}
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={act.isPending}
            onClick={needReason((r) => removeComment(item.id, r))}
          >
            Gỡ bình luận
          </button>
        </div>
        <div className="form-actions">
          <label className="visually-hidden" htmlFor={`mute-${item.id}`}>
            Thời hạn khóa bình luận
          </label>
          <select
            id={`mute-${item.id}`}
            className="admin-input"
            value={duration}
            onChange={(e) => setDuration(e.target.value as MuteDuration)}
          >
            {durations.map((d) => (
              <option key={d} value={d}>
                {MUTE_DURATION_TEXT[d]}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={act.isPending}
            onClick={needReason((r) => muteMember(a.id, { duration, reason: r, commentId: item.id }))}
          >
            Khóa bình luận
          </button>
          {isAdmin && (
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              disabled={act.isPending || a.banned !== null}
              onClick={needReason((r) => banMember(a.id, { reason: r, commentId: item.id }))}
            >
              Khóa tài khoản
            </button>
          )}
        </div>
        {error && (
          <p className="field-error" role="alert">
            {error}
          </p>
        )}
      </div>
    </article>
  );
}

/** The filter's word list (admins): add a word with what it does, remove one, try a text against the list. */
function WordList() {
  const queryClient = useQueryClient();
  const words = useQuery(commentWordsQuery());
  const [phrase, setPhrase] = useState('');
  const [action, setAction] = useState<'hold' | 'mask'>('hold');
  const [sample, setSample] = useState('');
  const [result, setResult] = useState<WordCheckResponse | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey: ['admin', 'comment-words'] });
  const add = useMutation({
    mutationFn: () => addCommentWord({ phrase: phrase.trim(), action }),
    onSuccess: (res) => {
      toast.success(res.message);
      setPhrase('');
      refresh();
    },
    onError: (e) => toast.error(messageOf(e)),
  });
  const remove = useMutation({
    mutationFn: (id: number) => removeCommentWord(id),
    onSuccess: (res) => {
      toast.success(res.message);
      refresh();
    },
    onError: (e) => toast.error(messageOf(e)),
  });
  const check = useMutation({
    mutationFn: () => checkCommentText(sample),
    onSuccess: setResult,
    onError: (e) => toast.error(messageOf(e)),
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (phrase.trim()) add.mutate();
  };
  return (
    <div className="admin-card moderation-words">
      <h2>Danh sách từ lọc</h2>
      <p className="muted">
        Mỗi từ được so khớp cả khi viết không dấu, cách chữ, lặp chữ, thay chữ bằng số hay viết d thay đ. “Giữ lại chờ duyệt”: bình luận chỉ
        người viết thấy cho đến khi được duyệt; “Che từ”: từ đó hiện thành dấu *.
      </p>
      <form className="admin-form moderation-word-form" onSubmit={submit} aria-label="Thêm từ lọc">
        <label htmlFor="word-phrase">Từ hoặc cụm từ</label>
        <input
          id="word-phrase"
          className="admin-input"
          value={phrase}
          maxLength={WORD_PHRASE_MAX}
          onChange={(e) => setPhrase(e.target.value)}
        />
        <label htmlFor="word-action">Xử lý</label>
        <select id="word-action" className="admin-input" value={action} onChange={(e) => setAction(e.target.value as 'hold' | 'mask')}>
          <option value="hold">Giữ lại chờ duyệt</option>
          <option value="mask">Che từ</option>
        </select>
        <button type="submit" className="btn btn-primary btn-sm" disabled={add.isPending}>
          Thêm từ
        </button>
      </form>
      {words.isPending && <p className="muted">Loading...</p>}
      {words.data && (
        <div className="admin-table-wrap">
          <table className="admin-table" aria-label="Danh sách từ lọc">
            <thead>
              <tr>
                <th>Từ</th>
                <th>Xử lý</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {words.data.data.map((w) => (
                <tr key={w.id}>
                  <td>{w.phrase}</td>
                  <td>{w.action === 'hold' ? 'Giữ lại chờ duyệt' : 'Che từ'}</td>
                  <td>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      aria-label={`Xóa ${w.phrase}`}
                      disabled={remove.isPending}
                      onClick={() => remove.mutate(w.id)}
                    >
                      Xóa
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <form
        className="admin-form"
        onSubmit={(e) => {
          e.preventDefault();
          if (sample) check.mutate();
        }}
        aria-label="Thử bộ lọc"
      >
        <label htmlFor="word-sample">Thử bộ lọc với một bình luận</label>
        <textarea id="word-sample" className="admin-input" rows={2} value={sample} onChange={(e) => setSample(e.target.value)} />
        <button type="submit" className="btn btn-ghost btn-sm" disabled={check.isPending}>
          Thử
        </button>
      </form>
      {result && (
        <p role="status" className="moderation-check">
          Hiển thị: “{result.text}” · {result.hold ? `Giữ lại (${COMMENT_HOLD_TEXT[result.hold]})` : 'Không giữ lại'}
          {result.matched.length > 0 && ` · Khớp: ${result.matched.map((m) => m.phrase).join(', ')}`}
        </p>
      )}
    </div>
  );
}
