import { AUTH_MESSAGES } from '../../../../../worker/schemas/values';
import { api, unwrap } from '../../../lib/api-client';
import { getRefreshToken, isRemembered, setRemembered, signOut, storeSession, type SignedIn } from '../../../lib/session';

/** Texts of the sign-in and registration screens; the ones the API also answers live in the wire contract. */
export const LOGIN_FAILED = AUTH_MESSAGES.loginFailed;
export const LOGIN_ERROR = 'Đã xảy ra lỗi khi đăng nhập. Vui lòng thử lại sau.';
export const GOOGLE_LOGIN_FAILED = AUTH_MESSAGES.googleLoginFailed;
export const PASSWORD_MISMATCH = 'Passwords do not match. Please check your inputs.';
export const REGISTRATION_FAILED = 'Registration failed';
export const REGISTRATION_ERROR = 'An error occurred during registration';
export const LOGGED_OUT = 'Bạn đã đăng xuất thành công!';
export const LOGOUT_CONFIRM = 'Bạn có chắc chắn muốn đăng xuất?';

type Credentials = { email: string; password: string } | { googleToken: string; acceptPrivacy?: boolean };

/**
 * POST /api/dang-nhap; on 200 the answer is kept in session storage. `remember` ("Ghi nhớ đăng nhập"):
 * the API keeps the refresh token in its HttpOnly cookie instead, and this browser remembers that it has one.
 */
export async function signIn(credentials: Credentials, remember = false): Promise<SignedIn> {
  return keepSession(await unwrap(api.api['dang-nhap'].$post({ json: { ...credentials, remember } })), remember);
}

/** Keeps a sign-in's answer (password, Google or passkey) as this tab's session. */
export function keepSession(session: SignedIn, remember: boolean): SignedIn {
  setRemembered(remember);
  storeSession(session);
  return session;
}

/** POST /api/dang-ky: 201 creates the account (no tokens; the web signs in next). */
export async function register(input: { email: string; name: string; password: string; acceptPrivacy: boolean }): Promise<void> {
  // The box as ticked: an unticked one is sent as it is and the API names the field (400).
  await unwrap(api.api['dang-ky'].$post({ json: input as typeof input & { acceptPrivacy: true } }));
}

/**
 * Logout: the session is cleared at once and the API is told to revoke the refresh token's family in
 * the background (POST /api/dang-xuat; a remembered session's DELETE /api/refresh_token also removes
 * its cookie); a failed call changes nothing for the viewer (the tokens are gone from this tab, the
 * access token dies within 15 minutes).
 */
export function logout(): void {
  const refreshToken = getRefreshToken();
  const remembered = isRemembered();
  signOut();
  const warn = (error: unknown) => console.warn('[auth] logout call failed', error);
  if (remembered) api.api.refresh_token.$delete(undefined, { init: { keepalive: true } }).catch(warn);
  if (refreshToken) api.api['dang-xuat'].$post({ json: { token: refreshToken } }, { init: { keepalive: true } }).catch(warn);
}
