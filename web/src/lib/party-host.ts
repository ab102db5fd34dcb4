/**
 * Where the live-comment rooms are (docs/architecture.md, docs/decisions/0201), as partysocket wants it.
 * In order: a `<meta name="partykit-host">` in the page (the Node host writes it into the shell at run time);
 * the build's VITE_PARTYKIT_HOST (vite.config.ts falls back to PARTYKIT_HOST, the variable the
 * build already reads for the CSP); else PartyKit beside the site on port 1999, which is what
 * `npm start` runs. On a loopback page that is 127.0.0.1:1999, the API's default PARTYKIT_HOST and
 * so the origin its CSP allows (ws://localhost:1999 would be refused).
 */
export function partyEndpoint(loc: Location = window.location): { host: string; protocol: 'ws' | 'wss' } {
  const configured = (
    document.querySelector<HTMLMetaElement>('meta[name="partykit-host"]')?.content ||
    (import.meta.env.VITE_PARTYKIT_HOST as string | undefined) ||
    ''
  ).trim();
  if (configured) {
    const url = new URL(/^[a-z]+:\/\//i.test(configured) ? configured : `${loc.protocol}//${configured}`);
    return { host: url.host, protocol: url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss' : 'ws' };
  }
  const loopback = loc.hostname === 'localhost' || loc.hostname === '127.0.0.1' || loc.hostname === '[::1]';
  return { host: `${loopback ? '127.0.0.1' : loc.hostname}:1999`, protocol: loc.protocol === 'https:' ? 'wss' : 'ws' };
}
