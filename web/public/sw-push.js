// Web Push handlers, imported into the service worker that vite-plugin-pwa generates (web/pwa.config.ts,
// workbox.importScripts; docs/decisions/0800-member-library.md). The server sends
// { type: 'new-episode', title, body, url, slug, episode, icon? } (worker/schemas/library.ts).
/* global self, URL */
self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = { title: event.data ? event.data.text() : '' };
  }
  const url = typeof data.url === 'string' && /^\/(?![/\\])/.test(data.url) ? data.url : '/';
  event.waitUntil(
    self.registration.showNotification(data.title || 'PhimViet', {
      body: data.body || '',
      icon: data.icon || '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      lang: 'vi',
      // A newer episode of the same film replaces the older notification.
      tag: data.slug ? `new-episode-${data.slug}` : undefined,
      renotify: !!data.slug,
      data: { url },
    }),
  );
});

// Focuses a window already showing the episode, or takes an open window of the app there, or opens one.
self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const target = new URL((event.notification.data && event.notification.data.url) || '/', self.location.origin).href;
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const exact = windows.find((c) => c.url === target);
      if (exact) return exact.focus();
      const ours = windows.find((c) => new URL(c.url).origin === self.location.origin && 'navigate' in c);
      if (ours) {
        const focused = await ours.focus();
        return focused.navigate(target);
      }
      return self.clients.openWindow(target);
    })(),
  );
});
