import type { Config } from '../../config';
import type { Db } from '../../db/client';
import type { Viewer } from '../../lib/context';
import { ApiError, badRequest } from '../../lib/errors';
import type { CreatePartyBody, JoinPartyBody, PartyRef, PartyTokenResponse } from '../../schemas/watch-party';
import { PARTY_ERRORS, WATCH_NAME_MAX, WATCH_NAME_MIN } from '../../schemas/watch-party';
import { PARTY_SECRET_HEADER } from '../../schemas/values';
import { cleanName, WATCH_MAX_MEMBERS, WATCH_PARTY, WATCH_TEXTS, type WatchCreate, watchInfoSchema } from '../../../party/watch-messages';
import { signWatchToken } from '../../../party/watch-token';
import { type FilmRecordCache, loadFilmDetail } from '../catalogue/detail';

const ROOM_TIMEOUT_MS = 3000;

export interface PartyDeps {
  config: Pick<Config, 'PARTYKIT_HOST' | 'PARTY_SECRET'>;
  fetch: typeof fetch;
  now: () => number;
}

function base64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** 128 random bits, base64url: 22 characters nobody can guess. */
export const newPartyId = () => base64url(crypto.getRandomValues(new Uint8Array(16)));

const roomUrl = (deps: PartyDeps, id: string) => `${deps.config.PARTYKIT_HOST.replace(/\/+$/, '')}/parties/${WATCH_PARTY}/${id}`;

const unavailable = () => new ApiError(503, PARTY_ERRORS.unavailable, 'Phòng xem chung tạm thời không hoạt động, vui lòng thử lại sau.');

/** A call to the party's room with the shared secret; a room that cannot be reached is a 503, never a 500. */
async function callRoom(deps: PartyDeps, id: string, init: { method: 'GET' | 'POST'; body?: unknown }): Promise<Response> {
  try {
    return await deps.fetch(roomUrl(deps, id), {
      method: init.method,
      headers: { 'content-type': 'application/json', [PARTY_SECRET_HEADER]: deps.config.PARTY_SECRET },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(ROOM_TIMEOUT_MS),
    });
  } catch (err) {
    console.warn('[watch-party] room unreachable', err instanceof Error ? err.message : err);
    throw unavailable();
  }
}

/** A member creates a party for an episode on a server: the room is made, the creator is its host. */
export async function createParty(
  deps: PartyDeps,
  db: Db,
  viewer: Viewer,
  input: CreatePartyBody,
  cache?: FilmRecordCache,
): Promise<PartyTokenResponse> {
  const { detail } = await loadFilmDetail(db, { slug: input.slug }, viewer, cache);
  const servers = detail.servers
    .map((s) => ({ name: s.server_name, episodes: [...new Set(s.linkfilms.map((e) => e.episode))] }))
    .filter((s) => s.episodes.length > 0)
    .slice(0, 20);
  const server = input.server ? servers.find((s) => s.name === input.server) : servers.find((s) => s.episodes.includes(input.episode));
  if (!server) throw input.server ? badRequest('server', 'phim không có server này') : badRequest('episode', 'phim không có tập này');
  if (!server.episodes.includes(input.episode)) throw badRequest('episode', 'server này không có tập này');
  const id = newPartyId();
  const name = cleanName(viewer.name).slice(0, WATCH_NAME_MAX) || 'Thành viên';
  const sub = `u:${viewer.id}`;
  const create: WatchCreate = {
    type: 'create',
    film: { slug: detail.slug, title: detail.title },
    episode: input.episode,
    server: server.name,
    servers,
    host: { sub, name },
  };
  const res = await callRoom(deps, id, { method: 'POST', body: create });
  await res.body?.cancel().catch(() => undefined);
  if (res.status !== 201) {
    console.warn('[watch-party] room refused the creation:', res.status);
    throw unavailable();
  }
  const party: PartyRef = { id, film: create.film, episode: input.episode, server: server.name };
  const { token, expiresAt } = await signWatchToken(deps.config.PARTY_SECRET, { sub, name, party: id, signedIn: true }, deps.now());
  return { token, expiresAt, name, party };
}

/** Thrown when a party is over: carries the episode so the page can offer it alone. */
export class PartyEndedError extends ApiError {
  constructor(readonly party: Omit<PartyRef, 'id'>) {
    super(410, PARTY_ERRORS.ended, WATCH_TEXTS.ended);
  }
}

/**
 * A join token for anyone with the party's id: a member joins under their account's name, a visitor with
 * the display name they chose (1–32 characters once trimmed). The room must exist, be open and have room.
 */
export async function joinParty(deps: PartyDeps, viewer: Viewer | null, id: string, input: JoinPartyBody): Promise<PartyTokenResponse> {
  const res = await callRoom(deps, id, { method: 'GET' });
  let info: ReturnType<typeof watchInfoSchema.parse> | null = null;
  if (res.ok) {
    const parsed = watchInfoSchema.safeParse(await res.json().catch(() => null));
    info = parsed.success ? parsed.data : null;
  } else await res.body?.cancel().catch(() => undefined);
  if (!info) throw unavailable();
  if (info.status === 'missing' || !info.film || info.episode === undefined || !info.server)
    throw new ApiError(404, PARTY_ERRORS.notFound, WATCH_TEXTS.notFound);
  if (info.status === 'ended') throw new PartyEndedError({ film: info.film, episode: info.episode, server: info.server });
  // The party is checked before the visitor's name: a link to a missing, ended or full party says so at once.
  let name: string;
  let sub: string;
  let guest: string | undefined;
  if (viewer) {
    name = cleanName(viewer.name).slice(0, WATCH_NAME_MAX) || 'Thành viên';
    sub = `u:${viewer.id}`;
  } else {
    name = cleanName(input.name ?? '');
    const length = [...name].length;
    guest = input.guest ?? base64url(crypto.getRandomValues(new Uint8Array(16)));
    sub = `g:${guest}`;
    if ((length < WATCH_NAME_MIN || length > WATCH_NAME_MAX) && !(info.members >= WATCH_MAX_MEMBERS && !info.present.includes(sub)))
      throw badRequest('name', WATCH_TEXTS.nameRequired);
  }
  if (info.members >= WATCH_MAX_MEMBERS && !info.present.includes(sub)) throw new ApiError(409, PARTY_ERRORS.full, WATCH_TEXTS.full);
  const { token, expiresAt } = await signWatchToken(deps.config.PARTY_SECRET, { sub, name, party: id, signedIn: !!viewer }, deps.now());
  return {
    token,
    expiresAt,
    name,
    ...(guest ? { guest } : {}),
    party: { id, film: info.film, episode: info.episode, server: info.server },
  };
}
