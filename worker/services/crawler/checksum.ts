// Change detection for re-crawls: SHA-256 (WebCrypto, so Workers too) over the mapped film, not the
// raw detail, so view counters and timestamps the source bumps do not count as changes.

import { toHex } from '../../lib/bytes';

/** Bump when the mapping changes meaning, so every film is rewritten once with the new mapping. */
// v2: films carry their external ids and their servers the source's label (issue 32): every film once more.
const MAPPING_VERSION = 'v2';

export async function filmChecksum(film: unknown): Promise<string> {
  const bytes = new TextEncoder().encode(`${MAPPING_VERSION}:${stableJson(film)}`);
  const digest = await crypto.subtle.digest('SHA-256', bytes);
  return toHex(new Uint8Array(digest));
}

/** JSON with object keys sorted, so equal values always hash the same. */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
