import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import {
  DURATIONS,
  METHOD_LABELS,
  PAYMENT_METHODS,
  PLANS,
  type PaymentMethod,
  type PlanId,
  VIP_TEXTS,
} from '../../../../../worker/schemas/vip';
import { Breadcrumb } from '../../../components/film/breadcrumb';
import { ApiError } from '../../../lib/api-client';
import { SessionExpiredError } from '../../../lib/auth-request';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { useSession } from '../../../lib/session';
import { rememberBankTransfer, startBankTransfer, startGatewayPayment } from '../api/vip-api';
import { addMonths, formatDate, formatVnd } from './format';
import './vip.css';

/** /dang-ky-goi-vip/{plan}: step 2, duration and method, the total and next billing date. */
export function CheckoutPage({ plan: planId, price }: { plan: PlanId; price?: number }) {
  const plan = PLANS[planId];
  const session = useSession();
  const navigate = useNavigate();
  const [months, setMonths] = useState<number>(1);
  // The spec's default is a wallet value with no matching option: a real option instead (docs/decisions/0400-payments.md).
  const [method, setMethod] = useState<PaymentMethod>('vnpay');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  usePageMeta({ title: `Đăng ký ${plan.name} | ${SITE_SUFFIX}`, robots: 'noindex, nofollow' });

  const total = plan.monthlyPrice * months;
  // Every purchase is one-off: nothing renews; a new plan runs until this date (an active one is extended from its expiry).
  const validUntil = addMonths(new Date(), months);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!session) {
      window.alert(VIP_TEXTS.loginRequired);
      return;
    }
    setBusy(true);
    setError('');
    try {
      if (method === 'bank_transfer') {
        const details = await startBankTransfer(planId, months);
        rememberBankTransfer(details);
        await navigate({ to: '/dang-ky-goi-vip/$plan/bank_transfer', params: { plan: planId }, search: { order: details.orderId } });
        return;
      }
      const { paymentUrl } = await startGatewayPayment(method, planId, months);
      window.location.assign(paymentUrl);
    } catch (err) {
      if (!(err instanceof SessionExpiredError)) setError(err instanceof ApiError ? err.message : 'Đã xảy ra lỗi, vui lòng thử lại sau.');
      setBusy(false);
    }
  };

  return (
    <div className="container vip-page">
      <Breadcrumb
        crumbs={[
          <Link key="plans" to="/dang-ky-goi-vip">
            Đăng ký gói VIP
          </Link>,
          <span key="plan">{plan.name}</span>,
        ]}
      />
      <h1 className="page-heading">Đăng ký gói {plan.name}</h1>
      {!session && (
        <div className="vip-login" role="alert">
          <p>{VIP_TEXTS.loginRequired}</p>
          <Link to="/dang-nhap" search={{ redirect: `/dang-ky-goi-vip/${planId}` }} className="btn btn-primary">
            Đăng nhập
          </Link>
        </div>
      )}
      <form className="vip-checkout" onSubmit={submit}>
        <div className="vip-checkout-main">
          <fieldset className="vip-fieldset">
            <legend>Thời hạn</legend>
            <div className="vip-options">
              {DURATIONS.map((m) => (
                <label key={m} className={`vip-option ${months === m ? 'is-selected' : ''}`}>
                  <input type="radio" name="months" value={m} checked={months === m} onChange={() => setMonths(m)} />
                  <span>{m} tháng</span>
                  <span className="muted">{formatVnd(plan.monthlyPrice * m)}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <fieldset className="vip-fieldset">
            <legend>Phương thức thanh toán</legend>
            <div className="vip-options vip-methods">
              {PAYMENT_METHODS.map((m) => (
                <label key={m} className={`vip-option ${method === m ? 'is-selected' : ''}`}>
                  <input type="radio" name="method" value={m} checked={method === m} onChange={() => setMethod(m)} />
                  <span>{METHOD_LABELS[m]}</span>
                </label>
              ))}
            </div>
          </fieldset>
          <ul className="vip-promotions">
            {VIP_TEXTS.promotions.map((p) => (
              <li key={p}>{p}</li>
            ))}
          </ul>
        </div>
        <aside className="vip-summary" aria-labelledby="summary-heading">
          <h2 id="summary-heading" className="section-title">
            Thông tin thanh toán
          </h2>
          <dl className="meta-list">
            <div>
              <dt>Gói</dt>
              <dd>{plan.name}</dd>
            </div>
            <div>
              <dt>Giá gói</dt>
              <dd>{formatVnd(plan.monthlyPrice)}/tháng</dd>
            </div>
            <div>
              <dt>Thời hạn</dt>
              <dd>{months} tháng</dd>
            </div>
            <div>
              <dt>Giảm giá</dt>
              <dd>{VIP_TEXTS.discount}</dd>
            </div>
            <div>
              <dt>Tổng cộng</dt>
              <dd className="vip-total" data-testid="vip-total">
                {formatVnd(total)}
              </dd>
            </div>
            <div>
              <dt>Có hiệu lực đến</dt>
              <dd data-testid="vip-valid-until">{formatDate(validUntil.getTime())}</dd>
            </div>
            <div>
              <dt>Gia hạn</dt>
              <dd>{VIP_TEXTS.validity}</dd>
            </div>
          </dl>
          {price !== undefined && price !== plan.monthlyPrice && (
            <p className="muted vip-note">Giá hiển thị theo bảng giá hiện tại: {formatVnd(plan.monthlyPrice)}/tháng.</p>
          )}
          {error && (
            <p className="form-error" role="alert">
              {error}
            </p>
          )}
          <button type="submit" className="btn btn-primary btn-block" disabled={busy}>
            {busy ? 'Đang chuyển...' : 'Thanh toán'}
          </button>
        </aside>
      </form>
    </div>
  );
}
