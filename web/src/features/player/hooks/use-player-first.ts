import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';

/** The longest the rest of the watch page waits for the video to play. */
const REST_OF_PAGE_AFTER_MS = 1000;

/**
 * Whether the watch page renders everything, or the player alone for now. After a navigation (the tap on "Xem phim"),
 * the player renders first and the rest of the page (episode list, synopsis, comments, sidebar) once the video plays
 * or a second has passed, in a transition. The stream's start (its source opening, the first segment appended, the
 * first frame) needs the main thread, which on a phone the rest of the page's render, style and layout held for
 * ~300 ms after the play (decision 0952). A page the host rendered hydrates whole, as the host sent it.
 */
export function usePlayerFirst(): boolean {
  // The server's snapshot is what the server rendered and what hydration must match; a later render reads the client's.
  const hostRendered = useSyncExternalStore(noSubscription, rendersInBrowser, rendersOnHost);
  const [whole, setWhole] = useState(hostRendered);
  useEffect(() => {
    if (whole) return;
    const show = () => startTransition(() => setWhole(true));
    const timer = window.setTimeout(show, REST_OF_PAGE_AFTER_MS);
    // The player's media element re-dispatches the video's events on itself; they do not bubble, capture sees them.
    document.addEventListener('playing', show, { capture: true, once: true });
    return () => {
      window.clearTimeout(timer);
      document.removeEventListener('playing', show, { capture: true });
    };
  }, [whole]);
  return whole;
}

const noSubscription = () => () => undefined;
const rendersInBrowser = () => false;
const rendersOnHost = () => true;
