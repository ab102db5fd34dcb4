/**
 * The episode link's API path (GET /api/product/{slug}/tap-{n}?server=…). The watch page's start path asks it
 * before the app has loaded and leaves the answer for episodeQuery to take (lib/api-client.ts takeBootResponse):
 * both build the key here. No dependencies: the start path's chunk imports it.
 */
export function episodePath(slug: string, episode: number, server: string | undefined): string {
  return `/api/product/${encodeURIComponent(slug)}/tap-${episode}${server ? `?server=${encodeURIComponent(server)}` : ''}`;
}
