// The watch parties' API (worker/routes/parties.ts): create a party, get a join token for its room.
import type { PartyRef, PartyTokenResponse } from '../../../../../worker/schemas/watch-party';
import { PARTY_ERRORS } from '../../../../../worker/schemas/watch-party';
import { api, ApiError, unwrap } from '../../../lib/api-client';
import { readHeaders } from '../../../lib/auth-request';

export type { PartyRef, PartyTokenResponse };
export { PARTY_ERRORS };

/** POST /api/parties: a signed-in member creates a party for this episode and server (the creator is the host). */
export async function createParty(slug: string, episode: number, server: string | undefined): Promise<PartyTokenResponse> {
  return unwrap(api.api.parties.$post({ json: { slug, episode, ...(server ? { server } : {}) } }, { headers: await readHeaders() }));
}

/** The party is over: its link offers the episode alone. */
export class PartyEnded extends ApiError {
  constructor(
    message: string,
    readonly party: Omit<PartyRef, 'id'> | undefined,
  ) {
    super(410, PARTY_ERRORS.ended, message);
  }
}

/** A visitor's name and identity, kept on this device so a reload or a reconnect is the same person. */
const GUEST_KEY = 'phimviet-watch-guest';
export interface GuestIdentity {
  name: string;
  guest?: string;
}
export function loadGuest(): GuestIdentity | null {
  try {
    const raw = JSON.parse(localStorage.getItem(GUEST_KEY) ?? 'null') as GuestIdentity | null;
    return raw && typeof raw.name === 'string' ? raw : null;
  } catch {
    return null;
  }
}
export function saveGuest(identity: GuestIdentity): void {
  try {
    localStorage.setItem(GUEST_KEY, JSON.stringify(identity));
  } catch {
    // private mode: the name is asked again next time
  }
}

/**
 * POST /api/parties/{id}/token: members join with their session, visitors with their display name. A 404,
 * 409 (full) or 503 throws ApiError with the API's Vietnamese message; a 410 throws PartyEnded.
 */
export async function joinParty(id: string, guest: GuestIdentity | null): Promise<PartyTokenResponse> {
  const res = await api.api.parties[':id'].token.$post(
    { param: { id }, json: guest ? { name: guest.name, ...(guest.guest ? { guest: guest.guest } : {}) } : {} },
    { headers: await readHeaders() },
  );
  if (res.status === 410) {
    const body = await res.json().catch(() => null);
    throw new PartyEnded(body?.error?.message ?? 'Phòng xem chung này đã kết thúc.', body?.party);
  }
  return unwrap(Promise.resolve(res as Exclude<typeof res, { status: 410 }>));
}
