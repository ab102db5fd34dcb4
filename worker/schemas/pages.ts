// The site's information pages linked from the footer (Quy định, Điều khoản, Bảo mật, Giới thiệu): real
// routes at /{slug}, their default text here, an admin's edit kept in the settings table.
// Pure (zod only): importable by web/.
import { z } from 'zod';

export const SITE_PAGE_SLUGS = ['quy-dinh', 'dieu-khoan', 'bao-mat', 'gioi-thieu'] as const;
export type SitePageSlug = (typeof SITE_PAGE_SLUGS)[number];

export interface SitePage {
  slug: SitePageSlug;
  title: string;
  /** Plain text; a blank line separates paragraphs. */
  body: string;
  /** Unix ms of the admin's last edit; null while the default text is shown. */
  updatedAt: number | null;
}

/** The footer's link texts, in the footer's order. */
export const SITE_PAGE_LINKS: Record<SitePageSlug, string> = {
  'quy-dinh': 'Quy định',
  'dieu-khoan': 'Điều khoản sử dụng',
  'bao-mat': 'Chính sách bảo mật',
  'gioi-thieu': 'Giới thiệu',
};

export const DEFAULT_SITE_PAGES: Record<SitePageSlug, { title: string; body: string }> = {
  'quy-dinh': {
    title: 'Quy định',
    body: [
      'Khi sử dụng PhimViet, bạn đồng ý tuân thủ các quy định dưới đây.',
      'Bình luận: không đăng nội dung xúc phạm, phân biệt vùng miền, tôn giáo, giới tính; không quảng cáo, không spam đường dẫn; không tiết lộ nội dung phim (spoil) khi chưa cảnh báo. Bình luận vi phạm sẽ bị xoá, tài khoản tái phạm có thể bị khoá.',
      'Tài khoản: mỗi người dùng chịu trách nhiệm giữ bí mật mật khẩu của mình. Không chia sẻ, mua bán hay chuyển nhượng tài khoản, kể cả tài khoản VIP.',
      'Báo lỗi: nếu phim không phát được, hãy dùng nút "Báo lỗi" trên trang xem phim. Quản trị viên sẽ kiểm tra và cập nhật link trong thời gian sớm nhất.',
      'Người đăng phim (gói VIP 2): chỉ đăng phim và tập phim mà bạn có quyền chia sẻ. Mọi nội dung bạn đăng đều được ghi lại tên người đăng và có thể bị gỡ khi có khiếu nại.',
    ].join('\n\n'),
  },
  'dieu-khoan': {
    title: 'Điều khoản sử dụng',
    body: [
      'Điều khoản này áp dụng cho mọi người truy cập và sử dụng PhimViet.',
      'Dịch vụ: PhimViet cung cấp trang xem phim trực tuyến miễn phí và các gói VIP trả phí (VIP 1, VIP 2) để xem phim dành riêng cho thành viên VIP. Nội dung có thể thay đổi mà không cần báo trước.',
      'Thanh toán: giá gói do máy chủ tính và hiển thị trước khi bạn thanh toán qua VNPay, MoMo hoặc chuyển khoản ngân hàng. Gói VIP có hiệu lực ngay khi thanh toán được xác nhận; với chuyển khoản, sau khi quản trị viên xác nhận đã nhận tiền. Thời hạn gói được cộng dồn nếu bạn gia hạn khi gói còn hiệu lực.',
      'Hoàn tiền: nếu bạn bị trừ tiền nhưng gói không được kích hoạt, hãy liên hệ hotline kèm mã đơn hàng. Chúng tôi sẽ kích hoạt gói hoặc hoàn tiền trong vòng 7 ngày làm việc.',
      'Giới hạn trách nhiệm: PhimViet không chịu trách nhiệm về gián đoạn do đường truyền hoặc do nguồn phát của bên thứ ba. Chúng tôi có quyền tạm khoá tài khoản vi phạm Quy định.',
    ].join('\n\n'),
  },
  'bao-mat': {
    title: 'Chính sách bảo mật',
    body: [
      'PhimViet chỉ thu thập những thông tin cần thiết để cung cấp dịch vụ, theo Luật Bảo vệ dữ liệu cá nhân số 91/2025/QH15 và Nghị định 356/2025/NĐ-CP.',
      'Thanh toán: thông tin thẻ và ví do VNPay, MoMo hoặc ngân hàng xử lý; PhimViet không nhận và không lưu số thẻ của bạn.',
      'Chúng tôi không bán thông tin cá nhân cho bên thứ ba. Các bảng dưới đây liệt kê mọi loại dữ liệu cá nhân PhimViet lưu, mục đích, thời gian lưu, các bên xử lý và cách bạn thực hiện từng quyền của mình.',
    ].join('\n\n'),
  },
  'gioi-thieu': {
    title: 'Giới thiệu',
    body: [
      'PhimViet là trang xem phim online với kho phim bộ, phim lẻ, TV shows và phim sắp chiếu Vietsub, thuyết minh, cập nhật mỗi ngày.',
      'Bạn có thể tìm phim không cần gõ dấu, xem trên điện thoại, cài PhimViet lên màn hình chính và xem lại danh sách phim khi mạng chập chờn.',
      'Gói VIP 1 mở khoá các phim dành riêng cho thành viên VIP. Gói VIP 2 gồm mọi quyền lợi của VIP 1 và cho phép bạn đăng phim, thêm tập phim cho những phim do chính bạn đăng.',
      'Mọi góp ý xin gửi về hotline hiển thị ở trang thanh toán.',
    ].join('\n\n'),
  },
};

export const sitePageParamSchema = z.object({
  slug: z.enum(SITE_PAGE_SLUGS, { error: `must be one of ${SITE_PAGE_SLUGS.join(', ')}` }),
});

/** PUT /api/admin/pages/{slug}: the page's title and text; an empty body brings the default text back. */
export const updateSitePageSchema = z.object({
  title: z.string({ error: 'must be text' }).trim().min(1, 'is required').max(120, 'must be at most 120 characters'),
  body: z.string({ error: 'must be text' }).trim().max(20_000, 'must be at most 20000 characters'),
});
export type UpdateSitePageInput = z.infer<typeof updateSitePageSchema>;

export interface SitePagesResponse {
  data: SitePage[];
}
