// The app tells the stream's start path (features/player/stream-start.ts) when the first page's own code and data
// are in (main.tsx, after router.load()): what the start path fetches ahead for the next page then neither competes
// with them on a phone's connection nor fetches a chunk the page is still loading a second time. No dependencies:
// the start path imports it before the app has loaded.

const ATTRIBUTE = 'data-first-route';
const EVENT = 'phimviet:first-route';

export function markFirstRouteLoaded(): void {
  document.documentElement.setAttribute(ATTRIBUTE, '');
  document.dispatchEvent(new Event(EVENT));
}

/** Resolves once the first page's code and data are in (at once when they already are). */
export function whenFirstRouteLoaded(): Promise<void> {
  if (document.documentElement.hasAttribute(ATTRIBUTE)) return Promise.resolve();
  return new Promise((resolve) => document.addEventListener(EVENT, () => resolve(), { once: true }));
}
