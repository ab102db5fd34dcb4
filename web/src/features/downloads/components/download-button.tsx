import { Link, useRouterState } from '@tanstack/react-router';
import { lazy, Suspense, useState } from 'react';
import type { FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import { canDownload } from '../../../lib/downloads/access';
import { downloadsSupported, useDownload } from '../../../lib/downloads/store';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import { MESSAGES } from '../engine/levels';
import { ERROR_HELP, QUOTA_HELP, stateLabel } from './labels';
import './downloads.css';

const engine = () => import('../engine/downloader');
const QualityDialog = lazy(() => import('./quality-dialog'));

export interface EpisodeDownloadProps {
  film: FilmDetailResponse;
  episode: number;
  server: string;
  /** The episode's stream on this server ('' when it has only an embed link). */
  m3u8: string;
  embed: string;
  /** Keeps the player's script on the device for offline playback (fetched once through the service worker). */
  warmPlayer?: () => void;
}

/**
 * "Tải về" on the watch page: this episode, this server. Its label is the download's state ("Đang chờ",
 * "Đang tải 42%", "Tạm dừng", "Lỗi · Thử lại", "Đã tải"); a tap pauses, resumes or retries. Members without
 * VIP are told it is a VIP perk (visitors: sign in first); an embed-only episode says why it cannot.
 */
export default function DownloadButton({ film, episode, server, m3u8, embed, warmPlayer }: EpisodeDownloadProps) {
  const session = useSession();
  const record = useDownload(film.datafilm.slug, episode);
  const [open, setOpen] = useState(false);
  const [upsell, setUpsell] = useState(false);
  const here = useRouterState({ select: (s) => s.location.href });

  if (!record && !m3u8) {
    return (
      <span className="dl-episode">
        <button type="button" className="btn btn-sm btn-ghost" disabled aria-describedby="dl-embed-reason">
          Tải về
        </button>
        <span id="dl-embed-reason" className="dl-note muted">
          {embed ? MESSAGES.embed : 'Tập này chưa có link xem nên không tải về được.'}
        </span>
      </span>
    );
  }

  if (record) {
    const toggle = async () => {
      const e = await engine();
      if (record.state === 'downloading' || record.state === 'queued') await e.pauseDownload(record.id);
      else await e.resumeDownload(record.id);
    };
    return (
      <span className="dl-episode">
        {record.state === 'done' ? (
          <Link to="/tai-ve" className="btn btn-sm btn-ghost dl-state dl-done" data-testid="download-state">
            Đã tải
          </Link>
        ) : (
          <button
            type="button"
            className={`btn btn-sm btn-ghost dl-state dl-${record.state}`}
            data-testid="download-state"
            onClick={() => void toggle()}
          >
            {stateLabel(record)}
          </button>
        )}
        {record.state === 'paused' && record.reason === 'quota' && (
          <span className="dl-note dl-problem" role="alert">
            {QUOTA_HELP}
          </span>
        )}
        {record.state === 'error' && (
          <span className="dl-note dl-problem">{ERROR_HELP[record.reason ?? 'network'] ?? ERROR_HELP.network}</span>
        )}
      </span>
    );
  }

  const start = () => {
    if (!canDownload(session)) {
      setUpsell(true);
      return;
    }
    if (!downloadsSupported()) {
      toast.error('Trình duyệt này không hỗ trợ tải phim về. Hãy dùng Chrome, Edge, Firefox hoặc Safari (iOS 17.1 trở lên).');
      return;
    }
    setOpen(true);
  };

  return (
    <span className="dl-episode">
      <button type="button" className="btn btn-sm btn-ghost" onClick={start} data-testid="download-button">
        Tải về
      </button>
      {upsell && <Upsell signedIn={!!session} redirect={here} onClose={() => setUpsell(false)} />}
      {open && canDownload(session) && (
        <Suspense fallback={null}>
          <QualityDialog
            title={`${film.datafilm.title} - Tập ${episode}`}
            m3u8={m3u8}
            onClose={() => setOpen(false)}
            onPick={async (level, probe) => {
              warmPlayer?.();
              await (await engine()).startDownload({ film, episode, server, m3u8, probe, level });
              toast.success(`Đang tải về Tập ${episode}. Xem tiến độ ở mục Phim đã tải.`);
            }}
          />
        </Suspense>
      )}
    </span>
  );
}

/** Downloads are a VIP perk: the plans (a visitor signs in first). */
export function Upsell({ signedIn, redirect, onClose }: { signedIn: boolean; redirect: string; onClose: () => void }) {
  return (
    <span className="dl-upsell" role="alert">
      <span>
        Tải phim về xem offline là quyền lợi của thành viên VIP.
        {signedIn ? ' Nâng cấp gói VIP để tải phim về máy.' : ' Hãy đăng nhập rồi đăng ký gói VIP.'}
      </span>
      {signedIn ? (
        <Link to="/dang-ky-goi-vip" className="btn btn-sm btn-primary">
          Xem các gói VIP
        </Link>
      ) : (
        <Link to="/dang-nhap" search={{ redirect } as never} className="btn btn-sm btn-primary">
          Đăng nhập
        </Link>
      )}
      <button type="button" className="btn btn-sm btn-ghost" onClick={onClose}>
        Đóng
      </button>
    </span>
  );
}
