import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { type Gateway, type PlanId, VIP_TEXTS } from '../../../../../worker/schemas/vip';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { useSession } from '../../../lib/session';
import { checkPaymentReturn, orderQuery } from '../api/vip-api';
import { PaymentSuccess, useRightsAfterPayment } from './payment-success';
import './vip.css';

/** Stop polling after this long and say the payment is still being processed. */
const GIVE_UP_MS = 3 * 60_000;

/**
 * /dang-ky-goi-vip/{plan}/payment/{gateway}-return: the redirect is only shown, never trusted; the order's
 * own status (decided by the gateway's IPN) is polled until it is no longer pending.
 */
export function PaymentReturnPage({ plan, gateway }: { plan: PlanId; gateway: Gateway }) {
  usePageMeta({ title: `Kết quả thanh toán | ${SITE_SUFFIX}`, robots: 'noindex, nofollow' });
  // The gateway's query exactly as it arrived, before the router may rewrite the URL.
  const [search] = useState(() => window.location.search);
  const session = useSession();
  const redirect = useQuery({
    queryKey: ['vip', 'return', gateway, search],
    queryFn: () => checkPaymentReturn(gateway, search),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  });
  const orderId = redirect.data?.orderId;
  // After GIVE_UP_MS the page stops asking and says so: a timer re-renders it, polling does not go on for ever.
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    const timer = window.setTimeout(() => setTimedOut(true), GIVE_UP_MS);
    return () => window.clearTimeout(timer);
  }, []);
  const polling = orderQuery(orderId ?? '');
  const order = useQuery({
    ...polling,
    enabled: !!orderId && !!session,
    refetchInterval: timedOut ? false : polling.refetchInterval,
  });
  const status = order.data?.status;
  useRightsAfterPayment(status);

  let body: React.ReactNode;
  if (redirect.error) {
    body = <Result ok={false} title={VIP_TEXTS.verificationFailed} detail={redirect.error.message} plan={plan} />;
  } else if (!session && redirect.data) {
    body = (
      <Result ok={redirect.data.gatewayResult === 'success'} title={redirect.data.message} plan={plan}>
        <Link to="/dang-nhap" search={{ redirect: `/account` }} className="btn btn-primary">
          Đăng nhập để xem đơn hàng
        </Link>
      </Result>
    );
  } else if (order.error) {
    body = <Result ok={false} title={VIP_TEXTS.verificationFailed} detail={order.error.message} plan={plan} />;
  } else if (status === 'paid' && order.data) {
    body = <PaymentSuccess order={order.data} />;
  } else if (status === 'failed' || status === 'cancelled') {
    body = <Result ok={false} title={VIP_TEXTS.verificationFailed} detail={order.data?.reason ?? redirect.data?.message} plan={plan} />;
  } else if (timedOut) {
    body = (
      <Result ok={false} title="Giao dịch đang được xử lý" plan={plan}>
        <p data-testid="payment-timeout">
          Chúng tôi chưa nhận được xác nhận từ cổng thanh toán sau 3 phút và đã ngừng kiểm tra. Gói sẽ tự kích hoạt khi có xác nhận; bạn có
          thể xem lại trong trang tài khoản.
        </p>
        <button type="button" className="btn btn-ghost" onClick={() => window.location.reload()}>
          Kiểm tra lại
        </button>
      </Result>
    );
  } else {
    body = (
      <div className="vip-result" role="status">
        <span className="spinner-ring" aria-hidden="true" />
        <p>{VIP_TEXTS.verifying}</p>
      </div>
    );
  }
  return (
    <div className="container vip-page">
      <h1 className="page-heading">Kết quả thanh toán</h1>
      {body}
    </div>
  );
}

function Result({
  ok,
  title,
  detail,
  plan,
  children,
}: {
  ok: boolean;
  title: string;
  detail?: string;
  plan: PlanId;
  children?: React.ReactNode;
}) {
  return (
    <section className={`vip-result ${ok ? 'is-ok' : 'is-failed'}`} role="alert" data-testid={ok ? 'payment-ok' : 'payment-failed'}>
      <h2 className="vip-result-title">{title}</h2>
      {detail && detail !== title && <p className="muted">{detail}</p>}
      {children}
      {!ok && (
        <Link to="/dang-ky-goi-vip/$plan" params={{ plan }} className="btn btn-ghost">
          Thử lại
        </Link>
      )}
    </section>
  );
}
