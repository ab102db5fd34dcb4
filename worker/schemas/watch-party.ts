// Wire contract of the watch parties' API (issue 28): create a party, get a join token. The room's own
// messages are in party/watch-messages.ts.
import { z } from 'zod';
import { PARTY_ID_PATTERN } from './values';

export { PARTY_ID_PATTERN, WATCH_NAME_MAX, WATCH_NAME_MIN } from './values';

export const createPartyBodySchema = z.object({
  slug: z.string({ error: 'is required' }).trim().min(1, 'is required').max(200, 'is too long'),
  episode: z.number({ error: 'must be an episode number' }).int('must be an episode number').min(0).max(100_000),
  /** The server (by name); absent means the first that has the episode. */
  server: z.string().trim().min(1).max(100).optional(),
});
export type CreatePartyBody = z.infer<typeof createPartyBodySchema>;

export const partyParamSchema = z.object({
  id: z.string().regex(PARTY_ID_PATTERN, 'không phải mã phòng xem chung'),
});

/** A visitor's chosen name (members join with their account's name); `guest` keeps a visitor's identity across reconnects. */
export const joinPartyBodySchema = z.object({
  name: z.string().max(200, 'is too long').optional(),
  guest: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,40}$/)
    .optional(),
});
export type JoinPartyBody = z.infer<typeof joinPartyBodySchema>;

export interface PartyRef {
  id: string;
  film: { slug: string; title: string };
  episode: number;
  server: string;
}

/** Both answers: the token for the room's socket (query `token`), short-lived: ask again on every reconnect. */
export interface PartyTokenResponse {
  token: string;
  expiresAt: number;
  name: string;
  /** A visitor's identity, sent back as `guest` on the next token request. */
  guest?: string;
  party: PartyRef;
}

export const PARTY_ERRORS = {
  notFound: 'party_not_found',
  ended: 'party_ended',
  full: 'party_full',
  unavailable: 'party_unavailable',
} as const;
