import { RefreshButton } from './admin-controls';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import type { AdminOrder } from '../../../../../worker/schemas/vip';
import { confirmOrder, pendingOrdersQuery } from '../api/orders-api';
import { AdminHeading } from './admin-layout';

/** /admin/orders (admin): pending bank transfers; confirming one pays it (the API grants the plan). */
export function OrdersPage() {
  usePageMeta({ title: 'Đơn chuyển khoản | Quản trị', robots: 'noindex' });
  const queryClient = useQueryClient();
  const orders = useQuery(pendingOrdersQuery());
  const confirm = useMutation({
    mutationFn: (order: AdminOrder) => confirmOrder(order.orderId),
    onSuccess: (_res, order) => {
      queryClient.setQueryData<AdminOrder[]>(pendingOrdersQuery().queryKey, (old) => old?.filter((o) => o.orderId !== order.orderId));
      toast.success(`Đã xác nhận đơn ${order.orderId}`);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'orders'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] });
    },
    onError: (error) => toast.error('Không xác nhận được đơn', { description: messageOf(error) }),
  });

  return (
    <section>
      <AdminHeading title="Đơn chuyển khoản chờ xác nhận">
        <RefreshButton query={orders} />
      </AdminHeading>
      {orders.isError && (
        <p className="field-error" role="alert">
          Không tải được danh sách đơn: {messageOf(orders.error)}
        </p>
      )}
      <div className="admin-table-wrap">
        <table className="admin-table">
          <thead>
            <tr>
              <th>Mã đơn</th>
              <th>Email</th>
              <th>Gói</th>
              <th className="num">Số tháng</th>
              <th className="num">Số tiền</th>
              <th>Tạo lúc</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {orders.data?.map((o) => (
              <tr key={o.orderId}>
                <td>
                  <code>{o.orderId}</code>
                </td>
                <td>{o.userEmail}</td>
                <td>{o.plan}</td>
                <td className="num">{o.months}</td>
                <td className="num">{`${formatNumber(o.amount)} ₫`}</td>
                <td>{formatDateTime(o.createdAt)}</td>
                <td>
                  <button
                    type="button"
                    className="btn btn-primary btn-sm"
                    disabled={confirm.isPending}
                    onClick={() => {
                      if (window.confirm(`Xác nhận đã nhận tiền cho đơn ${o.orderId}?`)) confirm.mutate(o);
                    }}
                  >
                    Xác nhận đã nhận tiền
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {orders.data?.length === 0 && <p className="admin-empty">Không có đơn nào chờ xác nhận.</p>}
        {orders.isPending && <p className="admin-empty">Loading...</p>}
      </div>
    </section>
  );
}
