// Presence: whether a player is online now or when he was last seen (GET /api/presence, which
// answers a signed-in player about the players who share a game with him). Any element with
// data-presence-player="<id>" gets the text and a class. While a page shows such elements and is
// visible it asks again every REFRESH_MS, so that a closed tab shows as offline within a few
// seconds: the server knows at once when a connection ends (and within its idle timeout when one
// falls silent); what lagged was this page, which kept an answer for 20 s and only looked again
// when the list was redrawn.

import { timeAgo } from './util.js';
import { t } from './i18n.js';
import { loadSession } from './net.js';

const REFRESH_MS = 2000;
const MAX_IDS = 64; // per request (the server's limit)
const cache = new Map(); // id -> {info, at}
const roots = new Set(); // elements whose presence tags are kept up to date
let timer = null;

async function fetchPresence(ids, maxAge) {
  const now = Date.now();
  const missing = ids.filter((id) => !cache.has(id) || now - cache.get(id).at >= maxAge);
  const session = loadSession();
  for (let i = 0; session && i < missing.length; i += MAX_IDS) {
    const batch = missing.slice(i, i + MAX_IDS);
    try {
      const r = await fetch(`/api/presence?players=${batch.join(',')}`, {
        cache: 'no-store',
        headers: { Authorization: `Bearer ${session.token}` },
      });
      // Over the rate limit (429) or signed out (401): the tags keep what they showed.
      if (!r.ok) continue;
      const { players } = await r.json();
      for (const id of batch) {
        // Left out of the answer: not a player this one may see.
        if (players && players[id]) cache.set(id, { info: players[id], at: now });
        else cache.delete(id);
      }
    } catch {
      // Presence is a nicety: without an answer the tags stay as they are.
    }
  }
  return Object.fromEntries(ids.filter((id) => cache.has(id)).map((id) => [id, cache.get(id).info]));
}

export function presenceText(info) {
  if (!info) return '';
  if (info.online) return t('presence.online');
  return info.last_seen ? t('presence.seen', { ago: timeAgo(info.last_seen) }) : t('presence.offline');
}

async function fill(root, maxAge) {
  const spots = [...root.querySelectorAll('[data-presence-player]')];
  const ids = [...new Set(spots.map((el) => el.dataset.presencePlayer).filter((id) => /^\d+$/.test(id)))];
  if (!ids.length) return;
  const known = await fetchPresence(ids, maxAge);
  for (const el of spots) {
    const info = known[el.dataset.presencePlayer];
    el.textContent = presenceText(info);
    el.classList.toggle('online', Boolean(info && info.online));
  }
}

async function refresh() {
  for (const root of [...roots]) {
    if (!root.isConnected) roots.delete(root);
  }
  if (!roots.size) {
    clearInterval(timer);
    timer = null;
    return;
  }
  // A hidden page asks nothing; it catches up as soon as it is shown again.
  if (document.visibilityState === 'hidden') return;
  // One request for every root, then each is filled from the answers.
  const ids = new Set();
  for (const root of roots) {
    for (const el of root.querySelectorAll('[data-presence-player]')) {
      if (/^\d+$/.test(el.dataset.presencePlayer)) ids.add(el.dataset.presencePlayer);
    }
  }
  if (!ids.size) return;
  await fetchPresence([...ids], REFRESH_MS / 2);
  for (const root of roots) fill(root, Infinity);
}

if (typeof document !== 'undefined') {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && timer) refresh();
  });
}

// Fills the presence tags under `root` now (from answers younger than REFRESH_MS) and keeps
// them up to date while `root` is in the page.
export async function fillPresence(root) {
  roots.add(root);
  if (!timer) timer = setInterval(refresh, REFRESH_MS);
  await fill(root, REFRESH_MS);
}
