// Passkeys in the browser (@simplewebauthn/browser): signing in on /dang-nhap (the browser's autofill and the
// button) and adding one on /account. Loaded by those two pages only.
import {
  browserSupportsWebAuthn,
  browserSupportsWebAuthnAutofill,
  startAuthentication,
  startRegistration,
  WebAuthnAbortService,
  WebAuthnError,
} from '@simplewebauthn/browser';
import { queryOptions } from '@tanstack/react-query';
import { api, unwrap } from '../../../lib/api-client';
import { authedCall } from '../../../lib/auth-request';
import type { SignedIn } from '../../../lib/session';
import { keepSession } from './auth-api';

export { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill };

/** Ends a pending ceremony (the autofill request of a page being left). */
export const cancelPasskeyCeremony = () => WebAuthnAbortService.cancelCeremony();

/** The browser's own refusals, in the site's words. */
export const PASSKEY_CANCELLED = 'Đã hủy hoặc hết thời gian xác thực khóa đăng nhập.';
export const PASSKEY_UNSUPPORTED = 'Trình duyệt này không hỗ trợ khóa đăng nhập.';

/** A ceremony the person cancelled (or the autofill request replaced): nothing to say loudly. */
export function isPasskeyCancel(error: unknown): boolean {
  return (
    (error instanceof WebAuthnError && error.code === 'ERROR_CEREMONY_ABORTED') ||
    (error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError'))
  );
}

/**
 * What the browser's refusal (not a cancel) means, in the site's words, or undefined for anything else (a server
 * answer, the network). A page opened by an IP address (http://127.0.0.1:8787) cannot use a passkey at all:
 * browsers take only a domain as the relying party.
 */
export function passkeyRefusal(error: unknown): string | undefined {
  if (!(error instanceof WebAuthnError)) return undefined;
  switch (error.code) {
    case 'ERROR_INVALID_DOMAIN':
    case 'ERROR_INVALID_RP_ID':
      return `Khóa đăng nhập không dùng được khi mở trang bằng địa chỉ ${location.hostname}: hãy mở trang bằng tên miền của trang (khi chạy thử trên máy: localhost).`;
    case 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED':
      return 'Thiết bị này đã có khóa đăng nhập của tài khoản này.';
    case 'ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT':
    case 'ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT':
      return 'Thiết bị này không tạo được khóa đăng nhập cho trang.';
    default:
      return undefined;
  }
}

/**
 * Signs in with a passkey: the server's challenge, the browser's ceremony (the autofill list when
 * `autofill`, else the passkey sheet), then the session as a password sign-in keeps it.
 */
export async function signInWithPasskey(remember: () => boolean, autofill = false): Promise<SignedIn> {
  const optionsJSON = await unwrap(api.api.auth.passkey.options.$post());
  const response = await startAuthentication({ optionsJSON: optionsJSON as never, useBrowserAutofill: autofill });
  const keep = remember();
  const session = await unwrap(api.api.auth.passkey.login.$post({ json: { response: response as never, remember: keep } }));
  return keepSession(session, keep);
}

export const passkeysQuery = (userId: string) =>
  queryOptions({
    queryKey: ['passkeys', userId],
    queryFn: async () => (await unwrap(authedCall((headers) => api.api.account.passkeys.$get(undefined, { headers })))).data,
    staleTime: 0,
    retry: false,
  });

/** "Thêm khóa đăng nhập": the server's options, the browser's passkey sheet, the answer checked and kept. */
export async function addPasskey(name: string | undefined): Promise<string> {
  const optionsJSON = await unwrap(authedCall((headers) => api.api.account.passkeys.options.$post(undefined, { headers })));
  const response = await startRegistration({ optionsJSON: optionsJSON as never });
  const json = { response: response as never, ...(name ? { name } : {}) };
  return (await unwrap(authedCall((headers) => api.api.account.passkeys.$post({ json }, { headers })))).message;
}

export async function removePasskey(id: string): Promise<string> {
  return (await unwrap(authedCall((headers) => api.api.account.passkeys[':id'].$delete({ param: { id } }, { headers })))).message;
}
