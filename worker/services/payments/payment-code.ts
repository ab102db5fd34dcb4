// The short payment code of a bank transfer and finding it again in a bank's transfer note
// (docs/decisions/0403-bank-notifications.md).
import { PAYMENT_CODE_ALPHABET, PAYMENT_CODE_PREFIX, PAYMENT_CODE_RANDOM_LENGTH } from '../../schemas/vip';

/** The largest multiple of the alphabet's size below 256: bytes at or above it are drawn again, so every character is equally likely. */
const UNBIASED_LIMIT = 256 - (256 % PAYMENT_CODE_ALPHABET.length);

/** "PV" and 8 characters drawn with crypto.getRandomValues: ~39 bits, not guessable from other orders. */
export function randomPaymentCode(): string {
  let code = PAYMENT_CODE_PREFIX;
  while (code.length < PAYMENT_CODE_PREFIX.length + PAYMENT_CODE_RANDOM_LENGTH) {
    for (const byte of crypto.getRandomValues(new Uint8Array(16))) {
      if (byte >= UNBIASED_LIMIT) continue;
      code += PAYMENT_CODE_ALPHABET[byte % PAYMENT_CODE_ALPHABET.length];
      if (code.length === PAYMENT_CODE_PREFIX.length + PAYMENT_CODE_RANDOM_LENGTH) break;
    }
  }
  return code;
}

const CODE_CHARS = new Set(PAYMENT_CODE_ALPHABET);

/**
 * Every string in `text` that has the shape of a payment code, in order of appearance. Banks add their own
 * words around the note, may change its case and drop separators, so the text is upper-cased and read
 * with everything but letters and digits removed; each "PV" followed by 8 characters of the alphabet is a
 * candidate (a glued neighbour word after it does not matter, the code has a fixed length).
 */
export function paymentCodeCandidates(text: string): string[] {
  const letters = text.toUpperCase().replace(/[^A-Z0-9]/g, '');
  const found: string[] = [];
  const length = PAYMENT_CODE_PREFIX.length + PAYMENT_CODE_RANDOM_LENGTH;
  for (let at = letters.indexOf(PAYMENT_CODE_PREFIX); at !== -1; at = letters.indexOf(PAYMENT_CODE_PREFIX, at + 1)) {
    const candidate = letters.slice(at, at + length);
    if (
      candidate.length === length &&
      [...candidate.slice(PAYMENT_CODE_PREFIX.length)].every((c) => CODE_CHARS.has(c)) &&
      !found.includes(candidate)
    )
      found.push(candidate);
  }
  return found;
}
