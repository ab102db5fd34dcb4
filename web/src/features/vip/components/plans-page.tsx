import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { VIP_TEXTS } from '../../../../../worker/schemas/vip';
import { SITE_SUFFIX, usePageMeta } from '../../../lib/page-meta';
import { useSession } from '../../../lib/session';
import { plansQuery } from '../api/vip-api';
import { formatVnd } from './format';
import './vip.css';

/** /dang-ky-goi-vip: step 1, choose VIP 1 or VIP 2. */
export function PlansPage() {
  const session = useSession();
  const { data } = useQuery(plansQuery());
  usePageMeta({
    title: `Đăng ký gói VIP | ${SITE_SUFFIX}`,
    description: 'Chọn gói VIP 1 hoặc VIP 2 để xem toàn bộ phim VIP trên PhimViet.',
  });
  return (
    <div className="container vip-page">
      <h1 className="page-heading">Đăng ký gói VIP</h1>
      <p className="muted vip-lead">Chọn gói phù hợp với bạn. Thanh toán qua VNPay, ví MoMo hoặc chuyển khoản ngân hàng.</p>
      {!session && (
        <div className="vip-login" role="alert">
          <p>{VIP_TEXTS.loginRequired}</p>
          <Link to="/dang-nhap" search={{ redirect: '/dang-ky-goi-vip' }} className="btn btn-primary">
            Đăng nhập
          </Link>
        </div>
      )}
      <div className="vip-plans">
        {data?.plans.map((plan) => (
          <article
            key={plan.id}
            className={`vip-plan ${plan.recommended ? 'vip-plan-recommended' : ''}`}
            aria-labelledby={`plan-${plan.id}`}
          >
            {plan.recommended && <span className="vip-badge">Khuyên dùng</span>}
            <h2 id={`plan-${plan.id}`} className="vip-plan-name">
              {plan.name}
            </h2>
            <p className="vip-price">
              <strong>{formatVnd(plan.monthlyPrice)}</strong>
              <span className="muted">/tháng</span>
            </p>
            <p className="vip-channels">{plan.channels}</p>
            <p className="muted">{plan.description}</p>
            <ul className="vip-benefits">
              {plan.benefits.map((b) => (
                <li key={b}>{b}</li>
              ))}
            </ul>
            <Link
              to="/dang-ky-goi-vip/$plan"
              params={{ plan: plan.id }}
              search={{ price: plan.monthlyPrice }}
              className={`btn btn-block ${plan.recommended ? 'btn-primary' : 'btn-ghost'}`}
              aria-label={`Chọn gói ${plan.name}`}
            >
              Chọn gói {plan.name}
            </Link>
          </article>
        ))}
      </div>
    </div>
  );
}
