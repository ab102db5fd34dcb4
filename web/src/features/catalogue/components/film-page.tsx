import { RELATED_TITLE } from '../../../../../worker/schemas/related';
import { type QueryClient, useQueryClient, useSuspenseQuery } from '@tanstack/react-query';
import { Link, useNavigate, useRouter } from '@tanstack/react-router';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { FilmDetail, FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import { Breadcrumb } from '../../../components/film/breadcrumb';
import { EpisodeList } from '../../../components/film/episode-list';
import { FilmGrid } from '../../../components/film/film-grid';
import { Poster } from '../../../components/film/poster';
import { episodeBadge, formatNumber } from '../../../lib/format';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { useVipGate, vipBlockOf } from '../../../lib/vip-gate';
import { formatClock } from '../../../lib/format';
import { intendToPlay, takeEarlyTap } from '../../../lib/play-intent';
import { type WatchTarget, watchTarget } from '../../../lib/resume-point';
import { useWatchEntry } from '../../../lib/watch-history';
import { WatchlistButton } from '../../../components/film/watchlist-button';
import { filmQuery, recordView } from '../api/catalogue-queries';
import { filmOgType, filmStructuredData } from '../structured-data';
import { TOP10_BADGES, tmdbLabel } from '../../../../../worker/schemas/discovery-texts';
import { PeopleLinks, Seasons, SourceNotes, TrailerFacade, WaitingForNext } from './film-extras';
import { RatingSummary } from './rating-summary';

export const NO_EPISODES_MESSAGE = 'Hiện tại phim này chưa cập nhật để xem !';

export function hasEpisodes(film: FilmDetail): boolean {
  return film.servers.some((s) => s.linkfilms.length > 0);
}

/**
 * Records one view per visit of the page (StrictMode's double effect and refetches do not count). A
 * visit the VIP rule refuses is no view: nothing is sent (the API refuses to count it too).
 */
function useRecordView(slug: string, blocked: boolean) {
  const recorded = useRef<string | null>(null);
  useEffect(() => {
    if (blocked || recorded.current === slug) return;
    recorded.current = slug;
    recordView(slug).catch(() => undefined);
  }, [slug, blocked]);
}

/** What other features add to a film's page (composed in routes/): the viewer's rating widget and the comments. */
export interface FilmPageSlots {
  rating: (data: FilmDetailResponse) => ReactNode;
  comments: (data: FilmDetailResponse) => ReactNode;
  /** "Tải cả phim" (downloads, issue 26). */
  download?: (data: FilmDetailResponse) => ReactNode;
  /** Gets the likely episode's watch page and stream ready while the viewer reads (the player feature, issue 31). */
  prepareWatch?: (
    target: WatchTarget,
    queryClient: QueryClient,
    loadWatchRoute: () => void,
  ) => { intent(): void; tap(): void; cancel(): void };
}

export function FilmPage({ slug, rating, comments, download, prepareWatch }: { slug: string } & FilmPageSlots) {
  const { data } = useSuspenseQuery(filmQuery(slug));
  const film = data.datafilm;
  const navigate = useNavigate();
  const [tab, setTab] = useState<'episodes' | 'info'>('episodes');
  const blocked = vipBlockOf(data);
  useRecordView(slug, !!blocked);
  useVipGate(blocked, slug);
  usePageMeta({
    title: `${film.title}${film.nameenglish ? ` (${film.nameenglish})` : ''} | ${SITE_SUFFIX}`,
    description: film.descripts ? film.descripts.slice(0, 160) : `Xem phim ${film.title} Vietsub chất lượng cao tại PhimViet.`,
    canonicalPath: `/${film.slug}`,
    type: filmOgType(film),
    image: film.hinhanh || undefined,
    structuredData: (origin) => filmStructuredData(origin, data),
  });
  // Through the store hook, not a direct read: a server-rendered page hydrates with no history, then updates.
  // A member's newest position comes from the account when another device watched further.
  const resume = useWatchEntry(film.slug, { title: film.title, poster: film.thumb || film.hinhanh });

  const { next, target } = watchTarget(film, resume);
  const watchLabel =
    next.kind === 'resume'
      ? `Xem tiếp tập ${next.episode}${resume && resume.time > 0 ? ` từ ${formatClock(resume.time)}` : ''}`
      : next.kind === 'next'
        ? `Xem tập ${next.episode}`
        : next.kind === 'waiting'
          ? `Xem lại tập ${next.episode - 1}`
          : 'Xem phim';
  const queryClient = useQueryClient();
  const router = useRouter();
  const preparation = useRef<ReturnType<NonNullable<FilmPageSlots['prepareWatch']>> | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the target's fields, not its identity (a new object each render).
  useEffect(() => {
    if (!prepareWatch || !target || blocked) return;
    const { slug: s, episode: e } = target;
    const loadRoute = () =>
      void router.preloadRoute({ to: '/xem-phim/$slug/$episode', params: { slug: s, episode: `tap-${e}` } }).catch(() => undefined);
    const prepared = prepareWatch(target, queryClient, loadRoute);
    preparation.current = prepared;
    return () => {
      prepared.cancel();
      if (preparation.current === prepared) preparation.current = null;
    };
  }, [prepareWatch, target?.slug, target?.episode, target?.server, target?.position, blocked, queryClient, router]);

  const watch = () => {
    if (!target) {
      window.alert(NO_EPISODES_MESSAGE);
      return;
    }
    // The tap means "play it": the watch page plays the episode by itself (the tap's activation comes along), on
    // the stream the preparation starts now.
    preparation.current?.tap();
    intendToPlay(film.slug, target.episode);
    void navigate({ to: '/xem-phim/$slug/$episode', params: { slug: film.slug, episode: `tap-${target.episode}` } });
  };
  // A tap on "Xem phim" before the page's script ran (remembered by the boot script): acted on now, never dropped.
  const latestWatch = useRef(watch);
  latestWatch.current = watch;
  const earlyTap = useRef(false);
  useEffect(() => {
    // Taken when this page's content first commits (which can be after <html data-app-ready>: the boot script keeps
    // the page's taps until then), acted on once this render's history has settled (the host's HTML knows none), so
    // "Xem tiếp" opens the right episode.
    earlyTap.current ||= takeEarlyTap('watch');
    if (!earlyTap.current) return;
    const timer = window.setTimeout(() => {
      earlyTap.current = false;
      latestWatch.current();
    }, 0);
    return () => window.clearTimeout(timer);
  }, []);

  const genre = film.genres[0];
  return (
    <div className="film-page">
      <div className="film-backdrop" aria-hidden="true" />
      <div className="container">
        <Breadcrumb
          crumbs={[
            ...(genre
              ? [
                  <Link key="g" to="/the-loai/$slug" params={{ slug: genre.slug }}>
                    {genre.name}
                  </Link>,
                ]
              : []),
            <span key="t">{film.title}</span>,
          ]}
        />
        <section className="film-hero">
          <div className="film-poster-col">
            <Poster
              src={film.hinhanh || film.thumb}
              alt={`Poster phim ${film.title}`}
              priority
              width={260}
              height={364}
              className="film-poster"
            />
            <button
              type="button"
              className="btn btn-primary btn-block btn-watch"
              onClick={watch}
              onPointerDown={() => preparation.current?.intent()}
              disabled={!!blocked}
              data-early-tap="watch"
            >
              <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" fill="currentColor">
                <path d="M8 5v14l11-7z" />
              </svg>
              {watchLabel}
            </button>
            {next.kind === 'waiting' && <WaitingForNext film={film} episode={next.episode} />}
            {film.trailer && <TrailerFacade id={film.trailer} title={film.title} />}
            <WatchlistButton film={film} variant="page" />
            {download && hasEpisodes(film) && !blocked && <div className="film-download">{download(data)}</div>}
          </div>
          <div className="film-info">
            <h1 className="film-title">{film.title}</h1>
            {film.nameenglish && <p className="film-english">{film.nameenglish}</p>}
            <ul className="film-tags" aria-label="Tóm tắt">
              {film.chatluong && <li className="tag tag-accent">{film.chatluong}</li>}
              {film.ngonngu && <li className="tag">{film.ngonngu}</li>}
              {film.namphathanh && <li className="tag">{film.namphathanh}</li>}
              {film.thoiluong && <li className="tag">{film.thoiluong}</li>}
              {film.VIP1 === 1 && <li className="tag tag-vip">VIP</li>}
              {film.chieurap && <li className="tag tag-cinema">Chiếu rạp</li>}
              {film.tmdb && (
                <li className="tag" title={`${formatNumber(film.tmdb.votes)} lượt bình chọn trên TMDB`}>
                  {tmdbLabel(film.tmdb.score)}
                </li>
              )}
              {film.top10 && (
                <li className="tag tag-top10">
                  #{film.top10.rank} {TOP10_BADGES[film.top10.list]}
                </li>
              )}
            </ul>
            <SourceNotes film={film} />
            <RatingSummary average={data.general_assessment.averageRating} total={data.general_assessment.totalRatings} />
            {rating(data)}
            <dl className="meta-list">
              <div>
                <dt>Trạng thái</dt>
                <dd>{film.trangthai || '—'}</dd>
              </div>
              <div>
                <dt>Số tập</dt>
                <dd>{episodeBadge(film.sotap) || '—'}</dd>
              </div>
              <div>
                <dt>Thể loại</dt>
                <dd>
                  {film.genres.length
                    ? film.genres.map((g, i) => (
                        <span key={g.slug}>
                          {i > 0 && ', '}
                          <Link to="/the-loai/$slug" params={{ slug: g.slug }}>
                            {g.name}
                          </Link>
                        </span>
                      ))
                    : film.theloai || '—'}
                </dd>
              </div>
              <div>
                <dt>Quốc gia</dt>
                <dd>
                  {film.countries.length
                    ? film.countries.map((c, i) => (
                        <span key={c.slug}>
                          {i > 0 && ', '}
                          <Link to="/$slug" params={{ slug: c.slug }}>
                            {c.name}
                          </Link>
                        </span>
                      ))
                    : film.quocgia || '—'}
                </dd>
              </div>
              <div>
                <dt>Đạo diễn</dt>
                <dd>
                  <PeopleLinks people={film.directors} kind="director" fallback={film.daodien} />
                </dd>
              </div>
              <div>
                <dt>Diễn viên</dt>
                <dd>
                  <PeopleLinks people={film.actors} kind="actor" fallback={film.dienvien} />
                </dd>
              </div>
              <div>
                <dt>Lượt xem</dt>
                <dd>{formatNumber(film.views)}</dd>
              </div>
            </dl>
          </div>
        </section>

        <Seasons film={film} />

        <section className="film-tabs-section">
          <div className="tabs" role="tablist" aria-label="Thông tin phim">
            <button
              type="button"
              role="tab"
              id="film-tab-episodes"
              aria-controls="film-panel-episodes"
              aria-selected={tab === 'episodes'}
              className={`tab ${tab === 'episodes' ? 'active' : ''}`}
              onClick={() => setTab('episodes')}
            >
              Danh sách tập
            </button>
            <button
              type="button"
              role="tab"
              id="film-tab-info"
              aria-controls="film-panel-info"
              aria-selected={tab === 'info'}
              className={`tab ${tab === 'info' ? 'active' : ''}`}
              onClick={() => setTab('info')}
            >
              Thông tin phim
            </button>
          </div>
          <div id="film-panel-episodes" role="tabpanel" aria-labelledby="film-tab-episodes" hidden={tab !== 'episodes'}>
            {hasEpisodes(film) ? <EpisodeList film={film} headingLevel={2} /> : <p className="muted">{NO_EPISODES_MESSAGE}</p>}
          </div>
          <div id="film-panel-info" role="tabpanel" aria-labelledby="film-tab-info" hidden={tab !== 'info'} className="film-synopsis">
            <h2 className="section-title">Nội dung phim</h2>
            <p>{film.descripts || 'Đang cập nhật.'}</p>
          </div>
        </section>

        {comments(data)}

        {data.recommended.length > 0 && (
          <section className="home-section" aria-labelledby="recommended-heading">
            <div className="section-head">
              <h2 id="recommended-heading" className="section-title">
                {RELATED_TITLE}
              </h2>
            </div>
            <FilmGrid films={data.recommended} />
          </section>
        )}
      </div>
    </div>
  );
}
