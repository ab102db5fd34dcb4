// Every mail the product sends, in Vietnamese: a subject, plain text and simple HTML, with the site's name and
// a link back built from PUBLIC_URL (never from a request's Host: a poisoned Host would otherwise put an
// attacker's domain in a reset link). Rendered when the mail is sent, from the kind and what the outbox kept.
import type { Config } from '../../config';
import { METHOD_LABELS, PLANS, type PaymentMethod, type PlanId } from '../../schemas/vip';
import { SITE_NAME } from './message';
import { escapeHtml } from '../../lib/html';

export interface MailParams {
  verify_email: { name: string; token: string };
  email_changed: { name: string; newEmail: string };
  password_reset: { name: string; token: string };
  password_reset_google: { name: string };
  password_changed: { name: string };
  receipt: {
    name: string;
    plan: PlanId;
    months: number;
    amount: number;
    method: PaymentMethod;
    orderId: string;
    paymentCode: string | null;
    expiresAt: number;
    paidAt: number;
  };
  vip_expiring: { name: string; plan: PlanId; expiresAt: number };
  /** "Xóa tài khoản" asked (docs/decisions/1041): when erasure happens unless the member restores the account. */
  account_deletion: { name: string; dueAt: number };
}

export type MailKind = keyof MailParams;

/** What the admin dashboard calls each kind. */
export const MAIL_KIND_LABELS: Record<MailKind, string> = {
  verify_email: 'Xác minh email',
  email_changed: 'Thông báo đổi email',
  password_reset: 'Đặt lại mật khẩu',
  password_reset_google: 'Đặt lại mật khẩu (tài khoản Google)',
  password_changed: 'Mật khẩu đã đổi',
  receipt: 'Biên nhận thanh toán',
  vip_expiring: 'Nhắc gia hạn VIP',
  account_deletion: 'Xác nhận yêu cầu xóa tài khoản',
};

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

/** Lifetimes the texts mention (the services enforce them). */
export const RESET_LINK_MINUTES = 30;
export const VERIFY_LINK_HOURS = 24;

const vnd = (amount: number) => `${new Intl.NumberFormat('vi-VN').format(amount)} VND`;

