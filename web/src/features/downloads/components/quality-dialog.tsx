import { useEffect, useId, useRef, useState } from 'react';
import { formatBytes } from '../../../lib/downloads/store';
import type { Probe } from '../engine/downloader';
import { DownloadProblem, defaultLevel, estimateBytes, type Level } from '../engine/levels';
import { qualityLabel } from './labels';

const engine = () => import('../engine/downloader');

/**
 * The choice of quality: each level of the stream with its resolution and estimated size ("540p · ~135 MB"),
 * the space left on the device, the default (highest ≤ 720p) first in focus. A tap on a level starts the
 * download. A source that refuses cross-origin reads, a live stream or a full device is said here, before
 * anything is stored.
 */
export default function QualityDialog({
  title,
  m3u8,
  onPick,
  onClose,
}: {
  title: string;
  m3u8: string;
  /** Starts the download(s); a thrown DownloadProblem is shown in the dialog. */
  onPick: (level: Level, probe: Probe) => Promise<void>;
  onClose: () => void;
}) {
  const [probe, setProbe] = useState<Probe | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const headingId = useId();
  const defaultRef = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let live = true;
    engine()
      .then((e) => e.probe(m3u8))
      .then(
        (p) => live && setProbe(p),
        (error: unknown) => {
          if (!(error instanceof DownloadProblem)) console.error('[tải về] nguồn phim', error);
          if (live) setProblem(error instanceof DownloadProblem ? error.message : 'Không đọc được nguồn phim. Hãy thử lại sau.');
        },
      );
    return () => {
      live = false;
    };
  }, [m3u8]);

  useEffect(() => {
    if (probe) defaultRef.current?.focus();
  }, [probe]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);

  const pick = async (level: Level) => {
    if (!probe || busy) return;
    // Asked inside the tap (the browser decides silently); the downloads page says whether it was granted.
    void navigator.storage?.persist?.().catch(() => false);
    setBusy(true);
    try {
      await onPick(level, probe);
      onClose();
    } catch (error) {
      setProblem(error instanceof DownloadProblem ? error.message : 'Không bắt đầu tải được. Hãy thử lại.');
      setBusy(false);
    }
  };

  const levels = probe?.master.levels ?? [];
  const chosen = defaultLevel(levels);
  const fitsLevel = (l: Level) => !probe || probe.free === undefined || estimateBytes(l, probe.duration) <= probe.free * 0.9;
  const noneFits = probe && levels.length > 0 && !levels.some(fitsLevel);

  return (
    <div className="dl-backdrop" onPointerDown={(e) => e.target === e.currentTarget && onClose()}>
      <div className="dl-sheet" role="dialog" aria-modal="true" aria-labelledby={headingId}>
        <h2 id={headingId} className="dl-sheet-title">
          Tải về · {title}
        </h2>
        {problem ? (
          <p className="dl-problem" role="alert">
            {problem}
          </p>
        ) : !probe ? (
          <p role="status" className="muted">
            Đang kiểm tra nguồn phim...
          </p>
        ) : (
          <>
            <p className="muted">Chọn chất lượng:</p>
            <ul className="dl-levels">
              {[...levels].reverse().map((level) => {
                const i = levels.indexOf(level);
                const ok = fitsLevel(level);
                return (
                  <li key={level.url}>
                    <button
                      ref={i === chosen ? defaultRef : undefined}
                      type="button"
                      className={`btn btn-block ${i === chosen ? 'btn-primary' : 'btn-ghost'}`}
                      disabled={busy || !ok}
                      onClick={() => void pick(level)}
                    >
                      {qualityLabel(level.height)}
                      {level.bandwidth > 0 ? ` · ~${formatBytes(estimateBytes(level, probe.duration))}` : ''}
                    </button>
                  </li>
                );
              })}
            </ul>
            {noneFits && (
              <p className="dl-problem" role="alert">
                Hết dung lượng: máy không còn đủ chỗ cho tập này. Hãy xóa bớt phim đã tải hoặc giải phóng bộ nhớ của máy.
              </p>
            )}
            {probe.free !== undefined && <p className="muted dl-free">Còn trống trên máy: {formatBytes(probe.free)}</p>}
          </>
        )}
        <button type="button" className="btn btn-ghost btn-sm dl-close" onClick={onClose}>
          Đóng
        </button>
      </div>
    </div>
  );
}
