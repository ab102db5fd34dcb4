import { memo, useEffect, useRef } from 'react';
import type { FilmCard } from '../../../../../worker/schemas/catalogue';
import { FilmLink } from '../../../components/film/film-link';
import { Poster } from '../../../components/film/poster';
import { VipBadge } from '../../../components/film/vip-badge';
import { episodeBadge } from '../../../lib/format';

const GAP = 12;
/** Autoplay starts this long after the first render unless the viewer touches the carousel first. */
const SETTLE_MS = 6000;
/**
 * The hot carousel: 5 per view by default and 6 from 1400 px, breakpoints 1400/1200/1024/765/600/470/330,
 * scroll 2, autoplay 3000 ms, speed 500 ms. global.css mirrors slidesPerView per breakpoint so the
 * row has its final layout before Swiper (loaded on demand) takes over: no shift.
 */
const BREAKPOINTS = {
  330: { slidesPerView: 2 },
  470: { slidesPerView: 3 },
  600: { slidesPerView: 3 },
  765: { slidesPerView: 4 },
  1024: { slidesPerView: 5 },
  1200: { slidesPerView: 5 },
  1400: { slidesPerView: 6 },
};

export const HotCarousel = memo(function HotCarousel({ films }: { films: FilmCard[] | undefined }) {
  const root = useRef<HTMLDivElement>(null);
  const prev = useRef<HTMLButtonElement>(null);
  const next = useRef<HTMLButtonElement>(null);
  const ready = !!films && films.length > 0;

  useEffect(() => {
    if (!ready) return;
    let destroyed = false;
    let swiper: { destroy: (deleteInstance?: boolean, cleanStyles?: boolean) => void } | undefined;
    // Off the critical path: the row is already laid out by CSS; Swiper only adds motion, so it
    // loads when the viewer reaches for the carousel or once the page has settled, whichever is first.
    let started = false;
    const start = () => {
      if (started) return;
      started = true;
      void import('./hot-swiper').then(({ createSwiper }) => {
        if (destroyed || !root.current) return;
        const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
        swiper = createSwiper(root.current, {
          slidesPerView: 2,
          slidesPerGroup: 2,
          spaceBetween: GAP,
          speed: 500,
          rewind: true,
          autoplay: reduceMotion ? false : { delay: 3000, disableOnInteraction: false, pauseOnMouseEnter: true },
          breakpoints: BREAKPOINTS,
          navigation: { prevEl: prev.current, nextEl: next.current },
        });
      });
    };
    const box = root.current?.parentElement;
    const interactions = ['pointerenter', 'touchstart', 'focusin'] as const;
    for (const type of interactions) box?.addEventListener(type, start, { once: true, passive: true });
    const settled = window.setTimeout(start, SETTLE_MS);
    return () => {
      window.clearTimeout(settled);
      for (const type of interactions) box?.removeEventListener(type, start);
      destroyed = true;
      swiper?.destroy(true, true);
    };
  }, [ready]);

  return (
    <div className="hot-carousel">
      <div className="swiper" ref={root}>
        <div className="swiper-wrapper">
          {ready
            ? films.map((film, i) => (
                <div className="swiper-slide hot-slide" key={film.id}>
                  <FilmLink slug={film.slug} className="hot-link">
                    <Poster
                      src={film.hinhanh || film.thumb}
                      alt={`Poster phim ${film.title}`}
                      width={240}
                      height={336}
                      priority={i < 3}
                      className="hot-poster"
                    />
                    <span className="hot-overlay">
                      <span className="hot-title">{film.title}</span>
                      <span className="hot-sub">
                        {[film.namphathanh, episodeBadge(film.sotap), film.chatluong].filter(Boolean).join(' · ')}
                      </span>
                    </span>
                    {film.ngonngu && <span className="badge badge-status">{film.ngonngu}</span>}
                    <VipBadge film={film} variant="overlay" />
                  </FilmLink>
                </div>
              ))
            : Array.from({ length: 6 }, (_, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed placeholders that never reorder: the position is the identity.
                <div className="swiper-slide hot-slide" key={i} aria-hidden="true">
                  <span className="poster poster-skeleton hot-poster" />
                </div>
              ))}
        </div>
      </div>
      <button ref={prev} type="button" className="carousel-nav carousel-prev" aria-label="Phim trước" disabled={!ready}>
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="currentColor">
          <path d="M15.4 7.4 14 6l-6 6 6 6 1.4-1.4L10.8 12z" />
        </svg>
      </button>
      <button ref={next} type="button" className="carousel-nav carousel-next" aria-label="Phim tiếp theo" disabled={!ready}>
        <svg viewBox="0 0 24 24" width="22" height="22" aria-hidden="true" fill="currentColor">
          <path d="M8.6 16.6 10 18l6-6-6-6-1.4 1.4 4.6 4.6z" />
        </svg>
      </button>
    </div>
  );
});
