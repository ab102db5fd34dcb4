import type { FilmDetailResponse } from '../../../worker/schemas/catalogue';
import DownloadButton from '../features/downloads/components/download-button';
import { warmPlayer } from './warm-player';

/**
 * "Tải về" under the player: this episode, this server (issue 26). Drawn with the page (its state comes from
 * the downloads store the watch page reads anyway); the quality dialog and the downloader load on the tap.
 */
export const episodeDownload = (props: { film: FilmDetailResponse; episode: number; server: string; m3u8: string; embed: string }) => (
  <DownloadButton {...props} warmPlayer={warmPlayer} />
);
