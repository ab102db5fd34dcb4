// Where a dead stream goes next (DESIGN §17, issue 31): the servers in the order the API gives them (issue 32
// puts a source that is down last), skipping those that failed for this episode, then the embed link of the
// first failed server that has one, then nothing ("Thử lại" and "Báo lỗi"). Pure: the watch page applies it.

export interface ServerEpisodes {
  server_name: string;
  linkfilms: readonly { episode: number }[];
}

export type NextSource = { kind: 'stream'; server: string } | { kind: 'embed'; embed: string } | { kind: 'dead' };

/**
 * The next source for `episode` once the servers in `failed` (in the order they failed) are dead: the first
 * server in the API's order that has the episode and has not failed; else the first embed link among the failed
 * servers (`embedOf`); else dead.
 */
export function nextSource(
  servers: readonly ServerEpisodes[],
  failed: readonly string[],
  episode: number,
  embedOf: (server: string) => string | undefined,
): NextSource {
  const next = servers.find((s) => !failed.includes(s.server_name) && s.linkfilms.some((e) => e.episode === episode));
  if (next) return { kind: 'stream', server: next.server_name };
  for (const name of failed) {
    const embed = embedOf(name);
    if (embed) return { kind: 'embed', embed };
  }
  return { kind: 'dead' };
}
