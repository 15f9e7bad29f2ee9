// The service worker: shows a turn notification that arrives by Web Push while no page of the
// game is open (docs/notifications.md), and opens the game when it is clicked. The payload is
// the server's public notification JSON: {"kind","game","title","body","url","tag"}.
'use strict';

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

// Only pages of this site are opened, whatever a payload says.
function sameOriginUrl(url) {
  try {
    const resolved = new URL(url || '/', self.location.origin);
    return resolved.origin === self.location.origin ? resolved.href : self.location.origin + '/';
  } catch {
    return self.location.origin + '/';
  }
}

self.addEventListener('push', (event) => {
  let data = {};
  try {
    data = event.data ? event.data.json() : {};
  } catch {
    data = {};
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'VIKTORY II';
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      tag: typeof data.tag === 'string' ? data.tag : undefined,
      // A newer notification of the same game replaces the older one, and still alerts.
      renotify: typeof data.tag === 'string',
      icon: 'favicon.svg',
      data: { url: sameOriginUrl(data.url), game: data.game },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = sameOriginUrl(event.notification.data && event.notification.data.url);
  event.waitUntil(
    (async () => {
      // A page of the site that is open already goes to the game; else a new one opens.
      const pages = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const page of pages) {
        if (new URL(page.url).origin === self.location.origin) {
          await page.focus();
          return page.navigate(url);
        }
      }
      return self.clients.openWindow(url);
    })(),
  );
});
