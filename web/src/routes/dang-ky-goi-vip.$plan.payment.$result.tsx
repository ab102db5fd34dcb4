import { createFileRoute, notFound } from '@tanstack/react-router';
import type { Gateway } from '../../../worker/schemas/vip';
import { isPlanId } from '../features/vip/components/format';
import { PaymentReturnPage } from '../features/vip/components/payment-return-page';

const GATEWAY_OF_RESULT: Record<string, Gateway> = { 'vnpay-return': 'vnpay', 'momo-return': 'momo' };

export const Route = createFileRoute('/dang-ky-goi-vip/$plan/payment/$result')({
  beforeLoad: ({ params }) => {
    if (!isPlanId(params.plan) || !GATEWAY_OF_RESULT[params.result]) throw notFound();
  },
  component: function PaymentReturnRoute() {
    const { plan, result } = Route.useParams();
    const gateway = GATEWAY_OF_RESULT[result];
    return isPlanId(plan) && gateway ? <PaymentReturnPage plan={plan} gateway={gateway} /> : null;
  },
});
