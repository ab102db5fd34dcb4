import { type RefObject, useEffect, useRef } from 'react';
import type { PlayerHandle } from '../components/video-player';

export const SEEK_SECONDS = 10;
/** ↑/↓ change the volume by this much. */
export const VOLUME_STEP = 0.1;

interface Shortcuts {
  player: RefObject<PlayerHandle | null>;
  toggleFullscreen: () => void;
  /** N or Shift+N: the next episode (absent at the last one). */
  next?: () => void;
  /** Shift+P: the previous episode (absent at the first one). */
  previous?: () => void;
  /** "?": the list of keys ("Phím tắt"). */
  showHelp?: () => void;
  /** S: skips the learned intro while "Bỏ qua giới thiệu" shows; answers whether it did. */
  skip?: () => boolean;
}

/** The keys as the "Phím tắt" dialog lists them, in its order. */
export const SHORTCUT_KEYS: readonly { keys: string; does: string }[] = [
  { keys: 'Space, K', does: 'Phát / tạm dừng' },
  { keys: 'J, ←', does: `Lùi ${SEEK_SECONDS} giây` },
  { keys: 'L, →', does: `Tới ${SEEK_SECONDS} giây` },
  { keys: '↑, ↓', does: 'Tăng, giảm âm lượng' },
  { keys: 'M', does: 'Tắt / bật tiếng' },
  { keys: '0 … 9', does: 'Tới 0 % … 90 % của tập' },
  { keys: 'F', does: 'Toàn màn hình' },
  { keys: 'N, Shift+N', does: 'Tập tiếp theo' },
  { keys: 'Shift+P', does: 'Tập trước' },
  { keys: 'S', does: 'Bỏ qua giới thiệu' },
  { keys: '?', does: 'Mở danh sách phím tắt' },
];

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
 * The one place for the player's keys, anywhere on the watch page except while typing in a field or with a dialog
 * open: Space/K play or pause, J/L and ←/→ 10 s, ↑/↓ volume, 0–9 to 0–90 %, M mute, F fullscreen, N and Shift+N next
 * episode, Shift+P previous, S skip the intro, "?" the list (SHORTCUT_KEYS).
 *
 * Listened to on window in the capture phase, before any element: a handled key is stopped there, so a
 * focused button (ours or the control bar's) is never also activated by Space, and media-chrome's own
 * hotkeys (turned off with `nohotkeys`) never see it: each key acts exactly once.
 */
export function usePlayerShortcuts({ player, toggleFullscreen, next, previous, showHelp, skip }: Shortcuts) {
  const latest = useRef({ toggleFullscreen, next, previous, showHelp, skip });
  latest.current = { toggleFullscreen, next, previous, showHelp, skip };

  useEffect(() => {
    // The Space whose keydown was handled: its keyup is swallowed too (buttons activate on keyup).
    let spaceHandled = false;
    const onKeyDown = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || e.isComposing) return;
      const path = e.composedPath();
      // An open modal (a form, "Phím tắt") owns the keys even when focus has not moved into it.
      if (isTyping(path) || document.querySelector('dialog[open], [role="dialog"][aria-modal="true"]')) return;
      const handled = act(e, path);
      if (!handled) return;
      e.preventDefault();
      e.stopPropagation();
      if (e.code === 'Space' || e.key === ' ') spaceHandled = true;
    };
    const act = (e: KeyboardEvent, path: EventTarget[]): boolean => {
      const media = player.current?.media ?? null;
      const key = e.key.toLowerCase();
      const { toggleFullscreen, next, previous, showHelp, skip } = latest.current;
      if (e.key === '?') {
        if (!showHelp) return false;
        if (!e.repeat) showHelp();
        return true;
      }
      if (key === 'f') {
        if (!e.repeat) toggleFullscreen();
        return true;
      }
      if (key === 'n') {
        if (!next) return false;
        if (!e.repeat) next();
        return true;
      }
      if (key === 's' && !e.shiftKey) {
        // Only while the button shows: otherwise the key is not the player's.
        if (e.repeat) return !!skip;
        return skip?.() ?? false;
      }
      if (key === 'p' && e.shiftKey) {
        if (!previous) return false;
        if (!e.repeat) previous();
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
      if (key === 'j' || key === 'l') {
        player.current?.seekBy(key === 'j' ? -SEEK_SECONDS : SEEK_SECONDS);
        return true;
      }
      if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
        if (ownsArrows(path)) return false;
        player.current?.seekBy(e.key === 'ArrowLeft' ? -SEEK_SECONDS : SEEK_SECONDS);
        return true;
      }
      if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
        if (ownsArrows(path)) return false;
        const up = e.key === 'ArrowUp';
        // Rounded to the step, so five presses up from 0.5 land on 1 exactly.
        media.volume = Math.min(1, Math.max(0, Math.round((media.volume + (up ? VOLUME_STEP : -VOLUME_STEP)) * 10) / 10));
        if (up && media.muted) media.muted = false;
        return true;
      }
      // 0–9 (the row or the keypad, never with Shift: that row types symbols) go to 0 %–90 % of the episode.
      if (/^Digit\d$|^Numpad\d$/.test(e.code) && !e.shiftKey) {
        const duration = media.duration;
        if (!Number.isFinite(duration) || duration <= 0) return true;
        const tenth = Number(e.code.at(-1));
        player.current?.seekBy((duration * tenth) / 10 - media.currentTime);
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
