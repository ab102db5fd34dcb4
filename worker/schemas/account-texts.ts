// The texts of password reset, verified addresses, devices and passkeys (docs/decisions/0980): the API answers
// them and the web shows them as they are. Plain values, no zod, in a module of their own: the first page's
// JavaScript imports values.ts, and these are only for the account pages, which load later.

/** Password reset, address verification and address change (docs/decisions/0980). */
export const RECOVERY_MESSAGES = {
  forgotSent:
    'Nếu email này đã đăng ký tài khoản, chúng tôi vừa gửi thư hướng dẫn đặt lại mật khẩu. Vui lòng kiểm tra hộp thư (cả mục Thư rác).',
  tooManyResets: 'Bạn đã yêu cầu đặt lại mật khẩu quá nhiều lần. Vui lòng thử lại sau ít phút.',
  /** {hotline} is filled in from the settings. */
  mailUnavailable: 'Hiện chưa thể gửi email khôi phục mật khẩu. Vui lòng liên hệ hotline {hotline} để được hỗ trợ.',
  tokenInvalid: 'Liên kết không hợp lệ. Hãy mở đúng liên kết trong thư, hoặc yêu cầu một liên kết mới.',
  tokenExpired: 'Liên kết đã hết hạn. Vui lòng yêu cầu một liên kết mới.',
  tokenUsed: 'Liên kết này đã được sử dụng hoặc đã bị thay bằng liên kết mới hơn. Vui lòng yêu cầu một liên kết mới nếu cần.',
  passwordReset: 'Đặt lại mật khẩu thành công. Vui lòng đăng nhập bằng mật khẩu mới.',
  emailVerified: 'Đã xác minh địa chỉ email. Cảm ơn bạn!',
  verifyAddressChanged: 'Liên kết này dành cho địa chỉ email cũ của tài khoản. Vui lòng dùng liên kết trong thư mới nhất.',
  verificationSent: 'Đã gửi thư xác minh. Vui lòng kiểm tra hộp thư (cả mục Thư rác).',
  alreadyVerified: 'Địa chỉ email này đã được xác minh.',
  tooManyMails: 'Bạn đã yêu cầu gửi thư quá nhiều lần. Vui lòng thử lại sau.',
  emailChanged: 'Đã đổi email. Vui lòng mở liên kết xác minh trong thư vừa gửi tới địa chỉ mới.',
  sameEmail: 'Đây đã là email của tài khoản.',
  invalidEmail: 'Địa chỉ email không hợp lệ',
  /** Names and other one-line texts that end up in mail: no CR/LF (header injection) nor other control characters. */
  lineBreak: 'không được chứa ký tự xuống dòng hoặc ký tự điều khiển',
  wrongPassword: 'Mật khẩu hiện tại không đúng',
} as const;

/** Devices (refresh-token families) and passkeys on /account. */
export const DEVICE_MESSAGES = {
  signedOut: 'Đã đăng xuất thiết bị.',
  othersSignedOut: 'Đã đăng xuất khỏi các thiết bị khác.',
  notFound: 'Không tìm thấy thiết bị này (có thể đã đăng xuất).',
} as const;

export const PASSKEY_MESSAGES = {
  added: 'Đã thêm khóa đăng nhập.',
  removed: 'Đã xóa khóa đăng nhập.',
  notFound: 'Không tìm thấy khóa đăng nhập này.',
  challengeInvalid: 'Yêu cầu xác thực đã hết hạn hoặc không hợp lệ. Vui lòng thử lại.',
  verifyFailed: 'Không xác thực được khóa đăng nhập cho trang này. Vui lòng thử lại.',
  unknownPasskey: 'Khóa đăng nhập này không còn thuộc tài khoản nào (có thể đã bị xóa). Vui lòng đăng nhập bằng mật khẩu.',
  wrongUser: 'Khóa đăng nhập không khớp với tài khoản.',
  alreadyAdded: 'Khóa đăng nhập này đã được thêm vào tài khoản.',
  unavailable: 'Khóa đăng nhập cần trang web chạy trên một tên miền (không dùng được với địa chỉ IP).',
  tooMany: 'Bạn đã thử quá nhiều lần. Vui lòng thử lại sau ít phút.',
  limit: 'Mỗi tài khoản có tối đa 20 khóa đăng nhập.',
} as const;
