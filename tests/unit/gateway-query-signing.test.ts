// The reconciliation queries' signatures against vectors built by hand from the published rules, hashed here with
// node:crypto, not with our signing code: VNPay querydr 2.1.0 (HMAC-SHA512 over the fields joined by '|', in VNPay's
// order, both ways) and MoMo's v2 query (HMAC-SHA256 over accessKey=…&orderId=…&partnerCode=…&requestId=…).
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { momoQueryEndpoint, momoQueryRequest } from '../../worker/services/payments/momo';
import { vnpayQueryRequest, vnpayVerifyQueryResponse } from '../../worker/services/payments/vnpay';

const VNPAY_SECRET = 'VNPAYTESTSECRETKEY0123456789ABCD';
const sha512 = (data: string) => createHmac('sha512', VNPAY_SECRET).update(data, 'utf8').digest('hex');

describe('VNPay querydr', () => {
  it('signs the request: RequestId|Version|Command|TmnCode|TxnRef|TransactionDate|CreateDate|IpAddr|OrderInfo', async () => {
    // The order was created at 12:00:00 in Ha Noi (05:00 UTC); the query is sent at 12:20:30.
    const body = await vnpayQueryRequest(
      { tmnCode: 'ABCD1234', hashSecret: VNPAY_SECRET },
      {
        requestId: 'req0001',
        txnRef: '0123456789abcdef0123456789abcdef',
        transactionAt: Date.UTC(2026, 0, 15, 5, 0, 0),
        ipAddr: '127.0.0.1',
        orderInfo: 'Truy vấn đơn 0123',
        now: Date.UTC(2026, 0, 15, 5, 20, 30),
      },
    );
    const data =
      'req0001|2.1.0|querydr|ABCD1234|0123456789abcdef0123456789abcdef|20260115120000|20260115122030|127.0.0.1|Truy van don 0123';
    expect(body).toEqual({
      vnp_RequestId: 'req0001',
      vnp_Version: '2.1.0',
      vnp_Command: 'querydr',
      vnp_TmnCode: 'ABCD1234',
      vnp_TxnRef: '0123456789abcdef0123456789abcdef',
      vnp_OrderInfo: 'Truy van don 0123',
      vnp_TransactionDate: '20260115120000',
      vnp_CreateDate: '20260115122030',
      vnp_IpAddr: '127.0.0.1',
      vnp_SecureHash: sha512(data),
    });
  });

  const answer = {
    vnp_ResponseId: '4f8d1b2c',
    vnp_Command: 'querydr',
    vnp_ResponseCode: '00',
    vnp_Message: 'QueryDR Success',
    vnp_TmnCode: 'ABCD1234',
    vnp_TxnRef: '0123456789abcdef0123456789abcdef',
    vnp_Amount: '20700000',
    vnp_BankCode: 'NCB',
    vnp_PayDate: '20260115120512',
    vnp_TransactionNo: '14422574',
    vnp_TransactionType: '01',
    vnp_TransactionStatus: '00',
    vnp_OrderInfo: 'Thanh toan goi VIP1 3 thang',
  };
  // Absent fields (no promotion) count as empty between the pipes.
  const answerData =
    '4f8d1b2c|querydr|00|QueryDR Success|ABCD1234|0123456789abcdef0123456789abcdef|20700000|NCB|20260115120512|14422574|01|00|Thanh toan goi VIP1 3 thang||';

  it('verifies an answer signed by the published rule, in upper- or lower-case hex', async () => {
    expect(await vnpayVerifyQueryResponse(VNPAY_SECRET, { ...answer, vnp_SecureHash: sha512(answerData) })).toBe(true);
    expect(await vnpayVerifyQueryResponse(VNPAY_SECRET, { ...answer, vnp_SecureHash: sha512(answerData).toUpperCase() })).toBe(true);
  });

  it.each([
    ['a changed status', { vnp_TransactionStatus: '02' }],
    ['a changed amount', { vnp_Amount: '100' }],
    ['another order', { vnp_TxnRef: 'ffffffffffffffffffffffffffffffff' }],
    ['no hash', { vnp_SecureHash: undefined }],
  ])('refuses an answer with %s', async (_name, change) => {
    expect(await vnpayVerifyQueryResponse(VNPAY_SECRET, { ...answer, vnp_SecureHash: sha512(answerData), ...change })).toBe(false);
  });

  it('refuses an answer signed with another secret', async () => {
    const other = createHmac('sha512', 'another-secret').update(answerData).digest('hex');
    expect(await vnpayVerifyQueryResponse(VNPAY_SECRET, { ...answer, vnp_SecureHash: other })).toBe(false);
  });
});

describe('MoMo v2 query', () => {
  it('signs accessKey=…&orderId=…&partnerCode=…&requestId=… with HMAC-SHA256', async () => {
    const body = await momoQueryRequest(
      { partnerCode: 'MOMOBKUN20180529', accessKey: 'klm05TvNBzhg7h7j', secretKey: 'at67qH6mk8w5Y1nAyMoYKMWACiEi2bsa' },
      { orderId: 'abcdef0123456789abcdef0123456789', requestId: 'req-42' },
    );
    const data = 'accessKey=klm05TvNBzhg7h7j&orderId=abcdef0123456789abcdef0123456789&partnerCode=MOMOBKUN20180529&requestId=req-42';
    expect(body).toEqual({
      partnerCode: 'MOMOBKUN20180529',
      requestId: 'req-42',
      orderId: 'abcdef0123456789abcdef0123456789',
      lang: 'vi',
      signature: createHmac('sha256', 'at67qH6mk8w5Y1nAyMoYKMWACiEi2bsa').update(data, 'utf8').digest('hex'),
    });
  });

  it('finds the query endpoint next to the create endpoint', () => {
    expect(momoQueryEndpoint('https://test-payment.momo.vn/v2/gateway/api/create')).toBe(
      'https://test-payment.momo.vn/v2/gateway/api/query',
    );
  });
});
