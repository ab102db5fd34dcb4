// The first page rendered on the host (issue 10; docs/decisions/0606-first-page-rendered-on-the-host.md):
// built by `vite build --ssr` into worker/ssr/dist/entry-server.js and called by both hosts through
// worker/ssr/render.ts. Only a door: the renderer and everything it shares with the route chunks live in
// chunks, so no chunk imports this entry back (a module loader that names the entry differently from the
// chunks, as the Workers test pool's does, would otherwise load React and its contexts twice).
import type { ApiFetch, RenderedPage } from './app/render-page';

export type { ApiFetch, RenderedPage };

/**
 * The app's stylesheet in pieces, for the host to put in each page only the rules its markup uses
 * (worker/ssr/critical-css.ts); null when the browser's build was not there to read it from.
 */
export { default as stylesheet } from 'virtual:app-stylesheet';

/** Loaded with this door (the Worker imports it as its isolate starts), so no page waits for it to compile. */
const renderer = import('./app/render-page');

export async function renderPage(url: string, fetchApi: ApiFetch, origin: string): Promise<RenderedPage | null> {
  const { renderPage: render } = await renderer;
  return render(url, fetchApi, origin);
}

/**
 * Renders each kind of page a few times with a one-film catalogue (app/warm-up.ts), so a fresh isolate's first
 * page runs compiled code. The Worker calls it while its isolate starts, when nothing else runs; resolves with
 * the number of pages rendered.
 */
export async function warmUp(): Promise<number> {
  const { warmUpRenderer } = await renderer;
  return warmUpRenderer();
}
