// VNPay 2.1.0 signing against vectors built by hand from the published rules (sorted vnp_* keys,
// form encoding with space → '+', HMAC-SHA512 hex), hashed here with node:crypto, not with our sign().
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { asciiOrderInfo, vnpayDate, vnpayPaymentUrl, vnpayVerify } from '../../worker/services/payments/vnpay';

const SECRET = 'VNPAYTESTSECRETKEY0123456789ABCD';
const sha512 = (data: string) => createHmac('sha512', SECRET).update(data, 'utf8').digest('hex');

describe('VNPay signing', () => {
  it('builds the payment URL with every field, GMT+7 dates, +15 minutes and the hand-computed hash', async () => {
    // 2026-01-15 05:00:00 UTC = 12:00:00 in Ha Noi.
    const now = Date.UTC(2026, 0, 15, 5, 0, 0);
    const url = await vnpayPaymentUrl(
      { tmnCode: 'ABCD1234', hashSecret: SECRET, url: 'https://sandbox.vnpayment.vn/paymentv2/vpcpay.html' },
      {
        txnRef: '0123456789abcdef0123456789abcdef',
        amount: 207_000,
        orderInfo: 'Thanh toán gói VIP1 3 tháng',
        returnUrl: 'http://localhost:8787/dang-ky-goi-vip/VIP1/payment/vnpay-return',
        ipAddr: '203.0.113.9',
        now,
      },
    );
    const expectedData =
      'vnp_Amount=20700000&vnp_Command=pay&vnp_CreateDate=20260115120000&vnp_CurrCode=VND&vnp_ExpireDate=20260115121500' +
      '&vnp_IpAddr=203.0.113.9&vnp_Locale=vn&vnp_OrderInfo=Thanh+toan+goi+VIP1+3+thang&vnp_OrderType=other' +
      '&vnp_ReturnUrl=http%3A%2F%2Flocalhost%3A8787%2Fdang-ky-goi-vip%2FVIP1%2Fpayment%2Fvnpay-return' +
      '&vnp_TmnCode=ABCD1234&vnp_TxnRef=0123456789abcdef0123456789abcdef&vnp_Version=2.1.0';
    expect(url).toBe(`https://sandbox.vnpayment.vn/paymentv2/vpcpay.html?${expectedData}&vnp_SecureHash=${sha512(expectedData)}`);
  });

  it('formats dates on the GMT+7 wall clock across a day boundary', () => {
    expect(vnpayDate(Date.UTC(2025, 11, 31, 17, 30, 5))).toBe('20260101003005');
  });

  it('keeps vnp_OrderInfo to ASCII letters, digits, space and :_.-', () => {
    expect(asciiOrderInfo('Đơn #12: gói VIP-2 (3 tháng) ✓ đ_x.')).toBe('Don 12: goi VIP-2 3 thang  d_x.');
  });

  it('verifies a return query signed by hand, and refuses it once any value changes', async () => {
    const params: Record<string, string> = {
      vnp_Amount: '6900000',
      vnp_BankCode: 'NCB',
      vnp_OrderInfo: 'Thanh toan goi VIP1',
      vnp_PayDate: '20260115120500',
      vnp_ResponseCode: '00',
      vnp_TmnCode: 'ABCD1234',
      vnp_TransactionNo: '14123456',
      vnp_TransactionStatus: '00',
      vnp_TxnRef: 'abc',
      vnp_SecureHashType: 'HmacSHA512',
      vnp_Empty: '',
    };
    const data =
      'vnp_Amount=6900000&vnp_BankCode=NCB&vnp_OrderInfo=Thanh+toan+goi+VIP1&vnp_PayDate=20260115120500&vnp_ResponseCode=00' +
      '&vnp_TmnCode=ABCD1234&vnp_TransactionNo=14123456&vnp_TransactionStatus=00&vnp_TxnRef=abc';
    const signed = { ...params, vnp_SecureHash: sha512(data).toUpperCase() };
    expect(await vnpayVerify(SECRET, signed)).toBe(true);
    expect(await vnpayVerify(SECRET, { ...signed, vnp_Amount: '690000000' })).toBe(false);
    expect(await vnpayVerify(SECRET, { ...signed, vnp_SecureHash: '' })).toBe(false);
    expect(await vnpayVerify('another-secret', signed)).toBe(false);
  });
});
