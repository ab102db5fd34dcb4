import { type UseQueryResult, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import { AUTO_SKIP_LABEL } from '../../../../../worker/schemas/segment-texts';
import { AUTO_REPORT_REASON, VIP_MESSAGES } from '../../../../../worker/schemas/values';
import { Breadcrumb } from '../../../components/film/breadcrumb';
import { EpisodeList } from '../../../components/film/episode-list';
import { SideFilmList } from '../../../components/film/side-film-list';
import { OfflinePage } from '../../../components/layout/offline-page';
import { isNetworkError } from '../../../lib/api-client';
import { offlineUrl, useDownloadedEpisodes } from '../../../lib/downloads/store';
import { useOnline } from '../../../lib/online';
import { consumePlayIntent, intendToPlay } from '../../../lib/play-intent';
import { resumePoint } from '../../../lib/resume-point';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { useVipGate, vipBlockOf } from '../../../lib/vip-gate';
import { getWatchEntry, saveWatchEntry, useWatchEntry } from '../../../lib/watch-history';
import { episodeQuery, reportError } from '../api/episode-query';
import { useLightsOff } from '../hooks/use-lights-off';
import { usePlayerFirst } from '../hooks/use-player-first';
import { usePlayerShortcuts } from '../hooks/use-player-shortcuts';
import { nextSource } from '../stream/failover';
import { startServer } from '../../../lib/start-server';
import { playCounterFor } from '../play-counter';
import { loadPlayerPrefs, savePlayerPrefs } from '../player-prefs';
import { SkipTracker } from '../skip-runs';
import { segmentsQuery, sendSkipReport } from '../api/segments-api';
import { SkipIntro, type SkipIntroHandle } from './skip-intro';
import { ReportErrorDialog } from './report-error-dialog';
import { ShortcutsDialog } from './shortcuts-dialog';
import { UpNext } from './up-next';
import { type PlayerHandle, type StreamFailure, VideoPlayer } from './video-player';

const SERVER_BUTTONS = 3;
/** With no network, the episode's link is asked again this often. */
const LINK_RETRY_MS = 5000;
/** The credits, until viewers taught where they start (issue 40 §7): the up-next card shows from this share on. */
const CREDITS_AT = 0.95;

/**
 * A dead stream moves by itself (DESIGN §17): to the next server that has this episode, at the same position,
 * then to the episode's embed link, then a message with "Thử lại" and "Báo lỗi". Kept per episode.
 */
interface Failover {
  /** `${slug}/${episode}` it belongs to. */
  key: string;
  /** Servers whose stream failed for this episode, in the order they failed. */
  failed: string[];
  /** Where the next server starts, and whether it plays at once. */
  at?: number;
  play?: boolean;
  mode: 'stream' | 'embed' | 'dead';
  embed?: string;
}

/** Why no video plays offline (episode links and video are never kept on the device); it loads again by itself online. */
export const WATCH_OFFLINE_MESSAGE = 'Bạn đang ngoại tuyến: cần kết nối mạng để phát video. Video sẽ tự tải lại khi có mạng.';

/** What the downloads feature adds under the player (composed in routes/): "Tải về" for this episode and server. */
export type DownloadSlot = (props: { film: FilmDetailResponse; episode: number; server: string; m3u8: string; embed: string }) => ReactNode;

/** The watch page: 'Loading...', 'Error: {message}', or the player with its controls. */
export function WatchPage({
  film,
  episode,
  server,
  comments,
  download,
  storedFilm,
  together,
}: {
  /** The film's detail query (routes/ owns the catalogue's query). */
  film: UseQueryResult<FilmDetailResponse>;
  episode: number;
  server?: string;
  comments: (data: FilmDetailResponse) => ReactNode;
  download?: DownloadSlot;
  /** The film's detail kept with its downloaded episodes: the page with no network (issue 26). */
  storedFilm?: FilmDetailResponse;
  /** "Xem chung" for this episode and server (the watch-party feature, given by the route). */
  together?: (at: { slug: string; episode: number; server: string | undefined }) => ReactNode;
}) {
  if (!film.data && storedFilm && (film.error || film.isPending)) {
    return <Watch data={storedFilm} episode={episode} server={server} comments={comments} download={download} />;
  }
  if (film.isPending) {
    return (
      <div className="container watch-state">
        <p className="loading-text" role="status">
          Loading...
        </p>
      </div>
    );
  }
  if (film.error && !film.data) {
    if (isNetworkError(film.error)) return <OfflinePage onRetry={() => void film.refetch()} />;
    return (
      <div className="container watch-state">
        <p role="alert">Error: {film.error.message}</p>
      </div>
    );
  }
  if (!film.data) return null;
  return <Watch data={film.data} episode={episode} server={server} comments={comments} download={download} together={together} />;
}

function Watch({
  data,
  episode,
  server,
  comments,
  download,
  together,
}: {
  data: FilmDetailResponse;
  episode: number;
  server?: string;
  comments: (data: FilmDetailResponse) => ReactNode;
  download?: DownloadSlot;
  together?: (at: { slug: string; episode: number; server: string | undefined }) => ReactNode;
}) {
  const film = data.datafilm;
  const navigate = useNavigate();
  const servers = film.servers.filter((s) => s.linkfilms.length > 0);
  const current = startServer(servers, server);
  const serverName = current?.server_name;
  // A flagged VIP film has no links to ask for: the gate below sends the viewer back.
  const flagged = vipBlockOf(data);
  // "Video sẽ tự tải lại khi có mạng": a link that failed for want of a network is asked again every few seconds, not
  // only on the `online` event (an app opened offline never fires it: its navigator.onLine stays true).
  const ep = useQuery({
    ...episodeQuery(film.slug, episode, serverName),
    enabled: !!current && !flagged,
    refetchInterval: (query) => (query.state.error && isNetworkError(query.state.error) ? LINK_RETRY_MS : false),
  });
  // The intro and credits viewers taught for this episode on this server (issue 40 §7): public, cached at the edge.
  const segments = useQuery({ ...segmentsQuery(film.slug, episode, serverName ?? ''), enabled: !!serverName && !flagged });
  // A downloaded copy of this episode plays from the device (online too), whatever the viewer's VIP today.
  const downloaded = useDownloadedEpisodes(film.slug);
  const copy = downloaded?.find((r) => r.episode === episode);
  const online = useOnline();
  const blocked = flagged ?? vipBlockOf(undefined, ep.error);
  useVipGate(copy ? null : blocked, film.slug);
  const player = useRef<PlayerHandle>(null);
  const whole = usePlayerFirst();
  const [reporting, setReporting] = useState(false);
  const [keysOpen, setKeysOpen] = useState(false);
  const queryClient = useQueryClient();
  const episodeKey = `${film.slug}/${episode}`;
  const [failoverState, setFailover] = useState<Failover>({ key: episodeKey, failed: [], mode: 'stream' });
  const failover: Failover = failoverState.key === episodeKey ? failoverState : { key: episodeKey, failed: [], mode: 'stream' };
  const serverLabel = (name: string | undefined) => `Server ${servers.findIndex((s) => s.server_name === name) + 1}`;
  const onStreamFailed = (failure: StreamFailure) => {
    if (!serverName) return;
    // Filed once per episode, server and day on the server's side, whatever the number of viewers.
    void reportError({
      slug: film.slug,
      episode,
      server_name: serverName,
      reason: AUTO_REPORT_REASON,
      message: `Trình phát tự chuyển server: ${failure.detail}`,
    }).catch(() => undefined);
    const failed = [...failover.failed, serverName];
    const next = nextSource(
      servers,
      failed,
      episode,
      (name) => queryClient.getQueryData(episodeQuery(film.slug, episode, name).queryKey)?.data.link_embed,
    );
    const moved = { key: episodeKey, failed, at: failure.position, play: failure.playing };
    if (next.kind === 'stream') {
      toast(`${serverLabel(serverName)} đang lỗi, đã chuyển sang ${serverLabel(next.server)}`, { id: `failover-${serverName}` });
      setFailover({ ...moved, mode: 'stream' });
      void navigate({ to: '.', search: { server: next.server } as never, replace: true });
    } else if (next.kind === 'embed') {
      // Every stream failed: the source's own player.
      toast(`${serverLabel(serverName)} đang lỗi, đã chuyển sang trình phát nhúng`, { id: `failover-${serverName}` });
      setFailover({ ...moved, mode: 'embed', embed: next.embed });
    } else setFailover({ ...moved, mode: 'dead' });
  };
  const retryStreams = () => {
    setFailover({ key: episodeKey, failed: [], mode: 'stream', at: failover.at });
    const first = servers.find((s) => s.linkfilms.some((e) => e.episode === episode));
    if (first && first.server_name !== serverName)
      void navigate({ to: '.', search: { server: first.server_name } as never, replace: true });
  };
  const [lightsOff, setLightsOff] = useLightsOff();

  usePageMeta({
    title: `Xem phim ${film.title} - Tập ${episode}`,
    description: `Xem phim ${film.title} - Tập ${episode} Vietsub chất lượng cao tại ${SITE_SUFFIX}.`,
    canonicalPath: `/xem-phim/${film.slug}/tap-${episode}`,
  });

  // "Next episode": the next number on this server; at the last one the button is greyed.
  const list = current?.linkfilms ?? [];
  // With no network, up-next is the next episode on the device.
  const nextEpisode =
    copy && !online ? downloaded?.find((r) => r.episode > episode)?.episode : list.find((e) => e.episode > episode)?.episode;
  const previousEpisode = (copy && !online ? downloaded?.map((r) => r.episode) : list.map((e) => e.episode))
    ?.filter((n) => n < episode)
    .at(-1);
  const playEpisode = useCallback(
    (to: number) => {
      intendToPlay(film.slug, to);
      void navigate({
        to: '/xem-phim/$slug/$episode',
        params: { slug: film.slug, episode: `tap-${to}` },
        search: serverName ? { server: serverName } : {},
      });
    },
    [navigate, film.slug, serverName],
  );
  const goNext = useCallback(() => {
    if (nextEpisode !== undefined) playEpisode(nextEpisode);
  }, [playEpisode, nextEpisode]);
  // This device's skips and where it leaves for the next episode, reported once per episode and server (skip-runs.ts).
  const tracker = useMemo(
    () =>
      new SkipTracker(
        () => player.current?.media?.duration ?? 0,
        (report) => serverName && sendSkipReport({ slug: film.slug, episode, server: serverName }, report),
      ),
    [film.slug, episode, serverName],
  );
  const skipIntro = useRef<SkipIntroHandle>(null);
  const upNextShown = useRef(false);
  /** The viewer's own way to the next episode (the button, N, the lock screen): near the end, where the credits are. */
  const leaveForNext = useCallback(() => {
    const media = player.current?.media;
    if (media && !upNextShown.current) tracker.leave(media.currentTime);
    goNext();
  }, [goNext, tracker]);
  const [autoSkip, setAutoSkip] = useState(false);
  useEffect(() => setAutoSkip(loadPlayerPrefs().autoSkip), []);
  const goPrevious = useCallback(() => {
    if (previousEpisode !== undefined) playEpisode(previousEpisode);
  }, [playEpisode, previousEpisode]);

  const toggleFullscreen = useCallback(() => {
    const box = player.current?.box;
    if (!box) return;
    if (document.fullscreenElement) void document.exitFullscreen();
    else void box.requestFullscreen?.().catch(() => undefined);
  }, []);
  const showKeys = useCallback(() => setKeysOpen(true), []);
  const mediaOf = useCallback(() => player.current?.media ?? null, []);
  usePlayerShortcuts({
    player,
    toggleFullscreen,
    next: nextEpisode === undefined ? undefined : leaveForNext,
    previous: previousEpisode === undefined ? undefined : goPrevious,
    showHelp: showKeys,
    skip: () => skipIntro.current?.skip() ?? false,
  });

  // Arriving by a tap that meant "play this" (the film page's "Xem phim" or "Xem tiếp tập N", an episode link, the
  // previous episode's up next or N): the tap's activation came along with the in-app navigation, so it plays at
  // once (a browser that still refuses shows "Phát"). A direct load waits for a tap.
  const autoPlay = useRef<{ key: string; on: boolean } | null>(null);
  if (autoPlay.current?.key !== `${film.slug}/${episode}`)
    autoPlay.current = { key: `${film.slug}/${episode}`, on: consumePlayIntent(film.slug, episode) };

  // Up next: at the learned credits (else 95 %) or the end; "Hủy" closes it for this episode.
  const [upNext, setUpNext] = useState(false);
  upNextShown.current = upNext;
  const creditsAt = useRef<number | undefined>(undefined);
  creditsAt.current = segments.data?.credits?.start;
  const upNextDismissed = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new episode (or server) starts without the card.
  useEffect(() => {
    setUpNext(false);
    upNextDismissed.current = false;
  }, [film.slug, episode, serverName]);
  // The Top 10's play: reported once 120 s of this film really played (play-counter.ts).
  const playCounter = playCounterFor(film.slug);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new episode or server starts a new run of time updates.
  useEffect(() => playCounter.restart(), [playCounter, episode, serverName]);
  const onTime = useCallback(
    (time: number, duration: number) => {
      playCounter.tick(time);
      skipIntro.current?.tick(time);
      const credits = creditsAt.current;
      const at = credits !== undefined && credits < duration ? credits : duration * CREDITS_AT;
      if (!upNextDismissed.current && duration > 0 && time >= at) setUpNext(true);
    },
    [playCounter],
  );
  const onEnded = useCallback(() => {
    if (!upNextDismissed.current) setUpNext(true);
  }, []);
  const closeUpNext = useCallback(() => {
    upNextDismissed.current = true;
    setUpNext(false);
  }, []);

  // Resume where this device stopped in this episode; remember the film for "Xem tiếp" at once.
  const resume = useWatchEntry(film.slug, { title: film.title, poster: film.thumb || film.hinhanh });
  const startAt = resumePoint(resume, episode);
  const link = ep.data?.data;
  useEffect(() => {
    if (!link) return;
    const prev = getWatchEntry(film.slug);
    const same = prev && prev.episode === episode;
    saveWatchEntry({
      slug: film.slug,
      title: film.title,
      poster: film.thumb || film.hinhanh,
      episode,
      server: link.server_name,
      time: same ? prev.time : 0,
      duration: same ? prev.duration : 0,
    });
  }, [link, film.slug, film.title, film.thumb, film.hinhanh, episode]);

  const onProgress = useCallback(
    (time: number, duration: number) => {
      saveWatchEntry({
        slug: film.slug,
        title: film.title,
        poster: film.thumb || film.hinhanh,
        episode,
        server: serverName ?? '',
        time,
        duration,
        credits: creditsAt.current,
      });
    },
    [film.slug, film.title, film.thumb, film.hinhanh, episode, serverName],
  );

  return (
    <div className="container watch">
      <Breadcrumb
        crumbs={[
          <Link key="f" to="/$slug" params={{ slug: film.slug }}>
            {film.title}
          </Link>,
          <span key="e">Tập {episode}</span>,
        ]}
      />
      <div className="layout-with-sidebar">
        <div className="layout-main">
          <div className={`player-stage ${lightsOff ? 'lit' : ''}`}>
            {copy ? (
              <>
                <VideoPlayer
                  key={`offline-${copy.id}`}
                  ref={player}
                  m3u8={offlineUrl(copy.id, 'index.m3u8')}
                  offlineId={copy.id}
                  embed=""
                  title={`${film.title} - Tập ${episode}`}
                  filmTitle={film.title}
                  poster={film.thumb || undefined}
                  onNext={nextEpisode === undefined ? undefined : leaveForNext}
                  startAt={startAt}
                  autoPlay={autoPlay.current.on}
                  onProgress={onProgress}
                  onTime={onTime}
                  onEnded={onEnded}
                >
                  {upNext && (
                    <UpNext
                      filmTitle={film.title}
                      poster={film.thumb || film.hinhanh || undefined}
                      nextEpisode={nextEpisode}
                      recommended={online ? data.recommended : []}
                      onContinue={goNext}
                      onClose={closeUpNext}
                    />
                  )}
                </VideoPlayer>
                <p className="player-copy-note" data-testid="playing-download">
                  Đang phát bản đã tải về máy ({copy.height > 0 ? `${copy.height}p` : 'chất lượng gốc'}), không cần mạng.
                </p>
              </>
            ) : blocked ? (
              <div className="player-box">
                <p className="player-message" role="alert">
                  {VIP_MESSAGES[blocked]} <Link to="/dang-ky-goi-vip">Xem các gói VIP</Link>
                </p>
              </div>
            ) : !current ? (
              <div className="player-box">
                <p className="player-message">Hiện tại phim này chưa cập nhật để xem !</p>
              </div>
            ) : ep.error ? (
              <div className="player-box">
                <p className="player-message player-error" role="alert">
                  {isNetworkError(ep.error) ? WATCH_OFFLINE_MESSAGE : `Error: ${ep.error.message}`}
                </p>
              </div>
            ) : failover.mode === 'dead' ? (
              <div className="player-box">
                <div className="player-message player-error" role="alert">
                  <p>Không phát được tập này trên server nào. Hãy thử lại sau ít phút, hoặc báo lỗi cho chúng tôi.</p>
                  <p className="player-message-actions">
                    <button type="button" className="btn btn-sm btn-primary" onClick={retryStreams}>
                      Thử lại
                    </button>
                    <button type="button" className="btn btn-sm btn-ghost" onClick={() => setReporting(true)}>
                      Báo lỗi
                    </button>
                  </p>
                </div>
              </div>
            ) : (
              // While the episode's link is fetched (and in the host's HTML) the player is already there: the
              // poster and a "Phát" button, a tap on which plays once the link and the player's script are in.
              <VideoPlayer
                key={`${film.slug}-${episode}-${serverName}-${failover.mode}`}
                ref={player}
                m3u8={failover.mode === 'embed' ? '' : link?.link_m3u8}
                embed={failover.mode === 'embed' ? (failover.embed ?? '') : (link?.link_embed ?? '')}
                title={`${film.title} - Tập ${episode}`}
                filmTitle={film.title}
                poster={film.thumb || undefined}
                onNext={nextEpisode === undefined ? undefined : leaveForNext}
                startAt={failover.at ?? startAt}
                autoPlay={failover.play || autoPlay.current.on}
                onProgress={onProgress}
                onTime={onTime}
                onEnded={onEnded}
                onStreamFailed={onStreamFailed}
              >
                <SkipIntro ref={skipIntro} intro={segments.data?.intro ?? null} media={mediaOf} tracker={tracker} autoSkip={autoSkip} />
                {upNext && (
                  <UpNext
                    filmTitle={film.title}
                    poster={film.thumb || film.hinhanh || undefined}
                    nextEpisode={nextEpisode}
                    recommended={data.recommended}
                    onContinue={goNext}
                    onClose={closeUpNext}
                  />
                )}
              </VideoPlayer>
            )}
            <div className="player-controls" role="toolbar" aria-label="Điều khiển trình phát">
              <fieldset className="server-buttons" aria-label="Chọn server">
                {Array.from({ length: SERVER_BUTTONS }, (_, i) => {
                  const s = servers[i];
                  const active = !!s && s.server_name === serverName;
                  return (
                    <button
                      // biome-ignore lint/suspicious/noArrayIndexKey: the three server slots are fixed positions ('Server 1…3'), never reordered.
                      key={i}
                      type="button"
                      className={`btn btn-sm ${active ? 'btn-primary' : 'btn-ghost'}`}
                      aria-pressed={active}
                      disabled={!s?.linkfilms.some((e) => e.episode === episode)}
                      title={s ? `${s.server_name}${s.source?.down ? ' · Không phản hồi' : ''}` : 'Không có server này'}
                      onClick={() => s && void navigate({ to: '.', search: { server: s.server_name } as never, replace: true })}
                    >
                      Server {i + 1}
                      {/* Which source it comes from (issue 32): two sources' "Vietsub #1" are told apart. */}
                      {s?.source && <span className="server-source"> · {s.source.name}</span>}
                    </button>
                  );
                })}
              </fieldset>
              <div className="player-actions">
                {download &&
                  (copy || link) &&
                  download({
                    film: data,
                    episode,
                    server: link?.server_name ?? copy?.server ?? serverName ?? '',
                    m3u8: link?.link_m3u8 ?? '',
                    embed: link?.link_embed ?? '',
                  })}
                {!blocked && current && together?.({ slug: film.slug, episode, server: serverName })}
                <button type="button" className="btn btn-sm btn-ghost" onClick={toggleFullscreen} disabled={!link && !copy}>
                  Phóng to
                </button>
                <button type="button" className="btn btn-sm btn-ghost" aria-pressed={lightsOff} onClick={() => setLightsOff(!lightsOff)}>
                  {lightsOff ? 'Bật đèn' : 'Tắt đèn'}
                </button>
                <button type="button" className="btn btn-sm btn-ghost" onClick={() => setReporting(true)} disabled={!current}>
                  Báo lỗi
                </button>
                <label className="auto-skip">
                  <input
                    type="checkbox"
                    checked={autoSkip}
                    onChange={(e) => {
                      setAutoSkip(e.target.checked);
                      savePlayerPrefs({ autoSkip: e.target.checked });
                    }}
                  />
                  {AUTO_SKIP_LABEL}
                </label>
                <button
                  type="button"
                  className={`btn btn-sm ${nextEpisode === undefined ? 'btn-disabled' : 'btn-primary'}`}
                  onClick={leaveForNext}
                  disabled={nextEpisode === undefined}
                  data-testid="next-episode"
                >
                  Tập tiếp theo
                </button>
              </div>
            </div>
            <p className="shortcut-hint muted">
              Phím tắt: Space/K phát/dừng · J L tua 10 giây · F toàn màn hình · N tập tiếp theo · S bỏ qua giới thiệu ·{' '}
              <button type="button" className="link-button" onClick={showKeys}>
                ? xem tất cả
              </button>
            </p>
          </div>

          {whole && (
            <>
              <section className="watch-episodes" aria-labelledby="watch-episodes-heading">
                <h2 id="watch-episodes-heading" className="section-title">
                  Danh sách tập
                </h2>
                <EpisodeList film={film} current={episode} currentServer={serverName} />
              </section>

              <section className="watch-info">
                <h1 className="film-title">
                  {film.title} - Tập {episode}
                </h1>
                {film.nameenglish && <p className="film-english">{film.nameenglish}</p>}
                <p className="film-synopsis">{film.descripts}</p>
              </section>

              {comments(data)}
            </>
          )}
        </div>
        {/* The sidebar's box stays, so the player's column keeps its width when the rest comes in. */}
        <aside className="layout-side" aria-label="Phim đề xuất">
          {whole && (
            <section className="side-box">
              <h2 className="side-title">Phim đề xuất</h2>
              <SideFilmList films={data.recommended} />
            </section>
          )}
        </aside>
      </div>
      {keysOpen && <ShortcutsDialog open onClose={() => setKeysOpen(false)} />}
      {current && (
        <ReportErrorDialog
          open={reporting}
          onClose={() => setReporting(false)}
          slug={film.slug}
          episode={episode}
          serverName={serverName ?? ''}
        />
      )}
    </div>
  );
}
