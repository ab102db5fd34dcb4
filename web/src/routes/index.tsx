import { createFileRoute } from '@tanstack/react-router';
import { homeQuery } from '../features/catalogue/api/catalogue-queries';
import { HomePage } from '../features/catalogue/components/home-page';
import { awaitOnFirstLoad } from '../lib/first-load';

export const Route = createFileRoute('/')({
  // Later visits start the request with the route and the page shows its own skeleton meanwhile.
  loader: ({ context }) => awaitOnFirstLoad(context.queryClient.ensureQueryData(homeQuery())),
  component: HomePage,
});
