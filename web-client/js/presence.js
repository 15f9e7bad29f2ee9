// Presence: whether a player is online now or when he was last seen (GET /api/presence). Any
// element with data-presence-player="<id>" gets the text and a class; answers are cached for a
// while so that a player list redrawn on every move does not ask the server each time.

import { timeAgo } from './util.js';

const CACHE_MS = 20000;
const cache = new Map(); // id -> {info, at}

async function fetchPresence(ids) {
  const now = Date.now();
  const missing = ids.filter((id) => !cache.has(id) || now - cache.get(id).at > CACHE_MS);
  if (missing.length) {
    try {
      const r = await fetch(`/api/presence?players=${missing.slice(0, 64).join(',')}`, { cache: 'no-store' });
      const { players } = await r.json();
      for (const [id, info] of Object.entries(players || {})) cache.set(id, { info, at: now });
    } catch {
      // Presence is a nicety: without an answer the tags stay empty.
    }
  }
  return Object.fromEntries(ids.filter((id) => cache.has(id)).map((id) => [id, cache.get(id).info]));
}

export function presenceText(info) {
  if (!info) return '';
  if (info.online) return 'online';
  return info.last_seen ? `seen ${timeAgo(info.last_seen)}` : 'offline';
}

export async function fillPresence(root) {
  const spots = [...root.querySelectorAll('[data-presence-player]')];
  const ids = [...new Set(spots.map((el) => el.dataset.presencePlayer).filter((id) => /^\d+$/.test(id)))];
  if (!ids.length) return;
  const known = await fetchPresence(ids);
  for (const el of spots) {
    const info = known[el.dataset.presencePlayer];
    el.textContent = presenceText(info);
    el.classList.toggle('online', Boolean(info && info.online));
  }
}
