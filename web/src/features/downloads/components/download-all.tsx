import { useRouterState } from '@tanstack/react-router';
import { useEffect, useRef, useState } from 'react';
import type { FilmDetailResponse } from '../../../../../worker/schemas/catalogue';
import { canDownload } from '../../../lib/downloads/access';
import { downloadsSupported, isDownloadOf, useDownloads } from '../../../lib/downloads/store';
import { useSession } from '../../../lib/session';
import { toast } from '../../../lib/toast';
import type { Probe } from '../engine/downloader';
import { DownloadProblem, type Level } from '../engine/levels';
import { Upsell } from './download-button';
import QualityDialog from './quality-dialog';
import './downloads.css';

const engine = () => import('../engine/downloader');

/** The same quality on another episode: that height, else the nearest below it, else the lowest. */
function sameQuality(levels: Level[], height: number): Level {
  const below = levels.filter((l) => l.height <= height).sort((a, b) => b.height - a.height);
  return below[0] ?? levels[0]!;
}

/**
 * What "Tải cả phim" does (download-slot.tsx draws the button; this loads on each tap): every episode of one
 * server (the first that has streams), in the quality picked once (the first episode's levels; each other
 * episode at the same height or the nearest below). Episodes already on the device are skipped; the queue
 * runs one episode after another. Without VIP: the upsell.
 */
export default function DownloadAll({ film, warmPlayer }: { film: FilmDetailResponse; warmPlayer?: () => void }) {
  const session = useSession();
  const here = useRouterState({ select: (s) => s.location.href });
  const existing = useDownloads();
  const allowed = canDownload(session);
  const [closed, setClosed] = useState(false);
  const server = film.datafilm.servers.find((s) => s.linkfilms.some((e) => e.link_m3u8));
  const episodes = server?.linkfilms.filter((e) => e.link_m3u8) ?? [];
  const slug = film.datafilm.slug;
  const missing = existing ? episodes.filter((e) => !existing.some((r) => isDownloadOf(r, slug, e.episode))) : [];
  const supported = downloadsSupported();

  // Said once, when the list is known: nothing left to download, or a browser that cannot.
  const told = useRef(false);
  const title = film.datafilm.title;
  useEffect(() => {
    if (told.current || !allowed || !existing) return;
    told.current = true;
    if (!supported) toast.error('Trình duyệt này không hỗ trợ tải phim về.');
    else if (missing.length === 0) toast(`Mọi tập của ${title} đã có trong mục Phim đã tải.`);
  }, [allowed, existing, supported, missing.length, title]);

  if (closed || !server) return null;
  if (!allowed) return <Upsell signedIn={!!session} redirect={here} onClose={() => setClosed(true)} />;
  if (!existing || !supported || missing.length === 0) return null;

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

  return (
    <QualityDialog
      title={`${film.datafilm.title} (${missing.length} tập)`}
      m3u8={missing[0]!.link_m3u8}
      onClose={() => setClosed(true)}
      onPick={queueAll}
    />
  );
}
