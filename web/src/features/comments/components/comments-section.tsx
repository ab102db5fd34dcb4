import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { CommentDto } from '../../../../../worker/schemas/comments';
import { ApiError } from '../../../lib/api-client';
import { SessionExpiredError } from '../../../lib/auth-request';
import { formatDateTime } from '../../../lib/format';
import { reportError } from '../../../lib/report-error';
import { getSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { mergeComments, postComment } from '../api/comments-api';
import { useLiveComments } from '../hooks/use-live-comments';

export const LOGIN_TO_COMMENT = 'Bạn cần đăng nhập để có thể bình luận';

interface CommentsSectionProps {
  /** Film slug: the live room name and the film the comments belong to. */
  slug: string;
  comments: CommentDto[];
}

interface CommentNode extends CommentDto {
  replies: CommentNode[];
}

/** Top-level comments first (parent_id empty), replies nested under their parent. */
/** The reply box takes the focus when it opens (a stable ref callback runs once per mount). */
const focusOnMount = (el: HTMLTextAreaElement | null) => el?.focus();

export function buildCommentTree(comments: CommentDto[]): CommentNode[] {
  const nodes = new Map<number, CommentNode>(comments.map((c) => [c.id, { ...c, replies: [] }]));
  const roots: CommentNode[] = [];
  for (const node of nodes.values()) {
    const parent = node.parent_id != null ? nodes.get(node.parent_id) : undefined;
    if (parent) parent.replies.push(node);
    else roots.push(node);
  }
  return roots;
}

type Send = (text: string, parentId: number | null) => Promise<boolean>;

/**
 * Sends a comment or a reply: without a session the spec's alert and nothing is sent;
 * the stored comment joins the list at once (the live room's copy of it is then a duplicate).
 * Too many comments shows the server's message; other failures are logged only; an expired session has
 * been told already.
 */
function useSend(slug: string, queryClient: QueryClient): Send {
  return async (text, parentId) => {
    if (!getSession()) {
      window.alert(LOGIN_TO_COMMENT);
      return false;
    }
    try {
      mergeComments(queryClient, slug, [await postComment(slug, text, parentId)]);
      return true;
    } catch (error) {
      // The server's rate-limit text ('Bạn bình luận quá nhanh…') is for the viewer; other failures are
      // logged only (the spec), and an expired session has been told already.
      if (error instanceof ApiError && error.status === 429) toast.error(error.message);
      else if (!(error instanceof SessionExpiredError)) reportError('comments', error);
      return false;
    }
  };
}

export function CommentsSection({ slug, comments }: CommentsSectionProps) {
  const [text, setText] = useState('');
  const [sending, setSending] = useState(false);
  const send = useSend(slug, useQueryClient());
  useLiveComments(slug);
  const tree = buildCommentTree(comments);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    if (await send(text, null)) setText('');
    setSending(false);
  };

  return (
    <section className="comments" aria-labelledby={`comments-${slug}`} data-film={slug}>
      <h2 id={`comments-${slug}`} className="section-title">
        Bình luận ({comments.length})
      </h2>
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
        <button type="submit" className="btn btn-primary" disabled={sending}>
          Bình luận
        </button>
      </form>
      {tree.length === 0 ? (
        <p className="muted">Chưa có bình luận nào. Hãy là người đầu tiên!</p>
      ) : (
        <ul className="comment-list">
          {tree.map((node) => (
            <CommentItem key={node.id} node={node} send={send} />
          ))}
        </ul>
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

function CommentItem({ node, send }: { node: CommentNode; send: Send }) {
  const [replying, setReplying] = useState(false);
  const [reply, setReply] = useState('');
  const [sending, setSending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    const sent = await send(reply, node.id);
    setSending(false);
    if (sent) {
      setReply('');
      setReplying(false);
    }
  };
  return (
    <li className="comment" id={`comment-${node.id}`}>
      <Avatar name={node.users.username} />
      <div className="comment-body">
        <p className="comment-head">
          <strong>{node.users.username}</strong>
          <time dateTime={new Date(node.createdAt).toISOString()}>{formatDateTime(node.createdAt)}</time>
        </p>
        <p className="comment-text">{node.comment}</p>
        <button type="button" className="link-button" onClick={() => setReplying((r) => !r)} aria-expanded={replying}>
          Reply
        </button>
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
        {node.replies.length > 0 && (
          <ul className="comment-list replies">
            {node.replies.map((r) => (
              <CommentItem key={r.id} node={r} send={send} />
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}
