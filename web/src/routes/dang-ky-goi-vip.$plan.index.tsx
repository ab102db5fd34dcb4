import { createFileRoute, notFound } from '@tanstack/react-router';
import { CheckoutPage } from '../features/vip/components/checkout-page';
import { isPlanId, leadingPrice } from '../features/vip/components/format';

export const Route = createFileRoute('/dang-ky-goi-vip/$plan/')({
  validateSearch: (raw: Record<string, unknown>): { price?: number } => {
    const price = leadingPrice(raw.price);
    return price === undefined ? {} : { price };
  },
  beforeLoad: ({ params }) => {
    if (!isPlanId(params.plan)) throw notFound();
  },
  component: function CheckoutRoute() {
    const { plan } = Route.useParams();
    const { price } = Route.useSearch();
    return isPlanId(plan) ? <CheckoutPage plan={plan} price={price} /> : null;
  },
});
