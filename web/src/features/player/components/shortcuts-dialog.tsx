import { useEffect, useId, useRef } from 'react';
import { SHORTCUT_KEYS } from '../hooks/use-player-shortcuts';

interface Props {
  open: boolean;
  onClose: () => void;
}

/** "Phím tắt": the player's keys ("?" opens it; Esc or "Đóng" closes it, and no key acts on the player meanwhile). */
export function ShortcutsDialog({ open, onClose }: Props) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog ref={ref} className="dialog" aria-labelledby={`${id}-title`} onClose={onClose}>
      <div className="dialog-form">
        <h2 id={`${id}-title`}>Phím tắt</h2>
        <table className="shortcuts-table">
          <tbody>
            {SHORTCUT_KEYS.map(({ keys, does }) => (
              <tr key={keys}>
                <th scope="row">
                  {keys.split(', ').map((k, i) => (
                    <span key={k}>
                      {i > 0 && ' '}
                      <kbd>{k}</kbd>
                    </span>
                  ))}
                </th>
                <td>{does}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <div className="form-actions">
          <button type="button" className="btn btn-primary" onClick={onClose}>
            Đóng
          </button>
        </div>
      </div>
    </dialog>
  );
}
