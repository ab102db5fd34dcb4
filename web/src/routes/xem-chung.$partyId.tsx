import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import { useCallback, useRef } from 'react';
import { VIP_MESSAGES } from '../../../worker/schemas/values';
import { filmQuery } from '../features/catalogue/api/catalogue-queries';
import { episodeQuery } from '../features/player/api/episode-query';
import { type PlayerHandle, VideoPlayer } from '../features/player/components/video-player';
import { type Joined, PartyGate, PartyRefused } from '../features/watch-party/components/party-gate';
import { PartyView } from '../features/watch-party/components/party-view';
import { usePartySync } from '../features/watch-party/hooks/use-party-sync';
import { useWatchRoom } from '../features/watch-party/hooks/use-watch-room';
import { isNetworkError } from '../lib/api-client';
import { vipBlockOf } from '../lib/vip-gate';

/**
 * "Xem chung" (issue 28): one episode on several screens in step. The route composes the watch party (room,
 * sync, members, chat) with the player feature's own player and episode link: each screen asks for the link
 * with its own session (a VIP-only film plays only for those with the right; the party never hands out links).
 */
export const Route = createFileRoute('/xem-chung/$partyId')({
  component: function PartyRoute() {
    const { partyId } = Route.useParams();
    return (
      <PartyGate key={partyId} partyId={partyId}>
        {(joined) => <PartyScreen partyId={partyId} joined={joined} />}
      </PartyGate>
    );
  },
});

function PartyScreen({ partyId, joined }: { partyId: string; joined: Joined }) {
  const room = useWatchRoom(partyId, joined.first, joined.guest);
  const snap = room.snapshot;
  const slug = snap?.film.slug ?? joined.first.party.film.slug;
  const episode = snap?.timeline.episode ?? joined.first.party.episode;
  const server = snap?.timeline.server ?? joined.first.party.server;
  const film = useQuery(filmQuery(slug));
  const ep = useQuery({ ...episodeQuery(slug, episode, server), enabled: !!snap });
  const player = useRef<PlayerHandle>(null);
  const getMedia = useCallback(() => player.current?.media ?? null, []);
  const me = snap?.members.find((m) => m.id === room.you);
  const sync = usePartySync(room, getMedia, !!me?.control);

  if (room.fatal) return <PartyRefused refusal={room.fatal} />;
  const blocked = vipBlockOf(film.data, ep.error);
  const link = ep.data?.data;
  const title = `${snap?.film.title ?? joined.first.party.film.title} - Tập ${episode}`;
  const playerNode = blocked ? (
    <div className="player-box">
      <p className="player-message" role="alert">
        {VIP_MESSAGES[blocked]} Phòng xem chung không chia sẻ link phim: mỗi người xem bằng tài khoản của mình.{' '}
        <Link to="/dang-ky-goi-vip">Xem các gói VIP</Link>
      </p>
    </div>
  ) : ep.error ? (
    <div className="player-box">
      <p className="player-message player-error" role="alert">
        {isNetworkError(ep.error) ? 'Bạn đang ngoại tuyến: cần kết nối mạng để xem chung.' : `Error: ${ep.error.message}`}
      </p>
    </div>
  ) : (
    <VideoPlayer
      key={`${slug}-${episode}-${server}`}
      ref={player}
      m3u8={link?.link_m3u8}
      embed={link?.link_embed ?? ''}
      title={title}
      filmTitle={snap?.film.title ?? ''}
      poster={film.data?.datafilm.thumb || undefined}
      prepare
    />
  );
  return <PartyView partyId={partyId} room={room} sync={sync} film={film.data?.datafilm} player={playerNode} />;
}
