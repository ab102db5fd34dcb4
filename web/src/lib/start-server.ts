/**
 * The server a watch page starts on: the one asked for (`?server=`) when it has links, else the first that has
 * any. The film page (what it prepares), the start path and the watch page must agree on it.
 */
export function startServer<S extends { server_name: string; linkfilms: readonly unknown[] }>(
  servers: readonly S[],
  requested?: string,
): S | undefined {
  const playable = servers.filter((s) => s.linkfilms.length > 0);
  return playable.find((s) => s.server_name === requested) ?? playable[0];
}
