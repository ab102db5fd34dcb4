import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { METHOD_LABELS, PLANS, STATUS_LABELS } from '../../../../../worker/schemas/vip';
import { useSession } from '../../../lib/session';
import { ordersQuery, subscriptionQuery } from '../api/vip-api';
import { formatDate, formatVnd } from './format';
import './vip.css';

/** /account: the VIP plan, its expiry and the payment history. */
export function VipAccountSection() {
  const session = useSession();
  const subscription = useQuery({ ...subscriptionQuery(session?.id ?? ''), enabled: !!session });
  const orders = useQuery({ ...ordersQuery(session?.id ?? ''), enabled: !!session });
  if (!session) return null;
  const current = subscription.data?.subscriptions ?? [];
  return (
    <div className="container vip-account">
      <section className="auth-card account-card" aria-labelledby="vip-heading">
        <h2 id="vip-heading" className="section-title">
          Gói VIP
        </h2>
        {current.length > 0 ? (
          <dl className="meta-list" data-testid="vip-subscription">
            {current.map((s) => (
              <div key={s.plan}>
                <dt>{PLANS[s.plan].name}</dt>
                <dd>Hiệu lực đến {formatDate(s.expiresAt)}</dd>
              </div>
            ))}
          </dl>
        ) : (
          <p className="muted" data-testid="vip-subscription">
            Bạn chưa có gói VIP đang hoạt động.
          </p>
        )}
        <Link to="/dang-ky-goi-vip" className="btn btn-primary">
          {current.length > 0 ? 'Gia hạn hoặc nâng cấp' : 'Đăng ký gói VIP'}
        </Link>
        <h3 className="vip-history-title">Lịch sử thanh toán</h3>
        {orders.data && orders.data.length === 0 && <p className="muted">Chưa có giao dịch nào.</p>}
        {orders.data && orders.data.length > 0 && (
          <div className="vip-table-wrap">
            <table className="vip-table" data-testid="payment-history">
              <thead>
                <tr>
                  <th scope="col">Ngày</th>
                  <th scope="col">Gói</th>
                  <th scope="col">Số tiền</th>
                  <th scope="col">Phương thức</th>
                  <th scope="col">Trạng thái</th>
                </tr>
              </thead>
              <tbody>
                {orders.data.map((o) => (
                  <tr key={o.orderId}>
                    <td>{formatDate(o.createdAt)}</td>
                    <td>
                      {PLANS[o.plan].name} – {o.months} tháng
                    </td>
                    <td>{formatVnd(o.amount)}</td>
                    <td>{METHOD_LABELS[o.method]}</td>
                    <td className={`vip-status vip-status-${o.status}`}>{STATUS_LABELS[o.status]}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
