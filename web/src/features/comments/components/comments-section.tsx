import { useState, type FormEvent } from 'react';
import type { CommentDto } from '../../../../../worker/schemas/catalogue';
import { formatDateTime } from '../../../lib/format';
import { getSession } from '../../../lib/session';

export const LOGIN_TO_COMMENT = 'Bạn cần đăng nhập để có thể bình luận';

interface CommentsSectionProps {
  /** Film slug: the live room name and the film the comments belong to. */
  slug: string;
  comments: CommentDto[];
  /**
   * Sends a comment or a reply. Provided by the "Accounts" issue (POST /api/product/comment with
   * token refresh); without it a signed-in viewer sees the form but posting is not available yet.
   */
  onPost?: (text: string, parentId: number | null) => Promise<void>;
}

interface CommentNode extends CommentDto {
  replies: CommentNode[];
}

/** Top-level comments first (parent_id empty), replies nested under their parent (SPEC.md §2.5). */
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

/** Checks the session first: without one, the spec's alert and nothing is sent (SPEC.md §4). */
async function send(onPost: CommentsSectionProps['onPost'], text: string, parentId: number | null): Promise<boolean> {
  if (!getSession()) {
    window.alert(LOGIN_TO_COMMENT);
    return false;
  }
  if (!onPost) return false;
  try {
    await onPost(text, parentId);
    return true;
  } catch (error) {
    console.error('[comments] post failed', error);
    return false;
  }
}

export function CommentsSection({ slug, comments, onPost }: CommentsSectionProps) {
  const [text, setText] = useState('');
  const tree = buildCommentTree(comments);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await send(onPost, text, null)) setText('');
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
        <textarea id={`comment-input-${slug}`} required rows={3} placeholder="Để lại bình luận ..." value={text} onChange={(e) => setText(e.target.value)} />
        <button type="submit" className="btn btn-primary">
          Bình luận
        </button>
      </form>
      {tree.length === 0 ? (
        <p className="muted">Chưa có bình luận nào. Hãy là người đầu tiên!</p>
      ) : (
        <ul className="comment-list">
          {tree.map((node) => (
            <CommentItem key={node.id} node={node} onPost={onPost} />
          ))}
        </ul>
      )}
    </section>
  );
}

function Avatar({ name }: { name: string }) {
  // A stable colour per username; the initial on top.
  let hash = 0;
  for (const ch of name) hash = (hash * 31 + ch.codePointAt(0)!) >>> 0;
  return (
    <span className="avatar" aria-hidden="true" style={{ backgroundColor: `hsl(${hash % 360} 45% 32%)` }}>
      {name.trim().charAt(0).toUpperCase() || '?'}
    </span>
  );
}

function CommentItem({ node, onPost }: { node: CommentNode; onPost: CommentsSectionProps['onPost'] }) {
  const [replying, setReplying] = useState(false);
  const [reply, setReply] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await send(onPost, reply, node.id)) {
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
            <textarea id={`reply-${node.id}`} required rows={2} placeholder="Reply..." value={reply} onChange={(e) => setReply(e.target.value)} autoFocus />
            <div className="form-actions">
              <button type="submit" className="btn btn-primary btn-sm">
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
              <CommentItem key={r.id} node={r} onPost={onPost} />
            ))}
          </ul>
        )}
      </div>
    </li>
  );
}
