import { useQuery } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import { Breadcrumb } from '../../../components/film/breadcrumb';
import { FilmLink } from '../../../components/film/film-link';
import { FollowBell } from '../../../components/film/follow-bell';
import { Poster } from '../../../components/film/poster';
import { scheduleEntryText, vietnamClock, weekdayName, type ScheduleDay } from '../../../../../worker/schemas/schedule';
import { useWatchlistItems } from '../../../lib/library';
import { usePageMeta } from '../../../lib/page-meta';
import { useSession } from '../../../lib/session';
import { scheduleQuery } from '../api/schedule-query';

/** "Thứ 4 · 02/12" (the tab's label; the first tab is today's). */
const tabLabel = (day: ScheduleDay, index: number) =>
  `${index === 0 ? 'Hôm nay' : weekdayName(day.weekday)} · ${day.date.slice(8, 10)}/${day.date.slice(5, 7)}`;

/**
 * /lich-chieu: the seven days from today, a tab each, with each ongoing series' next episodes as the crawler's
 * history predicts them ("Tập 7 · khoảng 20:00"), the ones that came today ("Đã có tập 7 · 20:14") and the late ones
 * ("Trễ lịch"), and a bell to follow each film.
 */
export function SchedulePage() {
  const id = useId();
  const week = useQuery(scheduleQuery());
  const [selected, setSelected] = useState(0);
  const session = useSession();
  const list = useWatchlistItems();
  const following = useMemo(() => new Map(list.data.map((i) => [i.slug, i.notify])), [list.data]);
  usePageMeta({
    title: 'Lịch chiếu phim bộ | PhimViet',
    description: 'Lịch chiếu dự kiến các tập mới của phim bộ đang chiếu trong 7 ngày tới, theo giờ Việt Nam.',
    canonicalPath: '/lich-chieu',
  });
  const days = week.data?.days ?? [];
  const day = days[selected];
  return (
    <div className="container schedule-page">
      <Breadcrumb crumbs={[<span key="page">Lịch chiếu</span>]} />
      <h1 className="page-heading">Lịch chiếu</h1>
      <p className="muted">Giờ Việt Nam. Dự kiến theo thời điểm các tập trước lên sóng, có thể lệch.</p>
      {week.isPending && <p>Loading...</p>}
      {week.isError && <p>Không tải được lịch chiếu. Thử lại sau.</p>}
      {days.length > 0 && (
        <>
          <div className="schedule-tabs" role="tablist" aria-label="Ngày trong tuần">
            {days.map((d, i) => (
              <button
                key={d.date}
                type="button"
                role="tab"
                id={`${id}-tab-${i}`}
                aria-selected={i === selected}
                aria-controls={`${id}-panel`}
                className={`schedule-tab${i === selected ? ' is-active' : ''}`}
                onClick={() => setSelected(i)}
              >
                {tabLabel(d, i)}
                <span className="schedule-tab-count">{d.entries.length}</span>
              </button>
            ))}
          </div>
          <section id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${selected}`}>
            {day && day.entries.length === 0 && <p className="muted">Chưa có tập nào dự kiến ra ngày này.</p>}
            <ul className="schedule-list">
              {day?.entries.map((entry) => {
                const notify = following.get(entry.film.slug);
                return (
                  <li key={`${entry.film.slug}-${entry.episode}`} className={`schedule-item is-${entry.state}`}>
                    <FilmLink slug={entry.film.slug} className="schedule-poster" tabIndex={-1} aria-hidden="true">
                      <Poster src={entry.film.thumb || entry.film.hinhanh} alt="" width={60} height={84} />
                    </FilmLink>
                    <div className="schedule-text">
                      <FilmLink slug={entry.film.slug} className="schedule-title">
                        {entry.film.title}
                      </FilmLink>
                      <p className={entry.state === 'late' ? 'schedule-late' : 'muted'}>
                        {scheduleEntryText(entry, vietnamClock(entry.at))}
                      </p>
                    </div>
                    <FollowBell film={entry.film} on={!!session && notify === true} listed={notify !== undefined} signedIn={!!session} />
                  </li>
                );
              })}
            </ul>
          </section>
        </>
      )}
    </div>
  );
}
