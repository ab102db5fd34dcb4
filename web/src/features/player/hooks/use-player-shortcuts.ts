import { useEffect, type RefObject } from 'react';
import type { PlayerHandle } from '../components/video-player';

const SEEK_SECONDS = 10;

/** Space play/pause, F fullscreen, M mute, ←/→ 10 s, anywhere on the page except in form fields and controls. */
export function usePlayerShortcuts(player: RefObject<PlayerHandle | null>, toggleFullscreen: () => void) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
      const target = e.target as HTMLElement | null;
      if (target?.closest('input, textarea, select, button, a, [contenteditable="true"], dialog')) return;
      const video = player.current?.video;
      const key = e.key.toLowerCase();
      if (key === 'f') {
        e.preventDefault();
        toggleFullscreen();
        return;
      }
      if (!video) return;
      if (key === ' ' || e.code === 'Space') {
        e.preventDefault();
        if (video.paused) void video.play().catch(() => undefined);
        else video.pause();
      } else if (key === 'm') {
        e.preventDefault();
        video.muted = !video.muted;
      } else if (e.key === 'ArrowLeft') {
        e.preventDefault();
        video.currentTime = Math.max(0, video.currentTime - SEEK_SECONDS);
      } else if (e.key === 'ArrowRight') {
        e.preventDefault();
        video.currentTime = Math.min(video.duration || Infinity, video.currentTime + SEEK_SECONDS);
      }
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [player, toggleFullscreen]);
}
