// MoMo v2 signatures against raw strings written from the published field order, hashed with node:crypto.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { momoCreateRequest, momoVerifyResult } from '../../worker/services/payments/momo';

const config = {
  partnerCode: 'MOMOBKUN20180529',
  accessKey: 'klm05TvNBzhg7h7j',
  secretKey: 'at67qH6mk8w5Y1nAyMoYKMWACiEi2bsa',
  endpoint: 'x',
};
const sha256 = (data: string) => createHmac('sha256', config.secretKey).update(data, 'utf8').digest('hex');

describe('MoMo signing', () => {
  it('signs the captureWallet create request over the fixed field order', async () => {
    const request = await momoCreateRequest(config, {
      orderId: 'ff00ff00ff00ff00ff00ff00ff00ff00',
      amount: 99_000,
      orderInfo: 'Thanh toán gói VIP 2 1 tháng',
      redirectUrl: 'http://localhost:8787/dang-ky-goi-vip/VIP2/payment/momo-return',
      ipnUrl: 'http://localhost:8787/api/payment/momo-ipn',
    });
    const raw =
      'accessKey=klm05TvNBzhg7h7j&amount=99000&extraData=&ipnUrl=http://localhost:8787/api/payment/momo-ipn' +
      '&orderId=ff00ff00ff00ff00ff00ff00ff00ff00&orderInfo=Thanh toán gói VIP 2 1 tháng&partnerCode=MOMOBKUN20180529' +
      '&redirectUrl=http://localhost:8787/dang-ky-goi-vip/VIP2/payment/momo-return&requestId=ff00ff00ff00ff00ff00ff00ff00ff00' +
      '&requestType=captureWallet';
    expect(request).toMatchObject({
      partnerCode: config.partnerCode,
      amount: 99_000,
      requestType: 'captureWallet',
      lang: 'vi',
      extraData: '',
    });
    expect(request.signature).toBe(sha256(raw));
  });

  it('verifies an IPN signed over accessKey…transId, and refuses a changed amount or result', async () => {
    const ipn = {
      partnerCode: 'MOMOBKUN20180529',
      orderId: 'ff00',
      requestId: 'ff00',
      amount: 99_000,
      orderInfo: 'Thanh toán gói VIP 2',
      orderType: 'momo_wallet',
      transId: 4088878653,
      resultCode: 0,
      message: 'Thành công.',
      payType: 'qr',
      responseTime: 1721720663942,
      extraData: '',
    };
    const raw =
      'accessKey=klm05TvNBzhg7h7j&amount=99000&extraData=&message=Thành công.&orderId=ff00&orderInfo=Thanh toán gói VIP 2' +
      '&orderType=momo_wallet&partnerCode=MOMOBKUN20180529&payType=qr&requestId=ff00&responseTime=1721720663942&resultCode=0&transId=4088878653';
    const signed = { ...ipn, signature: sha256(raw) };
    expect(await momoVerifyResult(config, signed)).toBe(true);
    expect(await momoVerifyResult(config, { ...signed, amount: 1000 })).toBe(false);
    expect(await momoVerifyResult(config, { ...signed, resultCode: 1006 })).toBe(false);
    expect(await momoVerifyResult(config, { ...signed, signature: '' })).toBe(false);
  });
});
