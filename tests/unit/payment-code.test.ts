// The bank transfer's payment code (issue 27): alphabet, length, uniqueness, reading it back from a bank's
// note, and the VietQR payload that carries it decoded field by field (EMVCo TLV, CRC).
import { describe, expect, it } from 'vitest';
import { crc16CcittFalse, vietQrPayload } from '../../web/src/features/vip/vietqr';
import { paymentCodeCandidates, randomPaymentCode } from '../../worker/services/payments/payment-code';
import { PAYMENT_CODE_PATTERN } from '../../worker/schemas/vip';

const UNAMBIGUOUS = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';

describe('randomPaymentCode', () => {
  it('is PV and 8 characters of the unambiguous alphabet: upper case and digits, no 0/O/1/I/L, at most 19 in all', () => {
    for (let i = 0; i < 2_000; i++) {
      const code = randomPaymentCode();
      expect(code).toMatch(/^PV[2-9A-Z]{8}$/);
      expect(code).not.toMatch(/^PV.*[01OIL]/);
      expect(code.length).toBeGreaterThanOrEqual(2 + 6);
      expect(code.length).toBeLessThanOrEqual(19);
      expect(PAYMENT_CODE_PATTERN.test(code)).toBe(true);
    }
  });

  it('draws every character of the alphabet, evenly enough, and does not repeat', () => {
    const codes = Array.from({ length: 20_000 }, randomPaymentCode);
    expect(new Set(codes).size).toBe(codes.length);
    const counts = new Map<string, number>();
    for (const code of codes) for (const c of code.slice(2)) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect([...counts.keys()].sort().join('')).toBe(UNAMBIGUOUS);
    const expected = (codes.length * 8) / UNAMBIGUOUS.length;
    for (const n of counts.values()) expect(Math.abs(n - expected) / expected).toBeLessThan(0.1);
  });
});

describe('paymentCodeCandidates', () => {
  it('finds the code inside the words banks add, whatever the case, with separators dropped or added', () => {
    const code = 'PV7K3D9Q2C';
    for (const note of [
      code,
      `MBVCB.3278907687.${code}.CT tu 0011223344 NGUYEN VAN A toi 0123456789`,
      `IBFT ${code.toLowerCase()} chuyen khoan`,
      'PV-7K3D-9Q2C',
      'pv 7k3d 9q2c',
      `FT26015123456${code}GD`,
    ]) {
      expect(paymentCodeCandidates(note), note).toContain(code);
    }
  });

  it('finds nothing in a note without a code, and skips look-alike characters', () => {
    expect(paymentCodeCandidates('chuyen tien xem phim')).toEqual([]);
    expect(paymentCodeCandidates('user@phimviet.local')).toEqual([]);
    expect(paymentCodeCandidates('PV0123OIL9')).toEqual([]);
    expect(paymentCodeCandidates('PV7K3D')).toEqual([]);
  });
});

/** EMVCo TLV: ID (2), length (2), value; nested templates decoded by the caller. */
function tlv(text: string): Map<string, string> {
  const fields = new Map<string, string>();
  for (let at = 0; at < text.length; ) {
    const id = text.slice(at, at + 2);
    const length = Number(text.slice(at + 2, at + 4));
    expect(Number.isInteger(length)).toBe(true);
    fields.set(id, text.slice(at + 4, at + 4 + length));
    at += 4 + length;
  }
  return fields;
}

describe('the VietQR payload of a bank transfer order', () => {
  it('decodes with the payment code as its purpose of transaction (62/08) and a valid CRC', () => {
    const code = randomPaymentCode();
    const payload = vietQrPayload({ bin: '970436', accountNumber: '0123456789', amount: 207_000, note: code });
    const top = tlv(payload);
    expect(top.get('00')).toBe('01');
    expect(top.get('01')).toBe('12');
    expect(top.get('53')).toBe('704');
    expect(top.get('54')).toBe('207000');
    expect(top.get('58')).toBe('VN');
    const merchant = tlv(top.get('38') as string);
    expect(merchant.get('00')).toBe('A000000727');
    expect(merchant.get('02')).toBe('QRIBFTTA');
    const beneficiary = tlv(merchant.get('01') as string);
    expect([beneficiary.get('00'), beneficiary.get('01')]).toEqual(['970436', '0123456789']);
    const additional = tlv(top.get('62') as string);
    expect(additional.get('08')).toBe(code);
    expect((additional.get('08') as string).length).toBeLessThanOrEqual(25);
    expect(top.get('63')).toBe(crc16CcittFalse(payload.slice(0, -4)));
    expect(payload.slice(-8, -4)).toBe('6304');
  });
});
