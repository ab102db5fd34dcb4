import { Link } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import {
  type DownloadRecord,
  deleteAllDownloads,
  deleteDownload,
  downloadsSupported,
  formatBytes,
  onDownloadsChanged,
  useDownloads,
} from '../../../lib/downloads/store';
import { usePageMeta, SITE_SUFFIX } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { ERROR_HELP, percentOf, QUOTA_HELP, qualityLabel, stateLabel } from './labels';
import './downloads.css';

const engine = () => import('../engine/downloader');

interface Storage {
  usage?: number;
  quota?: number;
  persisted?: boolean;
}

/** navigator.storage's figures, read again whenever a download changes. */
function useStorage(): Storage {
  const [storage, setStorage] = useState<Storage>({});
  useEffect(() => {
    let live = true;
    let timer: number | undefined;
    const read = async () => {
      const estimate = await navigator.storage?.estimate?.().catch(() => undefined);
      const persisted = await navigator.storage?.persisted?.().catch(() => undefined);
      if (live) setStorage({ usage: estimate?.usage, quota: estimate?.quota, persisted });
    };
    void read();
    const stop = onDownloadsChanged(() => {
      window.clearTimeout(timer);
      timer = window.setTimeout(() => void read(), 300);
    });
    return () => {
      live = false;
      window.clearTimeout(timer);
      stop();
    };
  }, []);
  return storage;
}

/**
 * /tai-ve, "Phim đã tải": downloads grouped by film, each episode with quality, size on disk, state,
 * pause/resume and delete; a film's delete and "Xóa tất cả"; the storage bar from navigator.storage.estimate()
 * and whether the browser keeps the storage for good. Works with no network (the service worker keeps the page).
 */
export function DownloadsPage() {
  usePageMeta({ title: `Phim đã tải | ${SITE_SUFFIX}`, description: 'Các tập phim đã tải về máy để xem khi không có mạng.' });
  const list = useDownloads();
  const storage = useStorage();
  const films = groupByFilm(list ?? []);

  const removeAll = useCallback(async () => {
    await deleteAllDownloads();
    toast.success('Đã xóa tất cả phim đã tải.');
  }, []);

  return (
    <div className="container dl-page">
      <h1 className="page-heading">Phim đã tải</h1>
      {!downloadsSupported() && (
        <p className="dl-problem" role="alert">
          Trình duyệt này không hỗ trợ tải phim về (cần IndexedDB, Cache Storage và Media Source Extensions).
        </p>
      )}
      <section className="dl-storage" aria-label="Bộ nhớ">
        <p className="dl-storage-text" data-testid="storage-used">
          Đã dùng {storage.usage !== undefined ? formatBytes(storage.usage) : '…'} /{' '}
          {storage.quota !== undefined ? formatBytes(storage.quota) : '…'}
        </p>
        <div
          className="dl-bar"
          role="progressbar"
          aria-label="Bộ nhớ đã dùng"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={storage.quota ? Math.round(((storage.usage ?? 0) * 100) / storage.quota) : 0}
        >
          <span style={{ width: `${storage.quota ? Math.min(100, ((storage.usage ?? 0) * 100) / storage.quota) : 0}%` }} />
        </div>
        {storage.persisted !== undefined && (
          <p className="muted dl-persist" data-testid="storage-persisted">
            {storage.persisted
              ? 'Bộ nhớ bền vững: đã được cấp. Trình duyệt sẽ không tự xóa phim đã tải.'
              : 'Bộ nhớ bền vững: chưa được cấp. Khi máy thiếu chỗ, trình duyệt có thể xóa phim đã tải; cài ứng dụng lên màn hình chính giúp giữ chúng.'}
          </p>
        )}
      </section>

      {list === undefined ? (
        <p role="status" className="muted">
          Loading...
        </p>
      ) : list.length === 0 ? (
        <p className="dl-empty">
          Chưa có phim nào được tải về. Thành viên VIP có thể bấm "Tải về" trên trang xem phim để xem khi không có mạng.
        </p>
      ) : (
        <>
          <div className="dl-actions">
            <button type="button" className="btn btn-ghost btn-sm" onClick={() => void removeAll()}>
              Xóa tất cả
            </button>
          </div>
          {films.map(([slug, episodes]) => (
            <FilmGroup key={slug} episodes={episodes} />
          ))}
        </>
      )}
    </div>
  );
}

