// The player's control bar (media-chrome's elements), defined when this module is evaluated. Imported with
// import() by the stream controller once the first frame is out or the page has settled (decision 0952): the
// first frame needs only the engine (stream-engine.ts). The chunk loads on the watch page alone, never on the
// host. Decision 0650. The Vietnamese labels first: each element reads its labels when it is defined.
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
