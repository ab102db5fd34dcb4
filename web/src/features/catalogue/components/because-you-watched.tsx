import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { becauseYouWatched } from '../../../../../worker/schemas/related';
import { FilmGrid } from '../../../components/film/film-grid';
import { api, unwrap } from '../../../lib/api-client';
import { useWatchHistory } from '../../../lib/watch-history';

const CARDS = 8;

/**
 * "Vì bạn đã xem {phim}" (issue 40 §4, docs/decisions/1090): the related films of the film this device watched last,
 * from the device's own history (lib/watch-history.ts). No history leaves the device: the browser asks the film's
 * public related list (GET /api/related/{slug}, edge-cached like any film read), once the page is idle, so it
 * never holds up the home's first screen.
 */
export function BecauseYouWatched() {
  const history = useWatchHistory();
  const last = history.reduce<(typeof history)[number] | undefined>((a, b) => (!a || b.updatedAt > a.updatedAt ? b : a), undefined);
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    if (typeof requestIdleCallback === 'function') {
      const id = requestIdleCallback(() => setIdle(true), { timeout: 3000 });
      return () => cancelIdleCallback(id);
    }
    const id = setTimeout(() => setIdle(true), 1000);
    return () => clearTimeout(id);
  }, []);
  const slug = last?.slug ?? '';
  const { data } = useQuery({
    queryKey: ['related', slug],
    queryFn: () => unwrap(api.api.related[':slug'].$get({ param: { slug } })),
    enabled: idle && slug !== '',
    staleTime: 5 * 60_000,
    retry: false,
  });
  if (!data || data.data.length === 0) return null;
  return (
    <section className="home-section because-watched" aria-labelledby="because-watched-heading">
      <div className="section-head">
        <h2 id="because-watched-heading" className="section-title">
          {becauseYouWatched(data.film.title)}
        </h2>
      </div>
      <FilmGrid films={data.data} limit={CARDS} />
    </section>
  );
}
