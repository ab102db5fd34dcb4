// "Tải cả phim" as the film page shows it (issue 26): the button is drawn with the page (and by the host), so
// a tap always lands on it; what it does (the store, the quality dialog, the downloader) loads with import()
// on the tap, so the film page's first-load JavaScript does not grow.
import { lazy, Suspense, useState } from 'react';
import type { FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import { MESSAGES_EMBED_FILM } from './labels';

const DownloadAll = lazy(() => import('./download-all'));

export function FilmDownload({ film, warmPlayer }: { film: FilmDetailResponse; warmPlayer?: () => void }) {
  const [taps, setTaps] = useState(0);
  const playable = film.datafilm.servers.some((s) => s.linkfilms.some((e) => e.link_m3u8));
  return (
    <span className="dl-episode">
      <button
        type="button"
        className="btn btn-ghost"
        onClick={() => setTaps((n) => n + 1)}
        disabled={!playable}
        aria-describedby={playable ? undefined : 'dl-all-reason'}
        data-testid="download-all"
      >
        Tải cả phim
      </button>
      {!playable && (
        <span id="dl-all-reason" className="dl-note muted">
          {MESSAGES_EMBED_FILM}
        </span>
      )}
      {taps > 0 && (
        <Suspense fallback={null}>
          <DownloadAll key={taps} film={film} warmPlayer={warmPlayer} />
        </Suspense>
      )}
    </span>
  );
}
