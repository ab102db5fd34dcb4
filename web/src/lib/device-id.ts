// This browser's random id for counting plays (issue 40 §3): made once, kept in localStorage, nothing else in it.
// The server keeps only its hash; it identifies no one, and clearing site data makes a new one.
const KEY = 'phimviet-device';

let memo: string | null = null;

export function deviceId(): string {
  if (memo) return memo;
  try {
    const kept = localStorage.getItem(KEY);
    if (kept && /^[A-Za-z0-9_-]{16,64}$/.test(kept)) {
      memo = kept;
      return kept;
    }
  } catch {
    // Storage refused (private mode): an id for this page session.
  }
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  const made = [...bytes].map((b) => b.toString(16).padStart(2, '0')).join('');
  memo = made;
  try {
    localStorage.setItem(KEY, made);
  } catch {
    // Kept in memory only.
  }
  return made;
}
