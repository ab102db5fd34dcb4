import { type QueryClient, useQueryClient } from '@tanstack/react-query';
import { useRouterState } from '@tanstack/react-router';
import { type FormEvent, memo, useEffect, useMemo, useRef, useState } from 'react';
import type { CommentDto } from '../../../../../worker/schemas/comments';
import { COMMENT_MESSAGES } from '../../../../../worker/schemas/values';
import {
  COMMENT_REPORT_NOTE_MAX,
  COMMENT_REPORT_REASON_TEXT,
  COMMENT_REPORT_REASONS,
  type CommentReportReason,
  MODERATION_TEXTS,
} from '../../../../../worker/schemas/values';
import { ApiError } from '../../../lib/api-client';
import { SessionExpiredError } from '../../../lib/auth-request';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { reportError } from '../../../lib/report-error';
import { getSession, useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import {
  fetchOlderComments,
  hideAuthor,
  mergeComments,
  mergeOlderPage,
  newClientId,
  postComment,
  reportComment,
  withdrawComment,
} from '../api/comments-api';
import { useLiveComments } from '../hooks/use-live-comments';

export const LOGIN_TO_COMMENT = 'Bạn cần đăng nhập để có thể bình luận';

interface CommentsSectionProps {
  /** Film slug: the live room name and the film the comments belong to. */
  slug: string;
  /** The newest threads the page holds, and every older page loaded since ("Xem thêm bình luận"). */
  comments: CommentDto[];
  /** Where the next older page starts; null when the oldest thread is shown. */
  cursor: number | null;
  /** The film's visible comments ("Bình luận (N)"), kept current by the live room. */
  total: number;
}

/**
 * The thread kept normalized: the comments by id and each one's replies by parent id (0 for top level), newest
 * top-level threads first. Built from the cached list; a list of replies whose members did not change keeps its
 * array from the previous build, so a live comment re-renders its own thread only (CommentItem is memoized).
 */
export interface ThreadIndex {
  byId: Map<number, CommentDto>;
  children: Map<number, CommentDto[]>;
}

export function indexThread(comments: CommentDto[], previous?: ThreadIndex): ThreadIndex {
  const byId = new Map(comments.map((c) => [c.id, c]));
  const children = new Map<number, CommentDto[]>();
  for (const c of comments) {
    const parent = c.parent_id != null && byId.has(c.parent_id) ? c.parent_id : 0;
    const list = children.get(parent);
    if (list) list.push(c);
    else children.set(parent, [c]);
  }
  children.get(0)?.reverse();
  if (previous)
    for (const [parent, list] of children) {
      const before = previous.children.get(parent);
      if (before && before.length === list.length && before.every((c, i) => c === list[i])) children.set(parent, before);
    }
  return { byId, children };
}

/** The reply box takes the focus when it opens (a stable ref callback runs once per mount). */
const focusOnMount = (el: HTMLTextAreaElement | null) => el?.focus();

type Send = (text: string, parentId: number | null, spoiler?: boolean) => Promise<boolean>;

/** The episode of the watch page the comments are under (/xem-phim/{slug}/tap-{n}); none on the film page. */
function useEpisode(): number | undefined {
  const path = useRouterState({ select: (s) => s.location.pathname });
  const match = /^\/xem-phim\/[^/]+\/tap-(\d+)/.exec(path);
  return match ? Number(match[1]) : undefined;
}

/**
 * Sends a comment or a reply: without a session the spec's alert and nothing is sent;
 * the stored comment joins the list at once (the live room's copy of it is then a duplicate).
 * Too many comments, or a mute, shows the server's message; other failures are logged only; an expired session has
 * been told already.
 */
function useSend(
  slug: string,
  queryClient: QueryClient,
  episode: number | undefined,
  onMuted: (message: string) => void,
  onWait: (seconds: number) => void,
): Send {
  // One client id per comment being written (per box: the main one, or a reply's parent), kept until it is stored:
  // a retry after a lost answer sends the same id and gets the first comment back (issue 39).
  const clientIds = useRef(new Map<number, string>());
  return async (text, parentId, spoiler) => {
    if (!getSession()) {
      window.alert(LOGIN_TO_COMMENT);
      return false;
    }
    const box = parentId ?? 0;
    const clientId = clientIds.current.get(box) ?? newClientId();
    clientIds.current.set(box, clientId);
    try {
      mergeComments(queryClient, slug, [await postComment(slug, text, parentId, { spoiler, episode, clientId })]);
      clientIds.current.delete(box);
      return true;
    } catch (error) {
      // The server's rate-limit text ('Bạn bình luận quá nhanh…') and a mute's reason are for the viewer; other
      // failures are logged only (the spec), and an expired session has been told already. Slow mode: the box
      // counts the wait down.
      if (error instanceof ApiError && error.status === 403 && error.code === 'muted') {
        onMuted(error.message);
        toast.error(error.message);
      } else if (error instanceof ApiError && error.status === 429) {
        if (error.code === 'slow_mode' && error.retryAfter) onWait(error.retryAfter);
        toast.error(error.message);
      } else if (!(error instanceof SessionExpiredError)) reportError('comments', error);
      return false;
    }
  };
}

/** Seconds left until `until` (ms), ticking each second; 0 once passed. */
function useCountdown(until: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (until <= Date.now()) return;
    setNow(Date.now());
    const timer = setInterval(() => {
      setNow(Date.now());
      if (Date.now() >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return Math.max(0, Math.ceil((until - now) / 1000));
}

interface ThreadContext {
  slug: string;
  send: Send;
  viewerId: number;
  onHide: (userId: number, name: string) => void;
  /** Replies by parent id (the normalized thread). */
  children: Map<number, CommentDto[]>;
  /** Seconds of slow mode left before this member may post again (0: may post). */
  wait: number;
}

const NO_REPLIES: CommentDto[] = [];

export function CommentsSection({ slug, comments, cursor, total }: CommentsSectionProps) {
  const session = useSession();
  const viewerId = session ? Number(session.id) || 0 : 0;
  const [text, setText] = useState('');
  const [spoiler, setSpoiler] = useState(false);
  const [sending, setSending] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [muted, setMuted] = useState<string | null>(null);
  const [hiddenNow, setHiddenNow] = useState<number[]>([]);
  const [waitUntil, setWaitUntil] = useState(0);
  const queryClient = useQueryClient();
  const episode = useEpisode();
  const live = useLiveComments(slug, viewerId);
  const send = useSend(slug, queryClient, episode, setMuted, (seconds) => setWaitUntil(Date.now() + seconds * 1000));
  const wait = useCountdown(waitUntil);
  const hiddenKey = [...live.hiddenAuthors, ...hiddenNow].join(',');
  const shown = useMemo(() => {
    const hidden = new Set(hiddenKey ? hiddenKey.split(',').map(Number) : []);
    return hidden.size ? comments.filter((c) => c.user_id === 0 || !hidden.has(c.user_id)) : comments;
  }, [comments, hiddenKey]);
  const indexRef = useRef<ThreadIndex | undefined>(undefined);
  const index = useMemo(() => indexThread(shown, indexRef.current), [shown]);
  indexRef.current = index;
  const roots = index.children.get(0) ?? NO_REPLIES;
  const notice = muted ?? live.refused;

  const afterPost = () => {
    // In slow mode the member's next post waits its seconds: the box says so at once.
    if (live.slowMode > 0) setWaitUntil(Date.now() + live.slowMode * 1000);
  };
  const sendAndWait: Send = async (...args) => {
    const sent = await send(...args);
    if (sent) afterPost();
    return sent;
  };

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    if (await sendAndWait(text, null, spoiler)) {
      setText('');
      setSpoiler(false);
    }
    setSending(false);
  };

  const loadOlder = async () => {
    if (cursor === null) return;
    setLoadingOlder(true);
    try {
      mergeOlderPage(queryClient, slug, await fetchOlderComments(slug, cursor));
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setLoadingOlder(false);
    }
  };

  /** "Ẩn bình luận của người này": gone from this page at once, kept with the account for every device. */
  const onHide = (userId: number, name: string) => {
    setHiddenNow((h) => [...h, userId]);
    hideAuthor(userId)
      .then(() => toast.success(`${MODERATION_TEXTS.authorHidden}: ${name}`))
      .catch((error: unknown) => {
        setHiddenNow((h) => h.filter((id) => id !== userId));
        if (!(error instanceof SessionExpiredError)) toast.error(error instanceof Error ? error.message : String(error));
      });
  };

  // The items keep one pair of handlers that call the current ones: a memoized item never holds a stale one.
  const handlers = useRef({ send: sendAndWait, onHide });
  handlers.current = { send: sendAndWait, onHide };
  const stable = useMemo(
    () => ({
      send: ((...args) => handlers.current.send(...args)) as Send,
      onHide: (userId: number, name: string) => handlers.current.onHide(userId, name),
    }),
    [],
  );
  const thread = useMemo<ThreadContext>(
    () => ({ slug, viewerId, children: index.children, wait, ...stable }),
    [slug, viewerId, index, wait, stable],
  );
  return (
    <section className="comments" aria-labelledby={`comments-${slug}`} data-film={slug}>
      <h2 id={`comments-${slug}`} className="section-title">
        Bình luận ({Math.max(total, roots.length)})
      </h2>
      {episode !== undefined && live.presence !== null && (
        <p className="comment-presence muted" aria-live="polite">
          {formatNumber(live.presence)} người đang xem
        </p>
      )}
      {live.slowMode > 0 && !notice && (
        <p className="comment-slow muted" role="status">
          {COMMENT_MESSAGES.slowModeOn(live.slowMode)}
        </p>
      )}
      {notice ? (
        <p className="comment-notice" role="alert">
          {notice}
        </p>
      ) : (
        <form className="comment-form" onSubmit={submit}>
          <label htmlFor={`comment-input-${slug}`} className="visually-hidden">
            Nội dung bình luận
          </label>
          <textarea
            id={`comment-input-${slug}`}
            required
            rows={3}
            placeholder="Để lại bình luận ..."
            value={text}
            onChange={(e) => setText(e.target.value)}
          />
          <div className="comment-form-row">
            <label className="form-check">
              <input type="checkbox" checked={spoiler} onChange={(e) => setSpoiler(e.target.checked)} />
              <span>{MODERATION_TEXTS.spoilerMark}</span>
            </label>
            <button type="submit" className="btn btn-primary" disabled={sending || wait > 0}>
              Bình luận
            </button>
          </div>
          {wait > 0 && (
            <p className="comment-wait" role="timer" aria-live="off">
              {COMMENT_MESSAGES.slowModeWait(wait)}
            </p>
          )}
        </form>
      )}
      {live.skipped > 0 && (
        <button type="button" className="btn btn-ghost btn-sm comment-more-new" onClick={() => void live.loadSkipped()}>
          +{formatNumber(live.skipped)} bình luận mới
        </button>
      )}
      {roots.length === 0 ? (
        <p className="muted">Chưa có bình luận nào. Hãy là người đầu tiên!</p>
      ) : (
        <ul className="comment-list">
          {roots.map((node) => (
            <CommentItem key={node.id} node={node} thread={thread} />
          ))}
        </ul>
      )}
      {cursor !== null && (
        <button type="button" className="btn btn-ghost comment-older" onClick={() => void loadOlder()} disabled={loadingOlder}>
          {loadingOlder ? 'Đang tải…' : 'Xem thêm bình luận'}
        </button>
      )}
    </section>
  );
}

/** Up to two letters of the name: the first word's and the last word's ('Người xem' → 'NX'). */
export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.charAt(0) ?? '';
  const last = words.length > 1 ? (words.at(-1)?.charAt(0) ?? '') : '';
  return (first + last).toLocaleUpperCase('vi') || '?';
}

/** A generated avatar: the name's initials on a colour picked by a hash of the name. */
function Avatar({ name }: { name: string }) {
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return (
    <span className="avatar" aria-hidden="true" style={{ backgroundColor: `hsl(${hash % 360} 45% 32%)` }}>
      {initials(name)}
    </span>
  );
}

/** A spoiler's text, blurred until the reader taps "Hiện". */
function SpoilerText({ id, text }: { id: number; text: string }) {
  const [shown, setShown] = useState(false);
  if (shown) return <p className="comment-text">{text}</p>;
  return (
    <div className="comment-spoiler">
      <p className="comment-text spoiler-text" aria-hidden="true" data-spoiler={id}>
        {text}
      </p>
      <span className="spoiler-label">{MODERATION_TEXTS.spoilerLabel}</span>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        onClick={() => setShown(true)}
        aria-label={`${MODERATION_TEXTS.reveal}: ${MODERATION_TEXTS.spoilerLabel}`}
      >
        {MODERATION_TEXTS.reveal}
      </button>
    </div>
  );
}

const CommentItem = memo(function CommentItem({ node, thread }: { node: CommentDto; thread: ThreadContext }) {
  const [replying, setReplying] = useState(false);
  const [reporting, setReporting] = useState(false);
  const [reported, setReported] = useState(false);
  const [reply, setReply] = useState('');
  const [sending, setSending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    const sent = await thread.send(reply, node.id);
    setSending(false);
    if (sent) {
      setReply('');
      setReplying(false);
    }
  };
  const children = thread.children.get(node.id) ?? NO_REPLIES;
  const replies = children.length > 0 && (
    <ul className="comment-list replies">
      {children.map((r) => (
        <CommentItem key={r.id} node={r} thread={thread} />
      ))}
    </ul>
  );
  // Taken down, kept only for its replies: nothing of the comment itself.
  if (node.user_id === 0 && (node.state === 'removed' || node.state === 'hidden'))
    return (
      <li className="comment comment-gone" id={`comment-${node.id}`}>
        <div className="comment-body">
          <p className="comment-text muted">{node.state === 'removed' ? MODERATION_TEXTS.removed : MODERATION_TEXTS.hiddenByReports}</p>
          {replies}
        </div>
      </li>
    );
  const own = thread.viewerId !== 0 && node.user_id === thread.viewerId;
  const member = thread.viewerId !== 0;
  return (
    <li className={`comment${node.state ? ` comment-${node.state}` : ''}`} id={`comment-${node.id}`}>
      <Avatar name={node.users.username} />
      <div className="comment-body">
        <p className="comment-head">
          <strong>{node.users.username}</strong>
          <time dateTime={new Date(node.createdAt).toISOString()}>{formatDateTime(node.createdAt)}</time>
          {node.episode !== undefined && <span className="comment-episode">Tập {node.episode}</span>}
          {node.state === 'pending' && <span className="comment-badge">{MODERATION_TEXTS.pending}</span>}
        </p>
        {node.state === 'pending' && <p className="comment-state muted">{MODERATION_TEXTS.pendingNote}</p>}
        {node.state === 'removed' && (
          <p className="comment-state" role="status">
            {MODERATION_TEXTS.removedForAuthor(node.removal_reason ?? '')}
          </p>
        )}
        {node.spoiler ? <SpoilerText id={node.id} text={node.comment} /> : <p className="comment-text">{node.comment}</p>}
        <div className="comment-actions">
          <button type="button" className="link-button" onClick={() => setReplying((r) => !r)} aria-expanded={replying}>
            Reply
          </button>
          {member && !own && !node.state && (
            <>
              <button
                type="button"
                className="link-button"
                onClick={() => setReporting((r) => !r)}
                aria-expanded={reporting}
                disabled={reported}
              >
                {reported ? 'Đã báo cáo' : MODERATION_TEXTS.report}
              </button>
              <button type="button" className="link-button" onClick={() => thread.onHide(node.user_id, node.users.username)}>
                {MODERATION_TEXTS.hideAuthor}
              </button>
            </>
          )}
        </div>
        {reporting && (
          <ReportForm
            comment={node}
            slug={thread.slug}
            viewerId={thread.viewerId}
            onDone={(sent) => {
              setReporting(false);
              if (sent) setReported(true);
            }}
          />
        )}
        {replying && (
          <form className="comment-form reply-form" onSubmit={submit}>
            <label htmlFor={`reply-${node.id}`} className="visually-hidden">
              Trả lời {node.users.username}
            </label>
            <textarea
              id={`reply-${node.id}`}
              required
              rows={2}
              placeholder="Reply..."
              value={reply}
              onChange={(e) => setReply(e.target.value)}
              ref={focusOnMount}
            />
            <div className="form-actions">
              <button type="submit" className="btn btn-primary btn-sm" disabled={sending}>
                Reply
              </button>
              <button type="button" className="btn btn-ghost btn-sm" onClick={() => setReplying(false)}>
                Hủy
              </button>
            </div>
          </form>
        )}
        {replies}
      </div>
    </li>
  );
}, sameItem);

/** The same comment with the same replies all the way down (reused arrays), in the same thread: nothing to redraw. */
function sameSubtree(id: number, a: Map<number, CommentDto[]>, b: Map<number, CommentDto[]>): boolean {
  const before = a.get(id);
  if (before !== b.get(id)) return false;
  return (before ?? NO_REPLIES).every((c) => sameSubtree(c.id, a, b));
}

function sameItem(prev: { node: CommentDto; thread: ThreadContext }, next: { node: CommentDto; thread: ThreadContext }): boolean {
  return (
    prev.node === next.node &&
    prev.thread.slug === next.thread.slug &&
    prev.thread.viewerId === next.thread.viewerId &&
    prev.thread.wait === next.thread.wait &&
    sameSubtree(next.node.id, prev.thread.children, next.thread.children)
  );
}

/** "Báo cáo": a reason (and the reporter's words for "Khác"). */
function ReportForm({
  comment,
  slug,
  viewerId,
  onDone,
}: {
  comment: CommentDto;
  slug: string;
  viewerId: number;
  onDone: (sent: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState<CommentReportReason | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!reason) {
      setError('Vui lòng chọn lý do báo cáo');
      return;
    }
    if (reason === 'other' && !note.trim()) {
      setError(MODERATION_TEXTS.noteRequired);
      return;
    }
    setBusy(true);
    try {
      const res = await reportComment(comment.id, reason, reason === 'other' ? note.trim() : undefined);
      toast.success(res.message);
      // Hidden by this report: the room tells every page; this one need not wait for it.
      if (res.hidden) withdrawComment(queryClient, slug, { id: comment.id, state: 'hidden' }, viewerId);
      onDone(true);
    } catch (err) {
      setBusy(false);
      if (err instanceof SessionExpiredError) return onDone(false);
      const message = err instanceof Error ? err.message : String(err);
      setError(message);
      if (err instanceof ApiError && err.status === 409) onDone(true);
    }
  };
  const group = `report-${comment.id}`;
  return (
    <form className="comment-report" onSubmit={submit} aria-label={`${MODERATION_TEXTS.report}: ${comment.users.username}`}>
      <fieldset>
        <legend>Lý do báo cáo</legend>
        {COMMENT_REPORT_REASONS.map((r) => (
          <label key={r} className="form-check">
            <input type="radio" name={group} value={r} checked={reason === r} onChange={() => setReason(r)} />
            <span>{COMMENT_REPORT_REASON_TEXT[r]}</span>
          </label>
        ))}
      </fieldset>
      {reason === 'other' && (
        <>
          <label htmlFor={`${group}-note`} className="visually-hidden">
            Lý do khác
          </label>
          <textarea
            id={`${group}-note`}
            rows={2}
            maxLength={COMMENT_REPORT_NOTE_MAX}
            placeholder="Lý do khác..."
            value={note}
            onChange={(e) => setNote(e.target.value)}
          />
        </>
      )}
      {error && (
        <p className="form-error" role="alert">
          {error}
        </p>
      )}
      <div className="form-actions">
        <button type="submit" className="btn btn-primary btn-sm" disabled={busy}>
          Gửi báo cáo
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => onDone(false)}>
          Hủy
        </button>
      </div>
    </form>
  );
}
