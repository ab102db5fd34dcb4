import { queryOptions } from '@tanstack/react-query';
import type { PrivacyRequestInput } from '../../../../../worker/schemas/privacy';
import { api, unwrap } from '../../../lib/api-client';
import { authedCall } from '../../../lib/auth-request';
import { getSession } from '../../../lib/session';

/** GET /api/privacy/consent: whether the signed-in member has accepted the current privacy policy. */
export const consentQuery = (userId: string) =>
  queryOptions({
    queryKey: ['privacy-consent', userId],
    queryFn: () => unwrap(authedCall((headers) => api.api.privacy.consent.$get(undefined, { headers }))),
    staleTime: 10 * 60_000,
    retry: false,
  });

/** POST /api/privacy/consent: the member accepted the version they were shown. */
export const acceptConsent = (version: string) =>
  unwrap(authedCall((headers) => api.api.privacy.consent.$post({ json: { version } }, { headers })));

/** POST /api/privacy/requests: signed in, the account's address is used; signed out, the one typed. */
export const sendPrivacyRequest = (json: PrivacyRequestInput) =>
  getSession()
    ? unwrap(authedCall((headers) => api.api.privacy.requests.$post({ json }, { headers })))
    : unwrap(api.api.privacy.requests.$post({ json }));
