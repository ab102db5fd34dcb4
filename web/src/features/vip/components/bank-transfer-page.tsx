import { Link } from '@tanstack/react-router';
import { PLANS, type PlanId, VIP_TEXTS } from '../../../../../worker/schemas/vip';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { toast } from '../../../lib/toast';
import { recallBankTransfer } from '../api/vip-api';
import { formatVnd } from './format';
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

/** /dang-ky-goi-vip/{plan}/bank_transfer: the transfer details; an admin confirms the order when it arrives. */
export function BankTransferPage({ plan, orderId }: { plan: PlanId; orderId?: string }) {
  usePageMeta({ title: `Chuyển khoản ngân hàng | ${SITE_SUFFIX}`, robots: 'noindex, nofollow' });
  const details = orderId ? recallBankTransfer(orderId) : null;
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
        Quét mã VietQR, hoặc chuyển khoản đúng số tiền và <strong>ghi nội dung chuyển khoản là email đăng ký</strong>. Gói sẽ được kích hoạt
        khi chúng tôi nhận được tiền. Thanh toán một lần, không tự động gia hạn.
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
