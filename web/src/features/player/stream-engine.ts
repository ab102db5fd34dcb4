// The stream's engine: hls-video-element (hls.js, or the browser's own HLS) and what the player adds to hls.js
// (hls-config.ts), defined when this module is evaluated. Imported with import() by the stream controller
// (stream/controller.ts) when the viewer plays or the page has settled; the control bar (media-elements.ts)
// comes after the first frame. Never on the host, never precached by the service worker (decision 0952).
import 'hls-video-element';

export { createHlsConfig, TRANSMUX_WORKER_URL } from './hls-config';
