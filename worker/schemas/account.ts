// Wire contract of the signed-in user's own account (GET /account, password change, sign out everywhere).
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, passwordSchema } from './auth';
import type { AccountSubscription } from './vip';

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
  createdAt: number;
}

/** GET /account: the account, the permissions the API applies (admin-granted ∪ active subscriptions) and the subscriptions. */
export interface AccountResponse extends AccountDto, AccountSubscription {}
