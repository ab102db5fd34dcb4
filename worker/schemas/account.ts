// Wire contract of the signed-in user's own account (GET /account, password change, sign out everywhere).
import { z } from 'zod';
import { emailSchema, oneLine, PASSWORD_MAX_LENGTH, passkeyAttestationSchema, passwordSchema } from './auth';
import type { AccountSubscription } from './vip';
import type { PendingDeletion } from './account-data';

export const changePasswordBodySchema = z.object({
  /** Required when the account has a password; a Google-only account sets its first one without it. */
  currentPassword: z.string().max(PASSWORD_MAX_LENGTH, 'is too long').optional(),
  newPassword: passwordSchema,
  /** The session is remembered: its fresh refresh token goes into the HttpOnly cookie, not the answer. */
  remember: z.boolean({ error: 'must be true or false' }).optional(),
});
export type ChangePasswordInput = z.infer<typeof changePasswordBodySchema>;

/** The signed-in user's own account (GET /account). Never carries the password hash. */
export interface AccountDto {
  id: number;
  email: string;
  name: string;
  roles: string[];
  permissions: string[];
  hasPassword: boolean;
  googleLinked: boolean;
  /** The address was proved by opening the mailed link (or comes from Google); false: "Chưa xác minh". */
  emailVerified: boolean;
  createdAt: number;
  /** "Tài khoản đang chờ xóa": the pending deletion, or null (docs/decisions/1041). */
  deletion: PendingDeletion | null;
}

/** GET /account: the account, the permissions the API applies (admin-granted ∪ active subscriptions) and the subscriptions. */
export interface AccountResponse extends AccountDto, AccountSubscription {}

/** POST /api/account/email: a new address; the current password when the account has one. */
export const changeEmailBodySchema = z.object({
  email: emailSchema,
  currentPassword: z.string().max(PASSWORD_MAX_LENGTH, 'is too long').optional(),
});
export type ChangeEmailInput = z.infer<typeof changeEmailBodySchema>;

/** A signed-in device: one refresh-token family (docs/decisions/0980). */
export interface DeviceDto {
  /** The family's id (not a secret: it signs nothing in). */
  id: string;
  /** "Chrome 130", "Safari 17"… from the User-Agent. */
  browser: string;
  /** "Android 14", "iOS 17.5", "Windows"… */
  os: string;
  /** Phone, tablet or computer. */
  kind: 'mobile' | 'tablet' | 'desktop';
  signedInAt: number;
  /** The device's latest sign-in or renewal of its session (every ≤ 15 minutes while in use). */
  lastActiveAt: number;
  /** The device that asked ("Thiết bị này"). */
  current: boolean;
}

export const PASSKEY_NAME_MAX_LENGTH = 60;
export const MAX_PASSKEYS = 20;

/** POST /api/account/passkeys: the authenticator's answer to the options of /api/account/passkeys/options, and a label. */
export const addPasskeyBodySchema = z.object({
  response: passkeyAttestationSchema,
  name: oneLine(PASSKEY_NAME_MAX_LENGTH).optional(),
});

export interface PasskeyDto {
  id: string;
  name: string;
  createdAt: number;
  lastUsedAt: number | null;
  /** Synced (multi-device, e.g. iCloud Keychain, Google Password Manager) or bound to one authenticator. */
  synced: boolean;
}
