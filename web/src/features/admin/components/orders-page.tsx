import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADMIN_TEXTS } from '../../../../../worker/schemas/admin';
import {
  type AdminBankTransaction,
  type AdminOrder,
  BANK_TRANSACTION_REASONS,
  ORDER_STATUSES,
  type OrderStatus,
  PAYMENT_METHODS,
  type PaymentMethod,
} from '../../../../../worker/schemas/vip';
import { formatDateTime, formatNumber } from '../../../lib/format';
import { usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { messageOf } from '../api/admin-request';
import {
  attachTransaction,
  confirmOrder,
  dismissTransaction,
  type OrdersFilter,
  ordersQuery,
  unmatchedTransactionsQuery,
} from '../api/orders-api';
import { RefreshButton } from './admin-controls';
import { AdminHeading } from './admin-layout';
import { AdminPager } from './admin-pager';

const METHOD_TEXT: Record<PaymentMethod, string> = { vnpay: 'VNPay', momo: 'MoMo', bank_transfer: 'Chuyển khoản' };
const STATUS_TEXT: Record<OrderStatus, string> = {
  pending: 'Chờ thanh toán',
  paid: 'Đã thanh toán',
  failed: 'Thất bại',
  cancelled: 'Đã huỷ',
};

/**
 * /admin/orders (admin): "Giao dịch chưa khớp" (bank notifications no order took: attach or dismiss), then
 * every order, filtered by method and status and paged on the server. Only a pending bank transfer offers
 * "Xác nhận đã nhận tiền" (a transfer that came without notification); a confirmed one shows who and when.
 */
export function OrdersPage({ filter, onFilter }: { filter: OrdersFilter; onFilter: (next: Partial<OrdersFilter>) => void }) {
  usePageMeta({ title: 'Đơn hàng | Quản trị', robots: 'noindex' });
  const queryClient = useQueryClient();
  const orders = useQuery(ordersQuery(filter));
  const confirm = useMutation({
    mutationFn: (order: AdminOrder) => confirmOrder(order.orderId),
    onSuccess: (_res, order) => {
      toast.success(`Đã xác nhận đơn ${order.orderId}`);
      void queryClient.invalidateQueries({ queryKey: ['admin', 'orders'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'stats'] });
    },
    onError: (error) => toast.error('Không xác nhận được đơn', { description: messageOf(error) }),
  });

  return (
    <section>
      <AdminHeading title="Đơn hàng">
        <RefreshButton query={orders} />
      </AdminHeading>
      <UnmatchedTransactions />
      <div className="admin-toolbar">
        <FilterSelect
          label="Phương thức"
          ariaLabel="Phương thức thanh toán"
          value={filter.method}
          options={PAYMENT_METHODS.map((m) => [m, METHOD_TEXT[m]] as const)}
          onChange={(value) => onFilter({ method: value as PaymentMethod | '', page: 1 })}
        />
        <FilterSelect
          label="Trạng thái"
          ariaLabel="Trạng thái đơn"
          value={filter.status}
          options={ORDER_STATUSES.map((st) => [st, STATUS_TEXT[st]] as const)}
          onChange={(value) => onFilter({ status: value as OrderStatus | '', page: 1 })}
        />
      </div>
      {orders.isError && (
        <p className="field-error" role="alert">
          Không tải được danh sách đơn: {messageOf(orders.error)}
        </p>
      )}
      <div className="admin-table-wrap">
        <table className="admin-table" aria-label="Đơn hàng">
          <thead>
            <tr>
              <th>Mã đơn / mã thanh toán</th>
              <th>Email</th>
              <th>Gói</th>
              <th className="num">Số tháng</th>
              <th className="num">Số tiền</th>
              <th>Phương thức</th>
              <th>Trạng thái</th>
              <th>Tạo lúc</th>
              <th>Xác nhận</th>
            </tr>
          </thead>
          <tbody>
            {orders.data?.data.map((o) => (
              <tr key={o.orderId} data-order={o.orderId}>
                <td>
                  <code>{o.orderId}</code>
                  {o.paymentCode && (
                    <>
                      <br />
                      <code className="admin-payment-code" data-testid="order-payment-code">
                        {o.paymentCode}
                      </code>
                    </>
                  )}
                </td>
                <td>{o.userEmail}</td>
                <td>{o.plan}</td>
                <td className="num">{o.months}</td>
                <td className="num">{`${formatNumber(o.amount)} ₫`}</td>
                <td>{METHOD_TEXT[o.method]}</td>
                <td>{STATUS_TEXT[o.status]}</td>
                <td>{formatDateTime(o.createdAt)}</td>
                <td>
                  {o.confirmable ? (
                    <button
                      type="button"
                      className="btn btn-primary btn-sm"
                      disabled={confirm.isPending}
                      onClick={() => {
                        if (window.confirm(`${ADMIN_TEXTS.confirmPayment} cho đơn ${o.orderId} (${formatNumber(o.amount)} ₫)?`))
                          confirm.mutate(o);
                      }}
                    >
                      {ADMIN_TEXTS.confirmPayment}
                    </button>
                  ) : o.confirmedBy ? (
                    <span className="muted">
                      {o.confirmedBy.email}
                      {o.paidAt ? ` · ${formatDateTime(o.paidAt)}` : ''}
                    </span>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {orders.data?.data.length === 0 && <p className="admin-empty">Không có đơn nào.</p>}
        {orders.isPending && <p className="admin-empty">Loading...</p>}
      </div>
      {orders.data && <AdminPager pagination={orders.data.pagination} onPage={(page) => onFilter({ page })} />}
    </section>
  );
}

/**
 * "Giao dịch chưa khớp": transfers the bank reported that paid nothing (no or unknown code, wrong amount,
 * an order no longer waiting). "Gắn vào đơn" asks for the order (its id or payment code) and pays it;
 * "Bỏ qua" asks for a reason. Both are audited on the server.
 */
function UnmatchedTransactions() {
  const queryClient = useQueryClient();
  const list = useQuery(unmatchedTransactionsQuery());
  const done = (message: string) => {
    toast.success(message);
    void queryClient.invalidateQueries({ queryKey: ['admin', 'orders'] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'users'] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'stats'] });
  };
  const attach = useMutation({
    mutationFn: ({ tx, orderId }: { tx: AdminBankTransaction; orderId: string }) => attachTransaction(tx.id, orderId),
    onSuccess: (res) => done(`Đã gắn giao dịch vào đơn ${res.paymentCode ?? res.orderId}`),
    onError: (error) => toast.error('Không gắn được giao dịch', { description: messageOf(error) }),
  });
  const dismiss = useMutation({
    mutationFn: ({ tx, reason }: { tx: AdminBankTransaction; reason: string }) => dismissTransaction(tx.id, reason),
    onSuccess: () => done('Đã bỏ qua giao dịch'),
    onError: (error) => toast.error('Không bỏ qua được giao dịch', { description: messageOf(error) }),
  });
  const rows = list.data?.data ?? [];
  return (
    <section className="admin-unmatched" aria-labelledby="unmatched-heading" data-testid="unmatched-transactions">
      <h2 id="unmatched-heading" className="section-title">
        Giao dịch chưa khớp {list.data ? `(${list.data.pagination.totalItems})` : ''}
      </h2>
      {list.isError && (
        <p className="field-error" role="alert">
          Không tải được giao dịch: {messageOf(list.error)}
        </p>
      )}
      {rows.length === 0 && list.data ? (
        <p className="admin-empty">Không có giao dịch nào chờ xử lý.</p>
      ) : (
        <div className="admin-table-wrap">
          <table className="admin-table" aria-label="Giao dịch chưa khớp">
            <thead>
              <tr>
                <th>Thời gian</th>
                <th className="num">Số tiền</th>
                <th>Nội dung</th>
                <th>Lý do</th>
                <th>Đơn liên quan</th>
                <th>Xử lý</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((tx) => (
                <tr key={tx.id} data-transaction={tx.providerId}>
                  <td>
                    {tx.transactionDate}
                    <br />
                    <span className="muted">
                      {tx.gateway} · {tx.referenceCode}
                    </span>
                  </td>
                  <td className="num">{`${formatNumber(tx.amount)} ₫`}</td>
                  <td>{tx.content}</td>
                  <td>{tx.reason ? BANK_TRANSACTION_REASONS[tx.reason] : '—'}</td>
                  <td>
                    {tx.order ? (
                      <>
                        <code>{tx.order.paymentCode ?? tx.order.orderId}</code> · {`${formatNumber(tx.order.amount)} ₫`} ·{' '}
                        {STATUS_TEXT[tx.order.status]}
                      </>
                    ) : tx.matchedCode ? (
                      <code>{tx.matchedCode}</code>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td className="admin-actions">
                    <button
                      type="button"
                      className="btn btn-primary btn-sm"
                      disabled={attach.isPending}
                      onClick={() => {
                        const orderId = window.prompt(
                          'Gắn giao dịch vào đơn (mã đơn hoặc mã thanh toán):',
                          tx.order?.paymentCode ?? tx.matchedCode ?? '',
                        );
                        if (orderId?.trim()) attach.mutate({ tx, orderId: orderId.trim() });
                      }}
                    >
                      Gắn vào đơn
                    </button>
                    <button
                      type="button"
                      className="btn btn-ghost btn-sm"
                      disabled={dismiss.isPending}
                      onClick={() => {
                        const reason = window.prompt('Lý do bỏ qua giao dịch này:');
                        if (reason?.trim()) dismiss.mutate({ tx, reason: reason.trim() });
                      }}
                    >
                      Bỏ qua
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}

/** One of the list's filters: "Tất cả" (the empty value) and each [value, text]. */
function FilterSelect({
  label,
  ariaLabel,
  value,
  options,
  onChange,
}: {
  label: string;
  ariaLabel: string;
  value: string;
  options: readonly (readonly [string, string])[];
  onChange: (value: string) => void;
}) {
  return (
    <label>
      {label}{' '}
      <select className="admin-input" aria-label={ariaLabel} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">Tất cả</option>
        {options.map(([optionValue, text]) => (
          <option key={optionValue} value={optionValue}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
