import { createFileRoute } from '@tanstack/react-router';
import { WatchlistPage } from '../features/library/components/watchlist-page';

/** The viewer's list: a member's from the account, a visitor's from the device. */
export const Route = createFileRoute('/tu-phim')({ component: WatchlistPage });
