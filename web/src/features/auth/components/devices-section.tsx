import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { DeviceDto } from '../../../../../worker/schemas/account';
import { SessionExpiredError } from '../../../lib/auth-request';
import { formatDateTime } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { devicesQuery, signOutDevice, signOutOtherDevices } from '../api/account-api';
import { serverErrors } from '../forms/form-kit';

const KIND: Record<DeviceDto['kind'], string> = { mobile: 'Điện thoại', tablet: 'Máy tính bảng', desktop: 'Máy tính' };

/**
 * The signed-in devices (one per sign-in), this one first ("Thiết bị này"); "Đăng xuất" on any of them, and
 * "Đăng xuất khỏi các thiết bị khác". A device signed out here stops at once (its refresh token and its
 * access token).
 */
export function DevicesSection({ userId }: { userId: string }) {
  const queryClient = useQueryClient();
  const devices = useQuery(devicesQuery(userId));
  const [busy, setBusy] = useState<string | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['devices', userId] });
  const fail = (err: unknown) => {
    if (!(err instanceof SessionExpiredError)) toast.error(serverErrors(err, []).form ?? '');
  };

  const signOut = async (device: DeviceDto) => {
    setBusy(device.id);
    try {
      const result = await signOutDevice(device.id);
      toast.success(result.message);
      if (!result.current) await refresh();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(null);
    }
  };
  const signOutOthers = async () => {
    setBusy('others');
    try {
      toast.success(await signOutOtherDevices());
      await refresh();
    } catch (err) {
      fail(err);
    } finally {
      setBusy(null);
    }
  };

  const list = devices.data ?? [];
  return (
    <section className="auth-card account-card" aria-labelledby="devices-heading" data-testid="devices">
      <h2 id="devices-heading" className="section-title">
        Thiết bị đang đăng nhập
      </h2>
      {devices.error && !(devices.error instanceof SessionExpiredError) && (
        <p className="form-error" role="alert">
          Không tải được danh sách thiết bị.
        </p>
      )}
      {!devices.data && !devices.error && <p className="muted">Đang tải...</p>}
      <ul className="item-list">
        {list.map((device) => (
          <li key={device.id} data-testid="device" data-current={device.current || undefined}>
            <span className="item-main">
              <span className="item-title">
                {device.browser} · {device.os}
                {device.current && <span className="status-badge is-ok">Thiết bị này</span>}
              </span>
              <span className="item-meta">
                {KIND[device.kind]} · hoạt động lúc {formatDateTime(device.lastActiveAt)} · đăng nhập lúc{' '}
                {formatDateTime(device.signedInAt)}
              </span>
            </span>
            <button
              type="button"
              className="btn btn-ghost btn-sm"
              onClick={() => void signOut(device)}
              disabled={busy !== null}
              aria-label={`Đăng xuất ${device.current ? 'thiết bị này' : `${device.browser} trên ${device.os}`}`}
            >
              Đăng xuất
            </button>
          </li>
        ))}
      </ul>
      {list.some((d) => !d.current) && (
        <button type="button" className="btn btn-ghost" onClick={() => void signOutOthers()} disabled={busy !== null}>
          Đăng xuất khỏi các thiết bị khác
        </button>
      )}
    </section>
  );
}
