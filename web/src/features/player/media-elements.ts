// The player's custom elements (media-chrome's controls + hls-video-element), defined when this module is
// evaluated. Imported only by video-player.tsx with import(): the chunk loads on the watch page alone, never
// on the host (the first page's renderer never runs the effect that imports it). Decision 0650.
// The Vietnamese labels first: each element reads its labels when it is defined.
import './media-chrome-vi';
import 'media-chrome/media-controller.js';
import 'media-chrome/media-control-bar.js';
import 'media-chrome/media-play-button.js';
import 'media-chrome/media-time-range.js';
import 'media-chrome/media-time-display.js';
import 'media-chrome/media-mute-button.js';
import 'media-chrome/media-volume-range.js';
import 'media-chrome/media-pip-button.js';
import 'media-chrome/media-fullscreen-button.js';
import 'media-chrome/media-loading-indicator.js';
import 'media-chrome/media-tooltip.js';
import 'media-chrome/menu/media-chrome-menu-item.js';
import 'media-chrome/menu/media-playback-rate-menu.js';
import 'media-chrome/menu/media-playback-rate-menu-button.js';
import 'media-chrome/menu/media-rendition-menu.js';
import 'media-chrome/menu/media-rendition-menu-button.js';
import 'media-chrome/menu/media-captions-menu.js';
import 'media-chrome/menu/media-captions-menu-button.js';
import 'hls-video-element';

export { createHlsConfig } from './hls-config';
