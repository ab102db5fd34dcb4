/** 'tap-3' → 3; anything else → undefined. */
export function parseEpisodeSegment(segment: string): number | undefined {
  const m = /^tap-(\d{1,5})$/.exec(segment);
  if (!m) return undefined;
  const n = Number(m[1]);
  return n >= 1 ? n : undefined;
}
