import type { Config } from '../config';

/**
 * Headers for every response, API and static alike. frame-src lists the embed players the crawler
 * may hand out (OPhim/KKPhim embeds) so a crawled embed link plays and nothing else can be framed.
 */
export function securityHeaders(config: Config): Record<string, string> {
  const party = new URL(config.PARTYKIT_HOST);
  const partyWs = `${party.protocol === 'https:' ? 'wss:' : 'ws:'}//${party.host}`;
  // Demo posters and the demo HLS clip carry absolute PUBLIC_URL links; allow them when the site is
  // opened under another host name (127.0.0.1 vs localhost).
  const site = new URL(config.PUBLIC_URL).origin;
  const csp = [
    "default-src 'self'",
    "script-src 'self' https://accounts.google.com/gsi/client https://www.googletagmanager.com",
    "style-src 'self' 'unsafe-inline' https://accounts.google.com/gsi/style",
    `img-src 'self' ${site} data: blob: https:`,
    `media-src 'self' ${site} blob: https:`,
    "font-src 'self' data:",
    `connect-src 'self' ${site} ${party.origin} ${partyWs} https: https://accounts.google.com https://www.google-analytics.com`,
    'frame-src https://accounts.google.com https://www.youtube-nocookie.com https://*.opstream1.com https://*.opstream2.com https://*.opstream3.com https://*.opstream4.com https://*.opstream5.com https://*.opstream10.com https://*.opstream11.com https://*.opstream12.com https://*.opstream13.com https://*.opstream14.com https://*.opstream15.com https://*.opstream16.com https://*.opstream17.com https://*.phimapi.com https://*.kkphimplayer6.com https://player.phimapi.com',
    "worker-src 'self' blob:",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self' https://sandbox.vnpayment.vn https://pay.vnpay.vn https://test-payment.momo.vn https://payment.momo.vn",
  ].join('; ');
  return {
    'Content-Security-Policy': csp,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'X-Frame-Options': 'DENY',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
  };
}
