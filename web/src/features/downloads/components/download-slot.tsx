// The download actions as the routes compose them into the watch and film pages (issue 26). The actions
// themselves (download-button.tsx, download-all.tsx, the quality dialog, the store) load with import()
// after the page has hydrated, so no page's first-load JavaScript grows; until then (and on the host) the
// same button is drawn, and a tap on it is kept and acted on once the code is there.
import { type ComponentType, lazy, Suspense, useState } from 'react';
import type { FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import type { EpisodeDownloadProps } from './download-button';

const LazyEpisode = lazy(() => import('./download-button'));
const LazyAll = lazy(() => import('./download-all')) as ComponentType<{
  film: FilmDetailResponse;
  warmPlayer?: () => void;
  openAtOnce?: boolean;
}>;

function Placeholder({ label, onTap, large }: { label: string; onTap: () => void; large?: boolean }) {
  return (
    <button type="button" className={`btn ${large ? '' : 'btn-sm '}btn-ghost`} onClick={onTap}>
      {label}
    </button>
  );
}

export function EpisodeDownload(props: Omit<EpisodeDownloadProps, 'openAtOnce'>) {
  const [tapped, setTapped] = useState(false);
  return (
    <Suspense fallback={<Placeholder label="Tải về" onTap={() => setTapped(true)} />}>
      <LazyEpisode {...props} openAtOnce={tapped} />
    </Suspense>
  );
}

export function FilmDownload(props: { film: FilmDetailResponse; warmPlayer?: () => void }) {
  const [tapped, setTapped] = useState(false);
  return (
    <Suspense fallback={<Placeholder label="Tải cả phim" large onTap={() => setTapped(true)} />}>
      <LazyAll {...props} openAtOnce={tapped} />
    </Suspense>
  );
}
