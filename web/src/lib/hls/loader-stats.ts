import type { LoaderStats } from 'hls.js';

/** A fresh LoaderStats for a loader of our own (hls.js reads these fields on every load, whatever answered it). */
export function newLoaderStats(): LoaderStats {
  return {
    aborted: false,
    loaded: 0,
    retry: 0,
    total: 0,
    chunkCount: 0,
    bwEstimate: 0,
    loading: { start: 0, first: 0, end: 0 },
    parsing: { start: 0, end: 0 },
    buffering: { start: 0, first: 0, end: 0 },
  };
}
