import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { PLANS, type PlanId, VIP_TEXTS } from '../../../../../worker/schemas/vip';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { useSession } from '../../../lib/session';
import { orderQuery, recallBankTransfer } from '../api/vip-api';
import { formatVnd } from './format';
import { PaymentSuccess, useRightsAfterPayment } from './payment-success';
import { VietQrCode } from './vietqr-code';
import './vip.css';

/** Copies one transfer detail as the payer's banking app wants it pasted, and says so. */
async function copy(text: string, what: string) {
  try {
    await navigator.clipboard.writeText(text);
    toast.success(`Đã sao chép ${what}`);
  } catch {
    toast.error(`Không sao chép được ${what}, vui lòng chép tay.`);
  }
}

function CopyButton({ text, what }: { text: string; what: string }) {
  return (
    <button type="button" className="btn btn-ghost btn-copy" onClick={() => void copy(text, what)} aria-label={`Sao chép ${what}`}>
      Sao chép
    </button>
  );
}

/** How often the waiting page asks whether the bank's notification (or an admin) has paid the order. */
const BANK_POLL_MS = 2_000;

/**
 * /dang-ky-goi-vip/{plan}/bank_transfer: the transfer details with the order's payment code as the whole
 * note. The page polls the order: the bank's notification (SePay) pays it within seconds, or an admin
 * confirms it by hand, and the page turns to success by itself.
 */
export function BankTransferPage({ plan, orderId }: { plan: PlanId; orderId?: string }) {
  usePageMeta({ title: `Chuyển khoản ngân hàng | ${SITE_SUFFIX}`, robots: 'noindex, nofollow' });
  const details = orderId ? recallBankTransfer(orderId) : null;
  const session = useSession();
  const polling = orderQuery(orderId ?? '');
  const order = useQuery({
    ...polling,
    enabled: !!details && !!session,
    refetchInterval: (query) => (query.state.data?.status === 'pending' || query.state.error ? BANK_POLL_MS : false),
  });
  useRightsAfterPayment(order.data?.status);
  if (details && order.data?.status === 'paid') {
    return (
      <div className="container vip-page">
        <h1 className="page-heading">Chuyển khoản ngân hàng</h1>
        <PaymentSuccess order={order.data} />
      </div>
    );
  }
  if (!details) {
    return (
      <div className="container vip-page">
        <h1 className="page-heading">Chuyển khoản ngân hàng</h1>
        <p>Không tìm thấy đơn chuyển khoản trên trình duyệt này.</p>
        <Link to="/dang-ky-goi-vip/$plan" params={{ plan }} className="btn btn-primary">
          Đăng ký gói {PLANS[plan].name}
        </Link>
      </div>
    );
  }
  return (
    <div className="container vip-page">
      <h1 className="page-heading">Chuyển khoản ngân hàng</h1>
      <p className="muted vip-lead">
        Quét mã VietQR, hoặc chuyển khoản đúng số tiền với <strong>nội dung chuyển khoản là mã thanh toán {details.note}</strong>: giữ
        nguyên mã này làm toàn bộ nội dung, không thêm chữ nào khác. Thanh toán một lần, không tự động gia hạn.
      </p>
      <p className="vip-lead" role="status" data-testid="bank-confirmation">
        {details.autoConfirm
          ? 'Gói sẽ tự kích hoạt vài giây sau khi tiền về tài khoản; trang này sẽ tự chuyển sang thành công.'
          : 'Chuyển khoản được xác nhận thủ công: gói sẽ được kích hoạt khi chúng tôi kiểm tra và xác nhận đã nhận tiền.'}
      </p>
      <section className="vip-summary vip-bank" aria-labelledby="bank-heading" data-testid="bank-transfer">
        <h2 id="bank-heading" className="section-title">
          Thông tin chuyển khoản
        </h2>
        <VietQrCode
          label={`Mã VietQR chuyển ${formatVnd(details.amount)} tới tài khoản ${details.bank.accountNumber}`}
          transfer={
            details.bank.bin
              ? { bin: details.bank.bin, accountNumber: details.bank.accountNumber, amount: details.amount, note: details.note }
              : null
          }
        />
        <dl className="meta-list">
          <div>
            <dt>Gói</dt>
            <dd>
              {details.planName} – {details.months} tháng
            </dd>
          </div>
          <div>
            <dt>Số tiền</dt>
            <dd className="vip-copyable">
              <span className="vip-total" data-testid="bank-amount">
                {formatVnd(details.amount)}
              </span>
              <CopyButton text={String(details.amount)} what="số tiền" />
            </dd>
          </div>
          <div>
            <dt>Họ tên</dt>
            <dd>{details.name}</dd>
          </div>
          <div>
            <dt>Email</dt>
            <dd>{details.email}</dd>
          </div>
          <div>
            <dt>Ngân hàng</dt>
            <dd>{details.bank.name}</dd>
          </div>
          <div>
            <dt>Số tài khoản</dt>
            <dd className="vip-copyable">
              <span data-testid="bank-account">{details.bank.accountNumber}</span>
              <CopyButton text={details.bank.accountNumber} what="số tài khoản" />
            </dd>
          </div>
          <div>
            <dt>Chủ tài khoản</dt>
            <dd>{details.bank.accountHolder}</dd>
          </div>
          <div>
            <dt>Nội dung chuyển khoản</dt>
            <dd className="vip-copyable">
              <span data-testid="bank-note">{details.note}</span>
              <CopyButton text={details.note} what="nội dung chuyển khoản" />
            </dd>
          </div>
          <div>
            <dt>Mã đơn hàng</dt>
            <dd className="vip-code">{details.orderId}</dd>
          </div>
        </dl>
        <p className="vip-hotline">
          {VIP_TEXTS.hotlineHint}{' '}
          <a href={`tel:${details.hotline.replace(/\s/g, '')}`} data-testid="hotline">
            {details.hotline}
          </a>
          .
        </p>
        <Link to="/account" className="btn btn-ghost">
          Xem lịch sử thanh toán
        </Link>
      </section>
    </div>
  );
}
