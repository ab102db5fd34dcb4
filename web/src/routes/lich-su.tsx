import { createFileRoute } from '@tanstack/react-router';
import { HistoryPage } from '../features/library/components/history-page';

/** What the viewer watched: a member's from the account, a visitor's from the device. */
export const Route = createFileRoute('/lich-su')({ component: HistoryPage });
