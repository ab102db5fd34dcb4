/**
 * Google Analytics (gtag.js), only when VITE_GA_MEASUREMENT_ID is set at build time. The CSP allows
 * scripts from googletagmanager.com but no inline script, so the gtag stub lives here.
 */
export function initAnalytics(): void {
  const id = import.meta.env.VITE_GA_MEASUREMENT_ID as string | undefined;
  if (!id || !/^G-[A-Z0-9]+$/i.test(id)) return;
  const w = window as unknown as { dataLayer: unknown[]; gtag: (...args: unknown[]) => void };
  w.dataLayer = w.dataLayer ?? [];
  w.gtag = function gtag() {
    // biome-ignore lint/complexity/noArguments: gtag.js only reads commands pushed as an arguments object (its official snippet), not arrays.
    w.dataLayer.push(arguments);
  };
  w.gtag('js', new Date());
  w.gtag('config', id);
  const script = document.createElement('script');
  script.async = true;
  script.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
  document.head.appendChild(script);
}
