// Wire contract of sign-up, sign-in and sessions: request bodies, answers, limits and the
// texts both the API and the web show. Pure zod + types: the web imports it.
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './values';

export { AUTH_MESSAGES, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './values';

const required = { error: 'is required' };
const email = z
  .string(required)
  .trim()
  .min(1, 'is required')
  .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email({ error: 'must be a valid email address' }))
  .transform((e) => e.toLowerCase());
export const passwordSchema = z
  .string(required)
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
const name = z.string(required).trim().min(1, 'is required').max(NAME_MAX_LENGTH, `must be at most ${NAME_MAX_LENGTH} characters`);
const opaqueToken = z.string(required).trim().min(1, 'is required').max(512, 'is too long');

export const registerBodySchema = z.object({ email, name, password: passwordSchema });
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
    /** "Ghi nhớ đăng nhập": the refresh token goes into an HttpOnly cookie instead of the answer. */
    remember: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .transform((body, ctx) => {
    const remember = body.remember === true;
    if (body.googleToken) return { kind: 'google' as const, googleToken: body.googleToken, remember };
    const parsed = z
      .object({ email, password: z.string(required).min(1, 'is required').max(PASSWORD_MAX_LENGTH, 'is too long') })
      .safeParse(body);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path });
      return z.NEVER;
    }
    return { kind: 'password' as const, ...parsed.data, remember };
  });
export type LoginInput = z.infer<typeof loginBodySchema>;

/** POST /dang-xuat: { token } is the refresh token. */
export const refreshBodySchema = z.object({ token: opaqueToken });

/**
 * POST /refresh_token: { token } for a session kept in session storage; a remembered session sends no
 * token (the cookie carries it).
 */
export const refreshCallSchema = z.object({ token: opaqueToken.optional() });

/** What POST /dang-nhap answers; the web keeps it in session storage. */
export interface LoginResponse {
  token: string;
  /** Absent when the session is remembered: the refresh token is then in the HttpOnly cookie only. */
  refreshToken?: string;
  id: number;
  name: string;
  email: string;
  roles: string[];
  permissions: string[];
}

export interface RefreshResponse {
  tokennew: string;
  /** Absent when the refresh token came from, and went back into, the cookie. */
  refreshToken?: string;
}
