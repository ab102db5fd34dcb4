import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';

export interface PlayerHandle {
  /** The <video> element when playing an m3u8 link; null for embed iframes. */
  video: HTMLVideoElement | null;
  /** The box that goes fullscreen. */
  box: HTMLDivElement | null;
}

interface VideoPlayerProps {
  m3u8: string;
  embed: string;
  title: string;
  poster?: string;
  /** Seconds to start at (resume), applied once the metadata is known. */
  startAt?: number;
  onProgress?: (time: number, duration: number) => void;
  onEnded?: () => void;
  onResumed?: (time: number) => void;
}

/**
 * A real player: m3u8 links play in <video> (native HLS where the browser has it, hls.js otherwise,
 * loaded only here); embed-only links play in the source's iframe.
 */
export const VideoPlayer = forwardRef<PlayerHandle, VideoPlayerProps>(function VideoPlayer(
  { m3u8, embed, title, poster, startAt, onProgress, onEnded, onResumed },
  ref,
) {
  const boxRef = useRef<HTMLDivElement>(null);
  const videoRef = useRef<HTMLVideoElement>(null);
  const [error, setError] = useState<string | null>(null);
  const callbacks = useRef({ onProgress, onEnded, onResumed, startAt });
  callbacks.current = { onProgress, onEnded, onResumed, startAt };

  useImperativeHandle(
    ref,
    () => ({
      get video() {
        return videoRef.current;
      },
      get box() {
        return boxRef.current;
      },
    }),
    [],
  );

  useEffect(() => {
    const video = videoRef.current;
    if (!m3u8 || !video) return;
    setError(null);
    let cancelled = false;
    let destroy: (() => void) | undefined;

    const onMeta = () => {
      const at = callbacks.current.startAt;
      if (at && at > 5 && (!video.duration || at < video.duration - 10)) {
        video.currentTime = at;
        callbacks.current.onResumed?.(at);
      }
    };
    video.addEventListener('loadedmetadata', onMeta, { once: true });

    if (video.canPlayType('application/vnd.apple.mpegurl')) {
      video.src = m3u8;
      destroy = () => {
        video.removeAttribute('src');
        video.load();
      };
    } else {
      void import('hls.js').then(
        ({ default: Hls }) => {
          if (cancelled) return;
          if (!Hls.isSupported()) {
            setError('Trình duyệt không hỗ trợ phát video này.');
            return;
          }
          const hls = new Hls({ maxBufferLength: 30, enableWorker: true });
          let recoveredMedia = false;
          hls.on(Hls.Events.ERROR, (_event, data) => {
            if (!data.fatal) return;
            if (data.type === Hls.ErrorTypes.MEDIA_ERROR && !recoveredMedia) {
              recoveredMedia = true;
              hls.recoverMediaError();
            } else {
              setError(
                data.type === Hls.ErrorTypes.NETWORK_ERROR
                  ? 'Không tải được video. Hãy thử server khác.'
                  : 'Không phát được video. Hãy thử server khác.',
              );
              hls.destroy();
            }
          });
          hls.loadSource(m3u8);
          hls.attachMedia(video);
          destroy = () => hls.destroy();
        },
        () => setError('Không tải được trình phát. Hãy kiểm tra kết nối mạng.'),
      );
    }
    return () => {
      cancelled = true;
      video.removeEventListener('loadedmetadata', onMeta);
      destroy?.();
    };
  }, [m3u8]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: m3u8 decides whether the <video> exists (rendered only with a link): subscribe again when it appears or changes.
  useEffect(() => {
    const video = videoRef.current;
    if (!video) return;
    let last = 0;
    const report = () => callbacks.current.onProgress?.(video.currentTime, video.duration || 0);
    const onTime = () => {
      if (Math.abs(video.currentTime - last) >= 5) {
        last = video.currentTime;
        report();
      }
    };
    const onEnded = () => {
      report();
      callbacks.current.onEnded?.();
    };
    video.addEventListener('timeupdate', onTime);
    video.addEventListener('pause', report);
    video.addEventListener('ended', onEnded);
    window.addEventListener('pagehide', report);
    return () => {
      if (video.currentTime > 0) report();
      video.removeEventListener('timeupdate', onTime);
      video.removeEventListener('pause', report);
      video.removeEventListener('ended', onEnded);
      window.removeEventListener('pagehide', report);
    };
  }, [m3u8]);

  return (
    <div className="player-box" ref={boxRef}>
      {m3u8 ? (
        // biome-ignore lint/a11y/useMediaCaption: the sources carry no caption track; subtitles are burnt into the picture (Vietsub).
        <video
          ref={videoRef}
          className="player-video"
          controls
          playsInline
          preload="metadata"
          poster={poster}
          aria-label={`Video: ${title}`}
          data-testid="video"
        />
      ) : embed ? (
        <iframe
          className="player-iframe"
          src={embed}
          title={`Trình phát: ${title}`}
          allow="autoplay; fullscreen; encrypted-media; picture-in-picture"
          allowFullScreen
          referrerPolicy="no-referrer"
        />
      ) : (
        <p className="player-message">Tập phim này chưa có link xem.</p>
      )}
      {error && (
        <p className="player-message player-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
});
