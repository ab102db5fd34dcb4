import { useEffect, useState } from 'react';
import { toast } from '../../../lib/toast';
import { currentSubscription, disablePush, enablePush, PUSH_TEXTS, pushSupported } from '../api/push';

/** "Thông báo tập mới" on this device: permission is asked only when the member turns it on. */
export function PushSwitch() {
  const [on, setOn] = useState(false);
  const [busy, setBusy] = useState(false);
  const [supported, setSupported] = useState(true);
  useEffect(() => {
    setSupported(pushSupported());
    void currentSubscription()
      .then((sub) => setOn(!!sub && Notification.permission === 'granted'))
      .catch(() => undefined);
  }, []);
  const change = async (next: boolean) => {
    setBusy(true);
    try {
      if (next) await enablePush();
      else await disablePush();
      setOn(next);
      toast(next ? PUSH_TEXTS.on : PUSH_TEXTS.off, { id: 'push-switch' });
    } catch (error) {
      toast.error(error instanceof Error && error.message ? error.message : PUSH_TEXTS.failed, { id: 'push-switch' });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="push-switch-box">
      <label className="push-switch">
        <input
          type="checkbox"
          role="switch"
          aria-checked={on}
          checked={on}
          disabled={busy || !supported}
          onChange={(e) => void change(e.target.checked)}
        />
        <span>Thông báo khi phim trong Tủ phim có tập mới</span>
      </label>
      {!supported && <p className="library-note">{PUSH_TEXTS.unsupported}</p>}
    </div>
  );
}
