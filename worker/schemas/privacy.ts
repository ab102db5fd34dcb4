// Wire contract of consent and of privacy requests: the zod schemas. The texts and tables of the privacy page are in
// privacy-texts.ts (re-exported here), which the web's first page imports without building these schemas.
import { z } from 'zod';
import { CONSENT_TEXTS, PRIVACY_REQUEST_KINDS, PRIVACY_REQUEST_MESSAGE_MAX } from './privacy-texts';
import { EMAIL_MAX_LENGTH } from './values';

export * from './privacy-texts';

/** The consent field: must be `true` (an unticked box, a missing field or `false` are all refused with the field named). */
export const consentFieldSchema = z.literal(true, { error: CONSENT_TEXTS.required });

/** POST /api/privacy/consent: accepts the version the member was shown. */
export const acceptConsentBodySchema = z.object({
  version: z.string({ error: 'is required' }).min(1, 'is required').max(40, 'is too long'),
});

/** POST /api/privacy/requests: signed in (the account's email is used) or signed out with an email. */
export const privacyRequestBodySchema = z.object({
  kind: z.enum(PRIVACY_REQUEST_KINDS, { error: `must be one of ${PRIVACY_REQUEST_KINDS.join(', ')}` }),
  email: z
    .string({ error: 'must be text' })
    .trim()
    .max(EMAIL_MAX_LENGTH, 'is too long')
    .pipe(z.union([z.literal(''), z.email({ error: 'is not an email address' })]))
    .optional(),
  message: z
    .string({ error: 'is required' })
    .trim()
    .min(1, 'is required')
    .max(PRIVACY_REQUEST_MESSAGE_MAX, `must be at most ${PRIVACY_REQUEST_MESSAGE_MAX} characters`),
});
export type PrivacyRequestInput = z.infer<typeof privacyRequestBodySchema>;

/** PATCH /api/admin/privacy-requests/{id}: moves it forward (mới → đã xác nhận → đã xử lý). */
export const privacyRequestStatusBodySchema = z.object({
  status: z.enum(['acknowledged', 'done'], { error: 'must be acknowledged or done' }),
});
