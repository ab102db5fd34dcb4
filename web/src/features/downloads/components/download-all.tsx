import { useRouterState } from '@tanstack/react-router';
import { useState } from 'react';
import type { FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import { canDownload } from '../../../lib/downloads/access';
import { downloadId, downloadsSupported, useDownloads } from '../../../lib/downloads/store';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import type { Probe } from '../engine/downloader';
import { DownloadProblem, type Level } from '../engine/levels';
import { Upsell } from './download-button';
import { QualityDialog } from './quality-dialog';
import './downloads.css';

const engine = () => import('../engine/downloader');

/** The same quality on another episode: that height, else the nearest below it, else the lowest. */
function sameQuality(levels: Level[], height: number): Level {
  const below = levels.filter((l) => l.height <= height).sort((a, b) => b.height - a.height);
  return below[0] ?? levels[0]!;
}

/**
 * "Tải cả phim" on the film page: every episode of one server (the first that has streams), in the quality
 * picked once (the first episode's levels; each other episode at the same height or the nearest below).
 * Episodes already on the device are skipped; the queue runs one episode after another.
 */
export default function DownloadAll({
  film,
  warmPlayer,
  openAtOnce,
}: {
  film: FilmDetailResponse;
  warmPlayer?: () => void;
  openAtOnce?: boolean;
}) {
  const session = useSession();
  const here = useRouterState({ select: (s) => s.location.href });
  const existing = useDownloads();
  const [open, setOpen] = useState(!!openAtOnce && canDownload(session));
  const [upsell, setUpsell] = useState(!!openAtOnce && !canDownload(session));
  const server = film.datafilm.servers.find((s) => s.linkfilms.some((e) => e.link_m3u8));
  const episodes = server?.linkfilms.filter((e) => e.link_m3u8) ?? [];
  const slug = film.datafilm.slug;
  const missing = episodes.filter((e) => !existing?.some((r) => r.id === downloadId(slug, e.episode)));

  if (!server) {
    return (
      <span className="dl-episode">
        <button type="button" className="btn btn-ghost" disabled aria-describedby="dl-all-reason">
          Tải cả phim
        </button>
        <span id="dl-all-reason" className="dl-note muted">
          {MESSAGES_EMBED}
        </span>
      </span>
    );
  }

  const queueAll = async (level: Level, probe: Probe) => {
    warmPlayer?.();
    const e = await engine();
    const first = missing[0];
    let queued = 0;
    const failed: string[] = [];
    for (const ep of missing) {
      try {
        const p = ep === first ? probe : await e.probe(ep.link_m3u8);
        await e.startDownload({
          film,
          episode: ep.episode,
          server: server.server_name,
          m3u8: ep.link_m3u8,
          probe: p,
          level: sameQuality(p.master.levels, level.height),
        });
        queued++;
      } catch (error) {
        // The first episode's refusal is the dialog's to say (nothing queued yet).
        if (queued === 0 && ep === first) throw error;
        failed.push(`Tập ${ep.episode}: ${error instanceof DownloadProblem ? error.message : 'lỗi'}`);
      }
    }
    toast.success(`Đã xếp ${queued} tập vào hàng tải về. Xem tiến độ ở mục Phim đã tải.`);
    if (failed.length) toast.error(`Không tải được ${failed.length} tập. ${failed.slice(0, 2).join('; ')}`);
  };

  const start = () => {
    if (!canDownload(session)) {
      setUpsell(true);
      return;
    }
    if (!downloadsSupported()) {
      toast.error('Trình duyệt này không hỗ trợ tải phim về.');
      return;
    }
    if (missing.length === 0) {
      toast(`Mọi tập của ${film.datafilm.title} đã có trong mục Phim đã tải.`);
      return;
    }
    setOpen(true);
  };

  return (
    <span className="dl-episode">
      <button type="button" className="btn btn-ghost" onClick={start} data-testid="download-all">
        Tải cả phim
      </button>
      {upsell && <Upsell signedIn={!!session} redirect={here} onClose={() => setUpsell(false)} />}
      {open && missing[0] && (
        <QualityDialog
          title={`${film.datafilm.title} (${missing.length} tập)`}
          m3u8={missing[0].link_m3u8}
          onClose={() => setOpen(false)}
          onPick={queueAll}
        />
      )}
    </span>
  );
}

const MESSAGES_EMBED = 'Phim này chỉ có trình phát nhúng của nguồn nên không tải về được.';
