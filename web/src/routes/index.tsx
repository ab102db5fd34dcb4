import { createFileRoute } from '@tanstack/react-router';
import { homeTopQuery } from '../features/catalogue/api/catalogue-queries';
import { HomePage } from '../features/catalogue/components/home-page';
import { awaitOnFirstLoad } from '../lib/first-load';

export const Route = createFileRoute('/')({
  // Later visits start the request with the route and the page shows its own skeleton meanwhile. The page
  // asks the rest of the home itself (homeQuery), so the host renders and carries the first screen only.
  loader: ({ context }) => awaitOnFirstLoad(context.queryClient.ensureQueryData(homeTopQuery())),
  component: HomePage,
});
