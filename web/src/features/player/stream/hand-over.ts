// The film page's tap starts the episode's stream before the watch page exists (issue 40 §6, decision 0952).
// Between the tap on "Xem phim" and the player's mount the phone's main thread draws the watch page (~400 ms on the
// phone profile), and the media pipeline (hls.js's instance, the MediaSource, the worker's transmux, the appends)
// used to start only after it. Now the tap builds the player's <hls-video> off the page (player-markup.ts) and attaches
// the stream to it without playing, so those steps run beside the render; the watch page's player takes that element
// in place of its own (video-player.tsx) and plays it with the tap's activation, as it would have played its own.
// Nothing plays before the watch page has it: a viewer who goes elsewhere hears nothing, and the stream is let go.
import { PLAYER_HOST_ATTRIBUTES, videoHtml } from '../player-markup';
import { type HlsHost, type StreamController, streamControllerFor } from './controller';

/** Not taken by then: the viewer went elsewhere (or the watch page could not come), and the stream is let go. */
const HAND_OVER_MS = 10_000;

export interface HandedPlayer {
  host: HlsHost;
  video: HTMLVideoElement;
}

interface Handing {
  /** Until the link is known, the player is still to be built; a take before then cancels it. */
  player?: HandedPlayer & { m3u8: string; startAt: number; controller: StreamController };
  timer: ReturnType<typeof setTimeout>;
}

let handing: Handing | undefined;
/** The last stream a player mounted with when there was nothing to take. */
let declined: { m3u8: string; at: number } | undefined;

/**
 * The tap: the episode's stream is attached to a player built here, for the watch page to take. `link` is the m3u8
 * (built at once), or the episode's link still on its way ('' or a failure: nothing to hand over).
 */
export function handOverPlayer(link: string | Promise<string | undefined>, startAt: number): void {
  dropHandedPlayer();
  const current: Handing = { timer: setTimeout(dropHandedPlayer, HAND_OVER_MS) };
  handing = current;
  const build = (m3u8: string | undefined) => {
    // The watch page's player came first (the preparation's code was late): it has made its own.
    if (handing !== current || !m3u8 || (declined?.m3u8 === m3u8 && Date.now() - declined.at < HAND_OVER_MS)) return;
    const host = document.createElement('hls-video') as HlsHost;
    for (const [name, value] of Object.entries(PLAYER_HOST_ATTRIBUTES)) host.setAttribute(name, value);
    host.innerHTML = videoHtml('');
    const video = host.querySelector('video') as HTMLVideoElement;
    const controller = streamControllerFor(video, host, { m3u8, startAt, failover: true });
    current.player = { host, video, m3u8, startAt, controller };
    controller.warm();
  };
  if (typeof link === 'string') build(link);
  else void link.then(build, () => undefined);
}

/**
 * The watch page's player, mounting with this stream: the element the tap built, attached already (its controller is
 * the one `streamControllerFor` gives for its <video>), taken once. Anything else (another stream, another start, a
 * player still waiting for its link) is let go: the page's player makes its own.
 */
export function takeHandedPlayer(m3u8: string, startAt: number): HandedPlayer | undefined {
  const current = handing;
  if (!current?.player) declined = { m3u8, at: Date.now() };
  if (!current) return undefined;
  handing = undefined;
  clearTimeout(current.timer);
  const player = current.player;
  if (player && player.m3u8 === m3u8 && Math.abs(player.startAt - startAt) < 1 && !player.controller.isDestroyed) return player;
  release(current);
  return undefined;
}

function dropHandedPlayer(): void {
  const current = handing;
  if (!current) return;
  handing = undefined;
  clearTimeout(current.timer);
  release(current);
}

function release({ player }: Handing): void {
  if (!player) return;
  player.controller.destroy();
  // hls-video destroys its hls.js instance when its source goes.
  player.host.removeAttribute('src');
}
