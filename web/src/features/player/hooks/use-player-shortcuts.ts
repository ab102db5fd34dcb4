import { type RefObject, useEffect, useRef } from 'react';
import type { PlayerHandle } from '../components/video-player';

export const SEEK_SECONDS = 10;

interface Shortcuts {
  player: RefObject<PlayerHandle | null>;
  toggleFullscreen: () => void;
  /** N: the next episode (absent at the last one). */
  next?: () => void;
}

/** Typing goes to the field: text inputs, text areas, selects, editable content, and any open dialog. */
function isTyping(path: EventTarget[]): boolean {
  for (const node of path) {
    if (!(node instanceof HTMLElement)) continue;
    if (node.isContentEditable || node.matches('input, textarea, select, dialog[open], [role="dialog"]')) return true;
  }
  return false;
}

/** Arrow keys belong to a focused slider (scrub, volume) or an open menu (speed, quality, captions). */
function ownsArrows(path: EventTarget[]): boolean {
  return path.some(
    (node) =>
      node instanceof HTMLElement &&
      node.matches('[role="slider"], [role="menu"], [role="menuitem"], [role="menuitemradio"], [role="listbox"]'),
  );
}

/**
 * The one place for the player's keys, anywhere on the watch page except while typing in a field:
 * Space/K play or pause, F fullscreen, M mute, ←/→ 10 s, N next episode.
 *
 * Listened to on window in the capture phase, before any element: a handled key is stopped there, so a
 * focused button (ours or the control bar's) is never also activated by Space, and media-chrome's own
 * hotkeys (turned off with `nohotkeys`) never see it: each key acts exactly once.
 */
export function usePlayerShortcuts({ player, toggleFullscreen, next }: Shortcuts) {
  const latest = useRef({ toggleFullscreen, next });
  latest.current = { toggleFullscreen, next };

  useEffect(() => {
    // The Space whose keydown was handled: its keyup is swallowed too (buttons activate on keyup).
    let spaceHandled = false;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
      const path = e.composedPath();
      if (isTyping(path)) return;
      const handled = act(e, path);
      if (!handled) return;
      e.preventDefault();
      e.stopPropagation();
      if (e.code === 'Space' || e.key === ' ') spaceHandled = true;
    };
    const act = (e: KeyboardEvent, path: EventTarget[]): boolean => {
      const media = player.current?.media ?? null;
      const key = e.key.toLowerCase();
      if (key === 'f') {
        if (!e.repeat) latest.current.toggleFullscreen();
        return true;
      }
      if (key === 'n') {
        if (!latest.current.next) return false;
        if (!e.repeat) latest.current.next();
        return true;
      }
      if (!media) return false;
      if (key === ' ' || e.code === 'Space' || key === 'k') {
        if (!e.repeat) player.current?.togglePlay();
        return true;
      }
      if (key === 'm') {
        if (!e.repeat) media.muted = !media.muted;
        return true;
      }
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        if (ownsArrows(path)) return false;
        player.current?.seekBy(e.key === 'ArrowLeft' ? -SEEK_SECONDS : SEEK_SECONDS);
        return true;
      }
      return false;
    };
    const onKeyUp = (e: KeyboardEvent) => {
      if ((e.code === 'Space' || e.key === ' ') && spaceHandled) {
        spaceHandled = false;
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener('keydown', onKeyDown, true);
    window.addEventListener('keyup', onKeyUp, true);
    return () => {
      window.removeEventListener('keydown', onKeyDown, true);
      window.removeEventListener('keyup', onKeyUp, true);
    };
  }, [player]);
}
