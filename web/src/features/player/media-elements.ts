// The player's custom elements (media-chrome's controls + hls-video-element), defined when this module is
// evaluated. Imported only by video-player.tsx with import(): the chunk loads on the watch page alone, never
// on the host (the first page's renderer never runs the effect that imports it). Decision 0612.
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
import 'media-chrome/menu/media-playback-rate-menu.js';
import 'media-chrome/menu/media-playback-rate-menu-button.js';
import 'media-chrome/menu/media-rendition-menu.js';
import 'media-chrome/menu/media-rendition-menu-button.js';
import 'media-chrome/menu/media-captions-menu.js';
import 'media-chrome/menu/media-captions-menu-button.js';
import 'hls-video-element';
import { addTranslation } from 'media-chrome/utils/i18n.js';

/** media-chrome's labels, tooltips and screen-reader texts in Vietnamese (`lang="vi"` on the controller). */
const VI: Record<string, string> = {
  'Start airplay': 'Phát qua AirPlay',
  'Stop airplay': 'Dừng AirPlay',
  Audio: 'Âm thanh',
  Captions: 'Phụ đề',
  'Enable captions': 'Bật phụ đề',
  'Disable captions': 'Tắt phụ đề',
  'Start casting': 'Truyền lên TV',
  'Stop casting': 'Dừng truyền',
  'Enter fullscreen mode': 'Toàn màn hình',
  'Exit fullscreen mode': 'Thoát toàn màn hình',
  Mute: 'Tắt tiếng',
  Unmute: 'Bật tiếng',
  Loop: 'Lặp lại',
  'Enter picture in picture mode': 'Hình trong hình',
  'Exit picture in picture mode': 'Thoát hình trong hình',
  Play: 'Phát',
  Pause: 'Tạm dừng',
  'Playback rate': 'Tốc độ phát',
  'Playback rate {playbackRate}': 'Tốc độ phát {playbackRate}',
  Quality: 'Chất lượng',
  'Seek backward': 'Tua lại',
  'Seek forward': 'Tua tới',
  Settings: 'Cài đặt',
  Auto: 'Tự động',
  'audio player': 'trình phát âm thanh',
  'video player': 'trình phát video',
  volume: 'âm lượng',
  seek: 'tua',
  'closed captions': 'phụ đề',
  'current playback rate': 'tốc độ phát hiện tại',
  'playback time': 'thời gian phát',
  'media loading': 'đang tải video',
  settings: 'cài đặt',
  'audio tracks': 'kênh âm thanh',
  quality: 'chất lượng',
  play: 'phát',
  pause: 'tạm dừng',
  mute: 'tắt tiếng',
  unmute: 'bật tiếng',
  'chapter: {chapterName}': 'chương: {chapterName}',
  live: 'trực tiếp',
  Off: 'Tắt',
  'start airplay': 'phát qua AirPlay',
  'stop airplay': 'dừng AirPlay',
  'start casting': 'truyền lên TV',
  'stop casting': 'dừng truyền',
  'enter fullscreen mode': 'toàn màn hình',
  'exit fullscreen mode': 'thoát toàn màn hình',
  'enter picture in picture mode': 'hình trong hình',
  'exit picture in picture mode': 'thoát hình trong hình',
  'seek to live': 'về trực tiếp',
  'playing live': 'đang phát trực tiếp',
  'seek back {seekOffset} seconds': 'tua lại {seekOffset} giây',
  'seek forward {seekOffset} seconds': 'tua tới {seekOffset} giây',
  'Network Error': 'Lỗi mạng',
  'Decode Error': 'Lỗi giải mã',
  'Source Not Supported': 'Không hỗ trợ nguồn phát',
  'Encryption Error': 'Lỗi mã hóa',
  'A network error caused the media download to fail.': 'Lỗi mạng khiến video không tải được.',
  'A media error caused playback to be aborted. The media could be corrupt or your browser does not support this format.':
    'Video bị lỗi hoặc trình duyệt không hỗ trợ định dạng này.',
  'An unsupported error occurred. The server or network failed, or your browser does not support this format.':
    'Không phát được: máy chủ hoặc mạng gặp lỗi, hoặc trình duyệt không hỗ trợ định dạng này.',
  'The media is encrypted and there are no keys to decrypt it.': 'Video được mã hóa và không có khóa giải mã.',
  hour: 'giờ',
  hours: 'giờ',
  minute: 'phút',
  minutes: 'phút',
  second: 'giây',
  seconds: 'giây',
  '{time} remaining': 'còn {time}',
  '{currentTime} of {totalTime}': '{currentTime} trên {totalTime}',
  'video not loaded, unknown time.': 'chưa tải video, chưa rõ thời lượng.',
};
addTranslation('vi', VI);
