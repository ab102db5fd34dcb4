import { type RefObject, useEffect, useRef } from 'react';
import { listen } from '../../../lib/listen';

interface Session {
  /** 'Film - Tập 3' */
  title: string;
  /** The film's name, shown under the title on the lock screen. */
  album: string;
  poster?: string;
  /** Next episode; absent at the last one. */
  next?: () => void;
  seekBy: (seconds: number) => void;
}

const SEEK_SECONDS = 10;

/**
 * The lock screen, notification and media keys (Media Session API, where the browser has it): the episode's
 * title and poster, play/pause, seek ∓10 s, seek to a position, and the next episode.
 */
export function useMediaSession(video: RefObject<HTMLVideoElement | null>, enabled: boolean, session: Session) {
  const latest = useRef(session);
  latest.current = session;
  const { title, album, poster } = session;
  const hasNext = !!session.next;

  useEffect(() => {
    const media = video.current;
    if (!enabled || !media || !('mediaSession' in navigator) || typeof MediaMetadata === 'undefined') return;
    const ms = navigator.mediaSession;
    const artwork = poster ? [{ src: new URL(poster, location.href).href, sizes: '350x490' }] : [];
    ms.metadata = new MediaMetadata({ title, artist: 'PhimViet', album, artwork });

    const handlers: [MediaSessionAction, MediaSessionActionHandler | null][] = [
      ['play', () => void media.play().catch(() => undefined)],
      ['pause', () => media.pause()],
      ['seekbackward', (d) => latest.current.seekBy(-(d.seekOffset ?? SEEK_SECONDS))],
      ['seekforward', (d) => latest.current.seekBy(d.seekOffset ?? SEEK_SECONDS)],
      [
        'seekto',
        (d) => {
          if (d.seekTime === undefined) return;
          if (d.fastSeek && 'fastSeek' in media) media.fastSeek(d.seekTime);
          else media.currentTime = d.seekTime;
        },
      ],
      ['nexttrack', hasNext ? () => latest.current.next?.() : null],
    ];
    for (const [action, handler] of handlers) {
      try {
        ms.setActionHandler(action, handler);
      } catch {
        // an action this browser does not know
      }
    }
    const state = () => {
      ms.playbackState = media.paused ? 'paused' : 'playing';
    };
    const position = () => {
      if (!Number.isFinite(media.duration) || media.duration <= 0) return;
      try {
        ms.setPositionState({
          duration: media.duration,
          playbackRate: media.playbackRate,
          position: Math.min(media.currentTime, media.duration),
        });
      } catch {
        // an inconsistent state while seeking: the next update corrects it
      }
    };
    const stop = listen(media, [
      ['play', state],
      ['pause', state],
      ['loadedmetadata', position],
      ['seeked', position],
      ['ratechange', position],
      ['play', position],
    ]);
    state();
    return () => {
      stop();
      for (const [action] of handlers) {
        try {
          ms.setActionHandler(action, null);
        } catch {
          // as above
        }
      }
      ms.metadata = null;
      ms.playbackState = 'none';
    };
  }, [video, enabled, title, album, poster, hasNext]);
}
