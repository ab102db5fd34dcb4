import { createFileRoute } from '@tanstack/react-router';
import { DownloadsPage } from '../features/downloads/components/downloads-page';

/** "Phim đã tải" (issue 26): what this device keeps for watching offline. Opens offline (the service worker's shell). */
export const Route = createFileRoute('/tai-ve')({
  component: DownloadsPage,
});
