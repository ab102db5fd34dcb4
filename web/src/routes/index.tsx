import { createFileRoute } from '@tanstack/react-router';
import { homeQuery } from '../features/catalogue/api/catalogue-queries';
import { HomePage } from '../features/catalogue/components/home-page';

export const Route = createFileRoute('/')({
  // Start the request with the route, not after the page's code arrives; the page shows its own skeleton.
  loader: ({ context }) => {
    void context.queryClient.prefetchQuery(homeQuery());
  },
  component: HomePage,
});
