/**
 * The VietQR payload (NAPAS EMVCo merchant-presented QR) of a transfer to a bank account: the string a
 * Vietnamese banking app scans to fill in bank, account, exact amount and note in one step. Pure, so it is
 * tested against payloads published by NAPAS and by a payment provider (tests/unit/vietqr.test.ts).
 *
 * Layout (ID, two-digit length, value): 00 payload format "01"; 01 point of initiation "12" (dynamic: one
 * payment of one amount); 38 merchant account information = 00 NAPAS GUID "A000000727", 01 beneficiary
 * (00 bank BIN, 01 account number), 02 service "QRIBFTTA" (transfer to an account); 53 currency "704"
 * (VND); 54 amount; 58 country "VN"; 62 additional data = 08 purpose of transaction (the transfer note);
 * 63 CRC16-CCITT-FALSE over everything before it, "6304" included.
 */

export const NAPAS_GUID = 'A000000727';
export const SERVICE_TO_ACCOUNT = 'QRIBFTTA';

export interface VietQrTransfer {
  /** The bank's 6-digit NAPAS BIN (e.g. 970436 Vietcombank). */
  bin: string;
  accountNumber: string;
  /** Whole VND. */
  amount: number;
  /** The transfer note (nội dung chuyển khoản). */
  note: string;
}

/** One EMVCo data object: ID, length in two digits, value. */
function field(id: string, value: string): string {
  if (value.length > 99) throw new RangeError(`VietQR field ${id} is longer than 99 characters`);
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

/** CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final xor), 4 upper-case hex digits. */
export function crc16CcittFalse(text: string): string {
  let crc = 0xffff;
  for (const byte of new TextEncoder().encode(text)) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** The payload string; a RangeError when an input cannot be encoded (the page then shows no QR). */
export function vietQrPayload({ bin, accountNumber, amount, note }: VietQrTransfer): string {
  if (!/^\d{6}$/.test(bin)) throw new RangeError('bank BIN must be 6 digits');
  if (!/^[0-9A-Za-z]{1,19}$/.test(accountNumber)) throw new RangeError('account number must be 1 to 19 letters or digits');
  if (!Number.isSafeInteger(amount) || amount <= 0 || String(amount).length > 13) throw new RangeError('amount must be whole VND');
  if (!PRINTABLE_ASCII.test(note)) throw new RangeError('note must be printable ASCII');
  const merchant = field(
    '38',
    field('00', NAPAS_GUID) + field('01', field('00', bin) + field('01', accountNumber)) + field('02', SERVICE_TO_ACCOUNT),
  );
  const body = `${field('00', '01')}${field('01', '12')}${merchant}${field('53', '704')}${field('54', String(amount))}${field('58', 'VN')}${field('62', field('08', note))}6304`;
  return body + crc16CcittFalse(body);
}
