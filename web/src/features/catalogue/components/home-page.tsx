import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import type { FilmCard, HomeData } from '../../../../../worker/schemas/catalogue';
import { FilmGrid } from '../../../components/film/film-grid';
import { OfflinePage } from '../../../components/layout/offline-page';
import { LazyMount } from '../../../components/lazy-mount';
import { isNetworkError } from '../../../lib/api-client';
import { SITE_NAME, usePageMeta } from '../../../lib/page-meta';
import { homeQuery, homeTopQuery } from '../api/catalogue-queries';
import { BecauseYouWatched } from './because-you-watched';
import { ContinueWatching } from './continue-watching';
import { HomeSidebar } from './home-sidebar';
import { HotCarousel } from './hot-carousel';
import { PlaceholderGrid } from './placeholder-grid';
import { Top10Row } from './top10-row';

const TABS = [
  { key: 'phimbomoicapnhat', label: 'Phim bộ mới cập nhật' },
  { key: 'phimlemoicapnhat', label: 'Phim lẻ mới cập nhật' },
  { key: 'phimdahoanthanh', label: 'Phim đã hoàn thành' },
] as const satisfies readonly { key: keyof HomeData; label: string }[];

const SECTIONS = [
  { key: 'phimhoathinh', title: 'Phim hoạt hình', genre: 'hoat-hinh' },
  { key: 'phimtamlytimcam', title: 'Phim tâm lý tình cảm', genre: 'tam-ly' },
  { key: 'phimvientuong', title: 'Phim viễn tưởng', genre: 'vien-tuong' },
] as const satisfies readonly { key: keyof HomeData; title: string; genre: string }[];

const HOME_CARDS = 12;

export function HomePage() {
  usePageMeta({
    title: `${SITE_NAME} - Xem phim online miễn phí, Vietsub chất lượng cao`,
    description: 'PhimViet: xem phim bộ, phim lẻ, TV shows và phim sắp chiếu Vietsub chất lượng cao, cập nhật mỗi ngày, miễn phí.',
    canonicalPath: '/',
  });
  // The first screen (hot films, the first tab) is the loader's, so the host renders it; the rest of the home
  // arrives after the page runs and fills the other tabs, the sections and the sidebar as they come into view.
  const { data: top, error, refetch } = useQuery(homeTopQuery());
  const rest = useQuery(homeQuery());
  // Each list from whichever answer holds it; the first screen's are the loader's from the start.
  const lists: Partial<HomeData> = { ...rest.data, ...top };
  // The rest of the home failed (its own retries spent): its lists say so and offer another try.
  const retryRest = rest.error && !rest.data ? () => void rest.refetch() : undefined;
  if (error && !top) {
    if (isNetworkError(error)) return <OfflinePage onRetry={() => void refetch()} />;
    return (
      <div className="container status-page" role="alert">
        <h1>Đã xảy ra lỗi</h1>
        <p className="muted">Error: {error.message}</p>
      </div>
    );
  }

  return (
    <div className="container home">
      <h1 className="visually-hidden">{SITE_NAME} - Xem phim online</h1>
      <ContinueWatching />
      <section className="home-hot" aria-labelledby="hot-heading">
        <div className="section-head">
          <h2 id="hot-heading" className="section-title">
            Phim hot
          </h2>
        </div>
        <HotCarousel films={top?.phimhot} />
      </section>
      <div className="layout-with-sidebar">
        <div className="layout-main">
          <HomeTabs lists={lists} onRetry={retryRest} />
          <Top10Row list="phimbo" entries={rest.data?.top10.phimbo} />
          <Top10Row list="phimle" entries={rest.data?.top10.phimle} />
          <BecauseYouWatched />
          {SECTIONS.map((s) => (
            <section key={s.key} className="home-section" aria-labelledby={`sec-${s.key}`}>
              <div className="section-head">
                <h2 id={`sec-${s.key}`} className="section-title">
                  {s.title}
                </h2>
                <Link to="/the-loai/$slug" params={{ slug: s.genre }} className="section-more">
                  Xem tất cả <span className="visually-hidden">{s.title}</span>
                </Link>
              </div>
              <LazyMount minHeight={760}>
                <CardsOrPlaceholder films={lists[s.key]} onRetry={retryRest} />
              </LazyMount>
            </section>
          ))}
        </div>
        <HomeSidebar data={rest.data} />
      </div>
    </div>
  );
}

function CardsOrPlaceholder({ films, onRetry }: { films: FilmCard[] | undefined; onRetry?: () => void }) {
  if (!films && onRetry)
    return (
      <div className="empty" role="alert">
        <p className="muted">Không tải được danh sách phim.</p>
        <button type="button" className="btn btn-ghost" onClick={onRetry}>
          Thử lại
        </button>
      </div>
    );
  if (!films) return <PlaceholderGrid count={HOME_CARDS} />;
  if (films.length === 0) return <p className="muted empty">Chưa có phim.</p>;
  return <FilmGrid films={films} limit={HOME_CARDS} />;
}

function HomeTabs({ lists, onRetry }: { lists: Partial<HomeData>; onRetry: (() => void) | undefined }) {
  const [tab, setTab] = useState<(typeof TABS)[number]['key']>('phimbomoicapnhat');
  const move = (dir: 1 | -1) => {
    const i = TABS.findIndex((t) => t.key === tab);
    const next = TABS[(i + dir + TABS.length) % TABS.length]!;
    setTab(next.key);
    document.getElementById(`tab-${next.key}`)?.focus();
  };
  return (
    <section className="home-section home-tabs" aria-label="Phim mới">
      <div className="tabs" role="tablist" aria-label="Danh sách phim mới">
        {TABS.map((t) => (
          <button
            key={t.key}
            id={`tab-${t.key}`}
            type="button"
            role="tab"
            aria-selected={tab === t.key}
            aria-controls={`panel-${t.key}`}
            tabIndex={tab === t.key ? 0 : -1}
            className={`tab ${tab === t.key ? 'active' : ''}`}
            onClick={() => setTab(t.key)}
            onKeyDown={(e) => {
              if (e.key === 'ArrowRight') move(1);
              if (e.key === 'ArrowLeft') move(-1);
            }}
          >
            {t.label}
          </button>
        ))}
      </div>
      {TABS.map((t) => (
        <div key={t.key} id={`panel-${t.key}`} role="tabpanel" aria-labelledby={`tab-${t.key}`} hidden={tab !== t.key}>
          {tab === t.key && <CardsOrPlaceholder films={lists[t.key]} onRetry={onRetry} />}
        </div>
      ))}
    </section>
  );
}
