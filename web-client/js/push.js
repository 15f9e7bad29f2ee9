// Web Push on this device: registers the service worker (sw.js), subscribes with the server's
// VAPID public key and hands the subscription to the server (docs/protocol.md, "Turn
// notifications"). Browsers allow it only in secure contexts (https, or localhost).

import { t } from './i18n.js';
import { serverErrorText } from './errors.js';

export function pushSupported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window && window.isSecureContext;
}

function keyBytes(base64url) {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/');
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

async function call(path, { method = 'GET', body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new Error(err.code ? serverErrorText(err.code, err.message) : t('net.requestFailed', { status: response.status }));
  }
  return data;
}

export async function registerWorker() {
  return navigator.serviceWorker.register(new URL('sw.js', location.href).pathname, { scope: '/' });
}

// The subscription of this browser, or null.
export async function currentSubscription() {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return registration ? registration.pushManager.getSubscription() : null;
}

// Asks for permission, subscribes and tells the server. Throws with a reason for people.
export async function enablePush(token) {
  if (!pushSupported()) throw new Error(t('push.unsupported'));
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new Error(t('push.blocked'));
  const registration = await registerWorker();
  await navigator.serviceWorker.ready;
  const { public_key: key } = await call('/api/push/key');
  let subscription = await registration.pushManager.getSubscription();
  if (!subscription) {
    subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(key) });
  }
  return call('/api/push/subscription', { method: 'POST', token, body: subscription.toJSON() });
}

export async function disablePush(token) {
  const subscription = await currentSubscription();
  if (!subscription) return null;
  const endpoint = subscription.endpoint;
  await subscription.unsubscribe();
  return call('/api/push/subscription', { method: 'DELETE', token, body: { endpoint } });
}

// This browser's time zone (an IANA name such as "Europe/Berlin"), or null: the server tells
// deadlines in notifications and sends the daily digest by it.
export function browserTimeZone() {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || null;
  } catch {
    return null;
  }
}

const TZ_SENT = 'viktory.time-zone-sent';

// Tells the server this browser's time zone once per player and zone (on sign-in and page
// load); saving the settings sends it as well. Failures are ignored: deadlines stay in UTC.
export async function rememberTimeZone(session) {
  const zone = browserTimeZone();
  if (!session || !zone) return;
  const key = `${session.player_id}:${zone}`;
  try {
    if (localStorage.getItem(TZ_SENT) === key) return;
  } catch {
    // no storage: send it every time
  }
  try {
    await call('/api/notify/settings', { method: 'POST', token: session.token, body: { time_zone: zone } });
    localStorage.setItem(TZ_SENT, key);
  } catch {
    // an unknown zone or no server: deadlines in UTC
  }
}

export const notifyApi = {
  settings: (token) => call('/api/notify/settings', { token }),
  set: (token, values) => {
    const zone = browserTimeZone();
    return call('/api/notify/settings', { method: 'POST', token, body: zone ? { ...values, time_zone: zone } : values });
  },
  mute: (token, gameId, muted) => call('/api/notify/mute', { method: 'POST', token, body: { game_id: gameId, muted } }),
  webhook: (token, gameId) => call(`/api/notify/webhook?game_id=${encodeURIComponent(gameId)}`, { token }),
  setWebhook: (token, gameId, url, format) => call('/api/notify/webhook', { method: 'POST', token, body: { game_id: gameId, url, format } }),
};
