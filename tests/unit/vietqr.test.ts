import { describe, expect, it } from 'vitest';
import { crc16CcittFalse, vietQrPayload } from '../../web/src/features/vip/vietqr';

describe('VietQR payload', () => {
  it('computes the CRC of the NAPAS specification example (card transfer, A203)', () => {
    const napasExample =
      '00020101021238600010A00000072701300006970403011697040311012345670208QRIBFTTC530370454061800005802VN62340107NPS68690819thanh toan don hang6304';
    expect(crc16CcittFalse(napasExample)).toBe('A203');
    expect(crc16CcittFalse('123456789')).toBe('29B1'); // the CRC-16/CCITT-FALSE check value
  });

  it('builds, byte for byte, a payload a payment provider issued for a transfer to an account', () => {
    // Issued for BIN 970422, account VQRQADAIJ5512, 7,000 VND, note "TL89 100".
    expect(vietQrPayload({ bin: '970422', accountNumber: 'VQRQADAIJ5512', amount: 7000, note: 'TL89 100' })).toBe(
      '00020101021238570010A000000727012700069704220113VQRQADAIJ55120208QRIBFTTA5303704540470005802VN62120808TL89 1006304E346',
    );
  });

  it("carries the order's exact amount and its email note, with a CRC that covers them", () => {
    const payload = vietQrPayload({ bin: '970436', accountNumber: '0123456789', amount: 207000, note: 'user@phimviet.local' });
    expect(payload).toContain('0010A000000727');
    expect(payload).toContain('01240006970436011001234567890208QRIBFTTA');
    expect(payload).toContain('5303704540620700058');
    expect(payload).toContain('62230819user@phimviet.local6304');
    expect(payload.slice(-4)).toBe(crc16CcittFalse(payload.slice(0, -4)));
  });

  it('refuses what it cannot encode', () => {
    const ok = { bin: '970436', accountNumber: '0123456789', amount: 69000, note: 'a@b.vn' };
    expect(() => vietQrPayload({ ...ok, bin: '97043' })).toThrow(RangeError);
    expect(() => vietQrPayload({ ...ok, accountNumber: '0123 456' })).toThrow(RangeError);
    expect(() => vietQrPayload({ ...ok, amount: 69000.5 })).toThrow(RangeError);
    expect(() => vietQrPayload({ ...ok, amount: 0 })).toThrow(RangeError);
    expect(() => vietQrPayload({ ...ok, note: 'chuyển tiền' })).toThrow(RangeError);
    expect(() => vietQrPayload({ ...ok, note: 'x'.repeat(120) })).toThrow(RangeError);
  });
});
