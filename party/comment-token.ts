// Member tokens of the comment rooms (issue 33): the API signs one for a signed-in member on every (re)connect
// (GET /api/product/{slug}/comments/token), the room reads who a socket is from it, to send a removal's reason to its
// author alone and to refuse a muted or banned member's socket with the reason. A socket without a token is a reader
// like any other; the token only ever adds what is personal.
import { COMMENT_TOKEN_AUDIENCE, COMMENT_TOKEN_TTL_SECONDS } from './messages';
import { signRoomToken, verifyRoomToken } from './room-token';

export interface CommentTokenClaims {
  /** The member's account id. */
  userId: number;
  /** The film room it is for. */
  room: string;
  /** Set while the member is muted or banned: the room refuses the socket with it. */
  refused?: string;
}

export function signCommentToken(secret: string, claims: CommentTokenClaims, now: number) {
  return signRoomToken(
    secret,
    {
      audience: COMMENT_TOKEN_AUDIENCE,
      sub: `u:${claims.userId}`,
      ttlSeconds: COMMENT_TOKEN_TTL_SECONDS,
      claims: { room: claims.room, ...(claims.refused ? { refused: claims.refused } : {}) },
    },
    now,
  );
}

export async function verifyCommentToken(
  secret: unknown,
  token: string | null,
  room: string,
  now: number,
): Promise<CommentTokenClaims | null> {
  const payload = await verifyRoomToken(secret, token, COMMENT_TOKEN_AUDIENCE, now);
  const id = /^u:(\d{1,15})$/.exec(payload?.sub ?? '');
  if (!payload || !id || payload.room !== room) return null;
  const refused = typeof payload.refused === 'string' && payload.refused.length > 0 ? payload.refused.slice(0, 1000) : undefined;
  return { userId: Number(id[1]), room, ...(refused ? { refused } : {}) };
}
