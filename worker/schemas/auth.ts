// Wire contract of sign-up, sign-in and sessions: request bodies, answers, limits and the
// texts both the API and the web show. Pure zod + types: the web imports it.
import { z } from 'zod';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './values';

import { RECOVERY_MESSAGES } from './account-texts';
import { consentFieldSchema } from './privacy';

export { AUTH_MESSAGES, EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './values';
export { PASSKEY_MESSAGES, RECOVERY_MESSAGES } from './account-texts';

const required = { error: 'is required' };
export const emailSchema = z
  .string(required)
  .trim()
  .min(1, 'is required')
  .max(EMAIL_MAX_LENGTH, `must be at most ${EMAIL_MAX_LENGTH} characters`)
  .pipe(z.email({ error: RECOVERY_MESSAGES.invalidEmail }))
  .transform((e) => e.toLowerCase());
const email = emailSchema;
/** CR, LF and the other control characters: a name ends up in mail, where a line break would start a header. */
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;
/** A one-line text (a name, a passkey's label): trimmed, no control characters. */
export const oneLine = (max: number) =>
  z
    .string(required)
    .refine((v) => !CONTROL_CHARACTERS.test(v), RECOVERY_MESSAGES.lineBreak)
    .transform((v) => v.trim())
    .pipe(z.string().min(1, 'is required').max(max, `must be at most ${max} characters`));
export const passwordSchema = z
  .string(required)
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);
const name = oneLine(NAME_MAX_LENGTH);
const opaqueToken = z.string(required).trim().min(1, 'is required').max(512, 'is too long');

/** acceptPrivacy: the ticked "Chính sách bảo mật" box (docs/decisions/1050); anything but `true` is refused, naming it. */
export const registerBodySchema = z.object({ email, name, password: passwordSchema, acceptPrivacy: consentFieldSchema });
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
    /** A first Google sign-in creates an account: only with the privacy policy's box ticked. */
    acceptPrivacy: z.boolean({ error: 'must be true or false' }).optional(),
  })
  .transform((body, ctx) => {
    const remember = body.remember === true;
    if (body.googleToken)
      return { kind: 'google' as const, googleToken: body.googleToken, remember, acceptPrivacy: body.acceptPrivacy === true };
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

// ---- password reset and address verification (docs/decisions/0980) ----

/** POST /api/auth/forgot-password. */
export const forgotPasswordBodySchema = z.object({ email });
export type ForgotPasswordInput = z.infer<typeof forgotPasswordBodySchema>;

/** A mailed link's token as the page sends it back (the API says whether it is forged, used or expired). */
const linkToken = opaqueToken;

/** GET /api/auth/reset-password?token=: whether the link still works (the page asks before showing the form). */
export const resetTokenQuerySchema = z.object({ token: linkToken });

/** POST /api/auth/reset-password: the link's token and the new password (the sign-up rules). */
export const resetPasswordBodySchema = z.object({ token: linkToken, password: passwordSchema });
export type ResetPasswordInput = z.infer<typeof resetPasswordBodySchema>;

/** POST /api/auth/verify-email. */
export const verifyEmailBodySchema = z.object({ token: linkToken });

export interface ForgotPasswordResponse {
  ok: true;
  message: string;
}

/** GET /api/auth/forgot-password: whether this server can mail a reset link, else the hotline to call. */
export interface PasswordResetAvailability {
  available: boolean;
  hotline: string;
  /** When unavailable: the sentence the page shows instead of the form. */
  message: string | null;
}

export interface ResetTokenStatus {
  ok: true;
  /** The account's address, for the page (and password managers) to show whose password is being set. */
  email: string;
}

// ---- passkeys (WebAuthn) ----

const b64url = (max: number) =>
  z
    .string({ error: 'must be a base64url string' })
    .max(max, 'is too long')
    .regex(/^[A-Za-z0-9_-]*$/, 'must be a base64url string');

/** What both ceremonies' answers carry besides `response`: the credential's id (twice, as the spec has it), its type, extensions and attachment. */
const credentialFields = {
  id: b64url(1024).min(1, 'is required'),
  rawId: b64url(1024).min(1, 'is required'),
  type: z.literal('public-key', { error: 'must be public-key' }),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
};

/** A browser's answer to navigator.credentials.get() as @simplewebauthn/browser hands it over (AuthenticationResponseJSON). */
export const passkeyAssertionSchema = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: b64url(16_384).min(1, 'is required'),
    authenticatorData: b64url(16_384).min(1, 'is required'),
    signature: b64url(4096).min(1, 'is required'),
    userHandle: b64url(1024).optional(),
  }),
});

/** navigator.credentials.create()'s answer (RegistrationResponseJSON). */
export const passkeyAttestationSchema = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: b64url(16_384).min(1, 'is required'),
    attestationObject: b64url(32_768).min(1, 'is required'),
    authenticatorData: b64url(16_384).optional(),
    transports: z
      .array(z.enum(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']))
      .max(10)
      .optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4096).optional(),
  }),
});

/** POST /api/auth/passkey/login: the assertion for the challenge of /api/auth/passkey/options. */
export const passkeyLoginBodySchema = z.object({
  response: passkeyAssertionSchema,
  remember: z.boolean({ error: 'must be true or false' }).optional(),
});

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
