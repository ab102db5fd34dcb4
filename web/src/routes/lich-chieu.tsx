import { createFileRoute } from '@tanstack/react-router';
import { SchedulePage } from '../features/schedule/components/schedule-page';

/** "Lịch chiếu": the week's predicted new episodes of ongoing series. */
export const Route = createFileRoute('/lich-chieu')({ component: SchedulePage });