/** A date and time on the Vietnamese wall clock, e.g. "14:05 15/01/2026". */
export function formatVietnamTime(ms: number): string {
  const local = new Date(ms + 7 * 60 * 60 * 1000);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${two(local.getUTCHours())}:${two(local.getUTCMinutes())} ${two(local.getUTCDate())}/${two(local.getUTCMonth() + 1)}/${local.getUTCFullYear()}`;
}

/** An absolute link on the site (PUBLIC_URL's origin). */
export function siteLink(config: Pick<Config, 'PUBLIC_URL'>, path: string): string {
  return new URL(path, new URL(config.PUBLIC_URL).origin).toString();
}

interface Body {
  greeting: string;
  paragraphs: string[];
  /** The call to action: a button in HTML, the bare link in text. */
  action?: { label: string; url: string };
  /** Label/value rows (a receipt). */
  rows?: [string, string][];
  after?: string[];
}

function compose(config: Pick<Config, 'PUBLIC_URL'>, subject: string, body: Body): RenderedMail {
  const home = siteLink(config, '/');
  const text = [
    body.greeting,
    '',
    ...body.paragraphs.flatMap((p) => [p, '']),
    ...(body.rows ? [...body.rows.map(([k, v]) => `${k}: ${v}`), ''] : []),
    ...(body.action ? [`${body.action.label}: ${body.action.url}`, ''] : []),
    ...(body.after ?? []).flatMap((p) => [p, '']),
    `${SITE_NAME} — ${home}`,
  ].join('\n');
  const p = (s: string) => `<p style="margin:0 0 14px">${escapeHtml(s)}</p>`;
  const html = `<!doctype html><html lang="vi"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="margin:0;padding:24px;background:#f3f4f6;font-family:Arial,Helvetica,sans-serif;color:#111827;font-size:15px;line-height:1.5">
<div style="max-width:520px;margin:0 auto;background:#ffffff;border-radius:10px;padding:24px">
<p style="margin:0 0 18px;font-size:20px;font-weight:bold"><a href="${escapeHtml(home)}" style="color:#e50914;text-decoration:none">${SITE_NAME}</a></p>
${p(body.greeting)}
${body.paragraphs.map(p).join('\n')}
${
  body.rows
    ? `<table style="border-collapse:collapse;margin:0 0 16px">${body.rows
        .map(
          ([k, v]) =>
            `<tr><td style="padding:4px 16px 4px 0;color:#6b7280">${escapeHtml(k)}</td><td style="padding:4px 0;font-weight:bold">${escapeHtml(v)}</td></tr>`,
        )
        .join('')}</table>`
    : ''
}
${
  body.action
    ? `<p style="margin:0 0 16px"><a href="${escapeHtml(body.action.url)}" style="display:inline-block;background:#e50914;color:#ffffff;text-decoration:none;padding:10px 18px;border-radius:6px;font-weight:bold">${escapeHtml(body.action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#6b7280">Nếu nút không bấm được, hãy mở liên kết này: <a href="${escapeHtml(body.action.url)}">${escapeHtml(body.action.url)}</a></p>`
    : ''
}
${(body.after ?? []).map(p).join('\n')}
<p style="margin:18px 0 0;font-size:13px;color:#6b7280"><a href="${escapeHtml(home)}" style="color:#6b7280">${SITE_NAME}</a> — thư tự động, vui lòng không trả lời.</p>
</div></body></html>`;
  return { subject, text, html };
}

const hello = (name: string) => `Xin chào ${name || 'bạn'},`;
const notYou = 'Nếu không phải bạn yêu cầu, hãy bỏ qua thư này: tài khoản của bạn không thay đổi.';

/** The mail of a kind, from its parameters. */
export function renderMail<K extends MailKind>(config: Pick<Config, 'PUBLIC_URL'>, kind: K, params: MailParams[K]): RenderedMail {
  const p = params as MailParams[MailKind];
  switch (kind) {
    case 'verify_email': {
      const { name, token } = p as MailParams['verify_email'];
      return compose(config, `Xác minh địa chỉ email của bạn trên ${SITE_NAME}`, {
        greeting: hello(name),
        paragraphs: [
          `Hãy xác minh địa chỉ email này để ${SITE_NAME} có thể gửi cho bạn liên kết khôi phục mật khẩu và biên nhận thanh toán.`,
        ],
        action: { label: 'Xác minh email', url: siteLink(config, `/xac-minh-email?token=${encodeURIComponent(token)}`) },
        after: [`Liên kết có hiệu lực trong ${VERIFY_LINK_HOURS} giờ.`, notYou],
      });
    }
    case 'email_changed': {
      const { name, newEmail } = p as MailParams['email_changed'];
      return compose(config, `Email tài khoản ${SITE_NAME} của bạn đã được đổi`, {
        greeting: hello(name),
        paragraphs: [
          `Địa chỉ email của tài khoản ${SITE_NAME} vừa được đổi sang ${newEmail}. Từ nay thư của ${SITE_NAME} sẽ được gửi tới địa chỉ mới.`,
          'Nếu không phải bạn thực hiện, hãy đăng nhập và đổi mật khẩu ngay, hoặc liên hệ hotline để được hỗ trợ.',
        ],
        action: { label: 'Mở tài khoản', url: siteLink(config, '/account') },
      });
    }
    case 'password_reset': {
      const { name, token } = p as MailParams['password_reset'];
      return compose(config, `Đặt lại mật khẩu ${SITE_NAME}`, {
        greeting: hello(name),
        paragraphs: [`Chúng tôi nhận được yêu cầu đặt lại mật khẩu cho tài khoản ${SITE_NAME} của bạn.`],
        action: { label: 'Đặt lại mật khẩu', url: siteLink(config, `/dat-lai-mat-khau?token=${encodeURIComponent(token)}`) },
        after: [`Liên kết có hiệu lực trong ${RESET_LINK_MINUTES} phút và chỉ dùng được một lần.`, notYou],
      });
    }
    case 'password_reset_google': {
      const { name } = p as MailParams['password_reset_google'];
      return compose(config, `Đăng nhập ${SITE_NAME} bằng Google`, {
        greeting: hello(name),
        paragraphs: [
          `Tài khoản ${SITE_NAME} của bạn được tạo bằng Google và chưa có mật khẩu, nên không có mật khẩu nào để đặt lại.`,
          'Hãy đăng nhập bằng nút "Đăng nhập bằng Google" trên trang đăng nhập. Sau đó bạn có thể đặt mật khẩu trong trang Tài khoản.',
        ],
        action: { label: 'Đăng nhập bằng Google', url: siteLink(config, '/dang-nhap') },
        after: [notYou],
      });
    }
    case 'password_changed': {
      const { name } = p as MailParams['password_changed'];
      return compose(config, 'Mật khẩu của bạn đã được thay đổi', {
        greeting: hello(name),
        paragraphs: [
          `Mật khẩu tài khoản ${SITE_NAME} của bạn vừa được thay đổi. Mọi thiết bị đang đăng nhập đã được đăng xuất.`,
          'Nếu không phải bạn thực hiện, hãy dùng "Quên mật khẩu?" để đặt lại mật khẩu ngay, hoặc liên hệ hotline để được hỗ trợ.',
        ],
        action: { label: 'Quên mật khẩu?', url: siteLink(config, '/quen-mat-khau') },
      });
    }
    case 'receipt': {
      const r = p as MailParams['receipt'];
      const plan = PLANS[r.plan];
      return compose(config, `Biên nhận thanh toán ${plan.name} — đơn ${r.paymentCode ?? r.orderId}`, {
        greeting: hello(r.name),
        paragraphs: [`Cảm ơn bạn đã thanh toán. ${SITE_NAME} đã kích hoạt gói ${plan.name} cho tài khoản của bạn.`],
        rows: [
          ['Gói', `${plan.name} (${r.months} tháng)`],
          ['Số tiền', vnd(r.amount)],
          ['Phương thức', METHOD_LABELS[r.method]],
          ['Mã đơn hàng', r.orderId],
          ...(r.paymentCode ? ([['Mã thanh toán', r.paymentCode]] as [string, string][]) : []),
          ['Thời gian thanh toán', formatVietnamTime(r.paidAt)],
          ['Hạn sử dụng mới', formatVietnamTime(r.expiresAt)],
        ],
        action: { label: 'Xem tài khoản', url: siteLink(config, '/account') },
        after: ['Hãy giữ thư này làm biên nhận.'],
      });
    }
    case 'account_deletion': {
      const { name, dueAt } = p as MailParams['account_deletion'];
      return compose(config, `Yêu cầu xóa tài khoản ${SITE_NAME} đã được ghi nhận`, {
        greeting: hello(name),
        paragraphs: [
          `Chúng tôi đã nhận yêu cầu xóa tài khoản ${SITE_NAME} của bạn. Mọi thiết bị đã được đăng xuất.`,
          `Tài khoản và dữ liệu của bạn sẽ bị xóa vào ${formatVietnamTime(dueAt)}. Trước thời điểm đó, bạn có thể đăng nhập và chọn "Khôi phục tài khoản" để hủy yêu cầu.`,
          'Các đơn hàng đã thanh toán được giữ lại không kèm thông tin cá nhân trong 10 năm theo quy định kế toán.',
        ],
        action: { label: 'Khôi phục tài khoản', url: siteLink(config, '/xoa-tai-khoan') },
        after: ['Nếu không phải bạn yêu cầu, hãy đăng nhập, khôi phục tài khoản và đổi mật khẩu ngay.'],
      });
    }
    case 'vip_expiring': {
      const { name, plan, expiresAt } = p as MailParams['vip_expiring'];
      const planName = PLANS[plan].name;
      return compose(config, `Gói ${planName} của bạn sắp hết hạn`, {
        greeting: hello(name),
        paragraphs: [
          `Gói ${planName} của bạn sẽ hết hạn lúc ${formatVietnamTime(expiresAt)}. Gia hạn ngay để tiếp tục xem phim VIP không gián đoạn.`,
        ],
        action: { label: 'Gia hạn VIP', url: siteLink(config, `/dang-ky-goi-vip/${plan}`) },
      });
    }
  }
  throw new Error(`unknown mail kind ${String(kind)}`);
}
