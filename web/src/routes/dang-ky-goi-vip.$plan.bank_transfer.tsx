import { createFileRoute, notFound, redirect } from '@tanstack/react-router';
import { BankTransferPage } from '../features/vip/components/bank-transfer-page';
import { isPlanId } from '../features/vip/components/format';

export const Route = createFileRoute('/dang-ky-goi-vip/$plan/bank_transfer')({
  validateSearch: (raw: Record<string, unknown>): { order?: string } =>
    typeof raw.order === 'string' && /^[0-9a-f]{32}$/.test(raw.order) ? { order: raw.order } : {},
  beforeLoad: ({ params, context, location }) => {
    if (!isPlanId(params.plan)) throw notFound();
    // The order is the signed-in buyer's: signed out, sign in first and come back here.
    if (!context.auth) throw redirect({ to: '/dang-nhap', search: { redirect: location.href }, replace: true });
  },
  component: function BankTransferRoute() {
    const { plan } = Route.useParams();
    const { order } = Route.useSearch();
    return isPlanId(plan) ? <BankTransferPage plan={plan} orderId={order} /> : null;
  },
});
