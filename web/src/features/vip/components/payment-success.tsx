import { useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect } from 'react';
import { type Order, PLANS, type OrderStatus } from '../../../../../worker/schemas/vip';
import { refreshRights } from '../api/vip-api';
import { formatDate } from './format';

/** Once an order is paid, the session takes the new rights and personal reads (film details, episode links) are fetched again. */
export function useRightsAfterPayment(status: OrderStatus | undefined): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (status !== 'paid') return;
    void refreshRights()
      .catch(() => undefined)
      .finally(() => queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'vip' }));
  }, [status, queryClient]);
}

/** "Thanh toán thành công!" with the plan's new expiry, the same after a gateway and after a bank transfer. */
export function PaymentSuccess({ order }: { order: Order }) {
  return (
    <section className="vip-result is-ok" role="alert" data-testid="payment-ok">
      <h2 className="vip-result-title">Thanh toán thành công!</h2>
      <p data-testid="payment-success">
        Gói <strong>{PLANS[order.plan].name}</strong> của bạn có hiệu lực đến{' '}
        <strong>{order.expiresAt ? formatDate(order.expiresAt) : '—'}</strong>.
      </p>
      <Link to="/" className="btn btn-primary">
        Xem phim ngay
      </Link>
    </section>
  );
}
