// Web Push for new episodes: the browser's subscription, made with the server's VAPID key and stored
// in the account. Permission is asked only when the member turns the switch on.
import { api, unwrap } from '../../../lib/api-client';
import { authedCall } from '../../../lib/auth-request';

export const PUSH_TEXTS = {
  unsupported: 'Trình duyệt này không hỗ trợ thông báo đẩy (trên iPhone: hãy thêm PhimViet vào Màn hình chính trước).',
  denied: 'Bạn đã chặn thông báo của PhimViet: hãy cho phép lại trong cài đặt của trình duyệt.',
  on: 'Đã bật thông báo tập mới.',
  off: 'Đã tắt thông báo tập mới.',
  failed: 'Chưa bật được thông báo, vui lòng thử lại.',
} as const;

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

async function registration(): Promise<ServiceWorkerRegistration | undefined> {
  if (!pushSupported()) return undefined;
  return (await navigator.serviceWorker.getRegistration()) ?? undefined;
}

/** The browser's current subscription, if this device receives the member's notifications. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await registration();
  return (await reg?.pushManager.getSubscription()) ?? null;
}

const toBytes = (b64url: string) => {
  const raw = atob(b64url.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
};

/** Asks permission (from the member's tap), subscribes with the server's key and stores the subscription. */
export async function enablePush(): Promise<void> {
  if (!pushSupported()) throw new Error(PUSH_TEXTS.unsupported);
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error(PUSH_TEXTS.denied);
  const { key } = await unwrap(api.api.push['public-key'].$get());
  const reg = await navigator.serviceWorker.ready;
  let sub = await reg.pushManager.getSubscription();
  // A subscription made with another key (a new VAPID pair) cannot be used: make a new one.
  const current = sub?.options.applicationServerKey;
  if (
    sub &&
    current &&
    btoa(String.fromCharCode(...new Uint8Array(current)))
      .replace(/\+/g, '-')
      .replace(/\//g, '_')
      .replace(/=+$/, '') !== key
  ) {
    await sub.unsubscribe();
    sub = null;
  }
  sub ??= await reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: toBytes(key) });
  const json = sub.toJSON();
  await unwrap(
    authedCall((headers) =>
      api.api.me['push-subscriptions'].$post(
        { json: { endpoint: json.endpoint ?? sub.endpoint, keys: { p256dh: json.keys?.p256dh ?? '', auth: json.keys?.auth ?? '' } } },
        { headers },
      ),
    ),
  );
}

/** Stops notifications on this device: the account forgets the subscription, the browser drops it. */
export async function disablePush(): Promise<void> {
  const sub = await currentSubscription();
  if (!sub) return;
  await unwrap(authedCall((headers) => api.api.me['push-subscriptions'].$delete({ json: { endpoint: sub.endpoint } }, { headers })));
  await sub.unsubscribe();
}
