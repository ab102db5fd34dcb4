// The player's media element, as the player renders it (components/video-player.tsx) and as the film page's tap
// builds it ahead for the watch page (stream/hand-over.ts): one markup, so the element handed over is the one the
// player would have rendered.

/** <hls-video>'s attributes: media-chrome's media slot, the player's styles, metadata only until played. */
export const PLAYER_HOST_ATTRIBUTES = { slot: 'media', class: 'player-media', preload: 'metadata' } as const;

/** The player's <video>, as HTML: `slot="media"` for media-chrome, playsinline for iPhone, metadata only until played. */
export function videoHtml(title: string): string {
  const label = videoLabel(title).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<video slot="media" class="player-video" playsinline preload="metadata" aria-label="${label}" data-testid="video"></video>`;
}

/** The <video>'s accessible name. */
export function videoLabel(title: string): string {
  return `Video: ${title}`;
}
