import { Link } from '@tanstack/react-router';
import { memo, useState } from 'react';
import type { SidebarData } from '../../../../../worker/schemas/catalogue';

type TrendingLists = SidebarData['phimtrending'];
import { SideFilmList } from '../../../components/film/side-film-list';
import { LazyMount } from '../../../components/lazy-mount';

const SIDE_ITEMS = 8;
const YEAR_BUTTONS = 7;

/** Release-year buttons: the current year downward, seven of them (the spec's duplicate 2021 corrected). */
export function sidebarYears(now = new Date()): number[] {
  return Array.from({ length: YEAR_BUTTONS }, (_, i) => now.getFullYear() - i);
}

/** The right column of the home and listing pages (the home passes its data, a superset). */
export const HomeSidebar = memo(function HomeSidebar({ data }: { data: SidebarData | undefined }) {
  return (
    <aside className="layout-side" aria-label="Thanh bên">
      <section className="side-box" aria-labelledby="side-action">
        <h2 id="side-action" className="side-title">
          PHIM HÀNH ĐỘNG
        </h2>
        <LazyMount minHeight={780}>{data ? <SideFilmList films={data.phimhanhdong.slice(0, SIDE_ITEMS)} /> : <SideSkeleton />}</LazyMount>
      </section>
      <Trending trending={data?.phimtrending} />
      <section className="side-box" aria-labelledby="side-years">
        <h2 id="side-years" className="side-title">
          NĂM PHÁT HÀNH
        </h2>
        <ul className="year-buttons">
          {sidebarYears().map((year) => (
            <li key={year}>
              <Link to="/phim-le" search={{ year }} className="btn btn-chip">
                {year}
              </Link>
            </li>
          ))}
        </ul>
      </section>
      <section className="side-box" aria-labelledby="side-upcoming">
        <h2 id="side-upcoming" className="side-title">
          PHIM SẮP CHIẾU
        </h2>
        {!data ? (
          <p className="muted" role="status">
            Loading...
          </p>
        ) : data.phimsapchieu.length > 0 ? (
          <LazyMount minHeight={780}>
            <SideFilmList films={data.phimsapchieu.slice(0, SIDE_ITEMS)} />
          </LazyMount>
        ) : (
          <p className="muted">Chưa có phim sắp chiếu.</p>
        )}
      </section>
    </aside>
  );
});

const PERIODS = [
  { key: 'day', label: 'Ngày' },
  { key: 'week', label: 'Tuần' },
  { key: 'month', label: 'Tháng' },
] as const satisfies readonly { key: keyof TrendingLists; label: string }[];

/** Trending by view events of the last day, week or month; the tabs really switch (spec defect corrected). */
function Trending({ trending }: { trending: TrendingLists | undefined }) {
  const [period, setPeriod] = useState<keyof TrendingLists>('day');
  const films = trending?.[period];
  return (
    <section className="side-box" aria-labelledby="side-trending">
      <div className="side-head">
        <h2 id="side-trending" className="side-title">
          Trending
        </h2>
        <div className="tabs tabs-small" role="tablist" aria-label="Trending theo thời gian">
          {PERIODS.map((p) => (
            <button
              key={p.key}
              id={`trend-tab-${p.key}`}
              type="button"
              role="tab"
              aria-selected={period === p.key}
              aria-controls="trend-panel"
              className={`tab ${period === p.key ? 'active' : ''}`}
              onClick={() => setPeriod(p.key)}
            >
              {p.label}
            </button>
          ))}
        </div>
      </div>
      <div id="trend-panel" role="tabpanel" aria-labelledby={`trend-tab-${period}`} data-testid="trending-panel">
        <LazyMount minHeight={780}>
          {!films ? (
            <SideSkeleton />
          ) : films.length === 0 ? (
            <p className="muted">Chưa có lượt xem trong khoảng này.</p>
          ) : (
            <SideFilmList films={films.slice(0, SIDE_ITEMS)} ranked />
          )}
        </LazyMount>
      </div>
    </section>
  );
}

function SideSkeleton() {
  return (
    <ul className="side-list" aria-hidden="true">
      {Array.from({ length: 5 }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders that never reorder: the position is the identity.
        <li key={i} className="side-item side-item-skeleton">
          <span className="poster poster-skeleton side-poster" />
          <span className="side-body">
            <span className="skeleton-line" />
            <span className="skeleton-line short" />
          </span>
        </li>
      ))}
    </ul>
  );
}
