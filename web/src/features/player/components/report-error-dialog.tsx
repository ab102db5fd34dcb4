import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast';
import { reportError } from '../api/episode-query';

const REASONS = ['Không xem được video', 'Video giật, tải chậm', 'Sai tập phim', 'Lỗi phụ đề hoặc âm thanh', 'Khác'];

interface Props {
  open: boolean;
  onClose: () => void;
  slug: string;
  episode: number;
  serverName: string;
}

/** 'Báo lỗi': a modal form whose report is stored for the admins (rate limited by the API). */
export function ReportErrorDialog({ open, onClose, slug, episode, serverName }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  const [reason, setReason] = useState(REASONS[0]!);
  const [message, setMessage] = useState('');
  const [sending, setSending] = useState(false);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setSending(true);
    try {
      await reportError({ slug, episode, server_name: serverName, reason, message: message.trim() });
      toast.success('Cảm ơn bạn! Báo lỗi đã được gửi tới quản trị viên.');
      setMessage('');
      onClose();
    } catch (error) {
      const status = (error as { status?: number }).status;
      toast.error(status === 429 ? 'Bạn đã gửi quá nhiều báo lỗi. Vui lòng thử lại sau ít phút.' : `Không gửi được báo lỗi: ${(error as Error).message}`);
    } finally {
      setSending(false);
    }
  };

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={`${id}-title`} onClose={onClose}>
      <form onSubmit={submit} className="dialog-form">
        <h2 id={`${id}-title`}>Báo lỗi tập {episode}</h2>
        <fieldset>
          <legend>Lỗi gặp phải</legend>
          {REASONS.map((r) => (
            <label key={r} className="radio">
              <input type="radio" name="reason" value={r} checked={reason === r} onChange={() => setReason(r)} />
              {r}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${id}-message`}>Mô tả thêm (không bắt buộc)</label>
        <textarea id={`${id}-message`} rows={3} maxLength={500} value={message} onChange={(e) => setMessage(e.target.value)} />
        <div className="form-actions">
          <button type="submit" className="btn btn-primary" disabled={sending}>
            {sending ? 'Đang gửi...' : 'Gửi báo lỗi'}
          </button>
          <button type="button" className="btn btn-ghost" onClick={onClose}>
            Hủy
          </button>
        </div>
      </form>
    </dialog>
  );
}
