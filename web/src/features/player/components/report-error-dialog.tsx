import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { toast } from '../../../lib/toast';
import type { ViewerReportReason } from '../../../../../worker/schemas/error-reports';
import { REPORT_MESSAGE_MAX_LENGTH, REPORT_MESSAGES } from '../../../../../worker/schemas/values';
import { ApiError } from '../../../lib/api-client';
import { reportError } from '../api/episode-query';

/** Labels of the API's reasons; typed by them, so a new reason fails the build until labelled. */
const REASONS: Record<ViewerReportReason, string> = {
  'khong-phat-duoc': 'Không xem được video',
  'sai-tap': 'Sai tập phim',
  'am-thanh': 'Lỗi âm thanh',
  'phu-de': 'Lỗi phụ đề',
  khac: 'Khác',
};
const REASON_KEYS = Object.keys(REASONS) as ViewerReportReason[];

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
  const [reason, setReason] = useState<ViewerReportReason>('khong-phat-duoc');
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
      await reportError({ slug, episode, server_name: serverName || undefined, reason, message: message.trim() || undefined });
      toast.success('Cảm ơn bạn! Báo lỗi đã được gửi tới quản trị viên.');
      setMessage('');
      onClose();
    } catch (error) {
      const status = error instanceof ApiError ? error.status : 0;
      toast.error(status === 429 ? REPORT_MESSAGES.tooMany : `Không gửi được báo lỗi: ${(error as Error).message}`);
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
          {REASON_KEYS.map((r) => (
            <label key={r} className="radio">
              <input type="radio" name="reason" value={r} checked={reason === r} onChange={() => setReason(r)} />
              {REASONS[r]}
            </label>
          ))}
        </fieldset>
        <label htmlFor={`${id}-message`}>Mô tả thêm (không bắt buộc)</label>
        <textarea
          id={`${id}-message`}
          rows={3}
          maxLength={REPORT_MESSAGE_MAX_LENGTH}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
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