function groupByFilm(list: DownloadRecord[]): [string, DownloadRecord[]][] {
  const map = new Map<string, DownloadRecord[]>();
  for (const r of list) map.set(r.slug, [...(map.get(r.slug) ?? []), r]);
  for (const eps of map.values()) eps.sort((a, b) => a.episode - b.episode);
  return [...map.entries()];
}

function FilmGroup({ episodes }: { episodes: DownloadRecord[] }) {
  const first = episodes[0]!;
  const total = episodes.reduce((n, r) => n + r.bytes, 0);
  const removeFilm = async () => {
    for (const r of episodes) await deleteDownload(r.id);
    toast.success(`Đã xóa ${first.filmTitle} khỏi máy.`);
  };
  return (
    <section className="dl-film" aria-label={first.filmTitle}>
      <header className="dl-film-head">
        {first.poster && <img src={first.poster} alt="" className="dl-poster" loading="lazy" />}
        <div>
          <h2 className="dl-film-title">
            <Link to="/$slug" params={{ slug: first.slug }}>
              {first.filmTitle}
            </Link>
          </h2>
          <p className="muted">
            {episodes.length} tập · {formatBytes(total)}
          </p>
        </div>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void removeFilm()}>
          Xóa cả phim
        </button>
      </header>
      <ul className="dl-episodes">
        {episodes.map((r) => (
          <EpisodeRow key={r.id} record={r} />
        ))}
      </ul>
    </section>
  );
}

function EpisodeRow({ record: r }: { record: DownloadRecord }) {
  const toggle = async () => {
    const e = await engine();
    if (r.state === 'downloading' || r.state === 'queued') await e.pauseDownload(r.id);
    else await e.resumeDownload(r.id);
  };
  const active = r.state === 'downloading' || r.state === 'queued';
  return (
    <li className="dl-row" data-testid="download-row" data-episode={r.episode}>
      <div className="dl-row-main">
        <Link to="/xem-phim/$slug/$episode" params={{ slug: r.slug, episode: `tap-${r.episode}` }} className="dl-row-title">
          Tập {r.episode}
        </Link>
        <span className="muted">
          {qualityLabel(r.height)} · {formatBytes(r.bytes)}
          {r.state !== 'done' && r.estimate > 0 ? ` / ~${formatBytes(r.estimate)}` : ''}
        </span>
        <span className={`dl-badge dl-${r.state}`} data-testid="download-state">
          {stateLabel(r)}
        </span>
      </div>
      {r.state !== 'done' && (
        <div className="dl-progress" aria-hidden="true">
          <span style={{ width: `${percentOf(r)}%` }} />
        </div>
      )}
      {r.state === 'paused' && r.reason === 'quota' && (
        <p className="dl-problem" role="alert">
          {QUOTA_HELP}
        </p>
      )}
      {r.state === 'error' && <p className="dl-problem">{ERROR_HELP[r.reason ?? 'network'] ?? ERROR_HELP.network}</p>}
      <div className="dl-row-actions">
        {r.state === 'done' ? (
          <Link to="/xem-phim/$slug/$episode" params={{ slug: r.slug, episode: `tap-${r.episode}` }} className="btn btn-sm btn-primary">
            Xem
          </Link>
        ) : (
          <button type="button" className="btn btn-sm btn-ghost" onClick={() => void toggle()}>
            {active ? 'Tạm dừng' : r.state === 'error' ? 'Thử lại' : 'Tiếp tục'}
          </button>
        )}
        <button type="button" className="btn btn-sm btn-ghost" onClick={() => void deleteDownload(r.id)}>
          Xóa
        </button>
      </div>
    </li>
  );
}
