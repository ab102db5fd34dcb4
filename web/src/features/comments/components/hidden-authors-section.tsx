import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MODERATION_TEXTS } from '../../../../../worker/schemas/values';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { fetchHiddenAuthors, unhideAuthor } from '../api/comments-api';

const QUERY_KEY = ['me', 'hidden-authors'] as const;

/**
 * "Ẩn bình luận của người này", the account setting (/account): the members whose comments this member hid from every
 * device, each with "Bỏ ẩn". Members are hidden from a comment's own actions (comments-section.tsx).
 */
export function HiddenAuthorsSection() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: QUERY_KEY, queryFn: fetchHiddenAuthors });
  const unhide = useMutation({
    mutationFn: (id: number) => unhideAuthor(id),
    onSuccess: (res) => {
      toast.success(res.message);
      void queryClient.invalidateQueries({ queryKey: QUERY_KEY });
      // The film pages read comments per viewer: the hidden member's comments come back on their next read.
      void queryClient.invalidateQueries({ queryKey: ['film'] });
    },
    onError: (error) => toast.error(error instanceof Error ? error.message : String(error)),
  });
  const data = list.data?.data ?? [];
  return (
    <section className="container account-hidden-authors" aria-labelledby="hidden-authors-heading">
      <h2 id="hidden-authors-heading" className="section-title">
        {MODERATION_TEXTS.hideAuthor}
      </h2>
      <p className="muted">Bình luận của những thành viên này không hiện với bạn trên mọi thiết bị. Họ không được thông báo.</p>
      {list.isPending && <p className="muted">Loading...</p>}
      {list.isError && <p className="form-error">Không tải được danh sách.</p>}
      {list.isSuccess && data.length === 0 && <p className="muted">Bạn chưa ẩn bình luận của ai.</p>}
      {data.length > 0 && (
        <ul className="hidden-authors">
          {data.map((a) => (
            <li key={a.id}>
              <strong>{a.username}</strong> <span className="muted">từ {formatDateTime(a.hiddenAt)}</span>{' '}
              <button type="button" className="btn btn-ghost btn-sm" disabled={unhide.isPending} onClick={() => unhide.mutate(a.id)}>
                {MODERATION_TEXTS.unhideAuthor}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
