// The service worker, registered on every visit (js/app.js):
// - serves the offline page (offline.html) when a page of the game is opened without a network;
// - shows a turn notification that arrives by Web Push while no page of the game is open
//   (docs/notifications.md), and opens the game when it is clicked. The payload is the
//   server's public notification JSON: {"kind","game","title","body","url","tag"}.
// Everything else goes to the network as it would without a worker: the browser's HTTP cache
// keeps the versioned files (docs/server.md, "Static files: versions, caching, compression").
'use strict';

// Bump the number when offline.html changes: a changed worker installs and fetches it anew.
const OFFLINE_CACHE = 'viktory-offline-1';
const OFFLINE_URL = '/offline.html';

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(OFFLINE_CACHE);
      await cache.add(new Request(OFFLINE_URL, { cache: 'reload' }));
      await self.skipWaiting();
    })(),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith('viktory-offline-') && name !== OFFLINE_CACHE) await caches.delete(name);
      }
      // Navigations start their request while the worker starts, instead of after.
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  if (event.request.mode !== 'navigate') return;
  event.respondWith(
    (async () => {
      try {
        const preloaded = await event.preloadResponse;
        return preloaded || (await fetch(event.request));
      } catch {
        const cache = await caches.open(OFFLINE_CACHE);
        return (await cache.match(OFFLINE_URL)) || Response.error();
      }
    })(),
  );
});

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
