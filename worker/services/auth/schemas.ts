// Request bodies and response shapes of the account endpoints (SPEC.md §7.3). Pure zod + types.
import { z } from 'zod';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './password';

const required = { error: 'is required' };
const email = z
  .string(required)
  .trim()
  .min(1, 'is required')
  .max(254, 'must be at most 254 characters')
  .pipe(z.email({ error: 'must be a valid email address' }))
  .transform((e) => e.toLowerCase());
const password = z
  .string(required)
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
const name = z.string(required).trim().min(1, 'is required').max(60, 'must be at most 60 characters');
const opaqueToken = z.string(required).trim().min(1, 'is required').max(512, 'is too long');

export const registerBodySchema = z.object({ email, name, password });
export type RegisterInput = z.infer<typeof registerBodySchema>;

/**
 * Either email + password, or googleToken (the Sign in with Google credential). The legacy client
 * sends all three keys, so empty strings count as absent.
 */
export const loginBodySchema = z
  .object({
    email: z.unknown().optional(),
    password: z.unknown().optional(),
    googleToken: z.preprocess(
      (v) => (v === '' || v === null ? undefined : v),
      z.string({ error: 'must be a string' }).max(4096, 'is too long').optional(),
    ),
  })
  .transform((body, ctx) => {
    if (body.googleToken) return { kind: 'google' as const, googleToken: body.googleToken };
    const parsed = z
      .object({ email, password: z.string(required).min(1, 'is required').max(PASSWORD_MAX_LENGTH, 'is too long') })
      .safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return { kind: 'password' as const, ...parsed.data };
  });
export type LoginInput = z.infer<typeof loginBodySchema>;

/** POST /refresh_token and /dang-xuat: { token } is the refresh token. */
export const refreshBodySchema = z.object({ token: opaqueToken });

export const changePasswordBodySchema = z.object({
  /** Required when the account has a password; a Google-only account sets its first one without it. */
  currentPassword: z.string().max(PASSWORD_MAX_LENGTH, 'is too long').optional(),
  newPassword: password,
});
export type ChangePasswordInput = z.infer<typeof changePasswordBodySchema>;

/** What POST /dang-nhap answers; the web stores these in session storage (SPEC.md §3). */
export interface LoginResponse {
  token: string;
  refreshToken: string;
  id: number;
  name: string;
  email: string;
  roles: string[];
  permissions: string[];
}

export interface RefreshResponse {
  tokennew: string;
  refreshToken: string;
}

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
