// Chat mutes and read marks (docs/protocol.md, "Chat comforts"): a player mutes another from
// a chat line's name; the server then never sends him that player's lines (history included).
// The account page lists the muted players with "unmute". The read mark tells the server what
// the player has seen of the players' chat, so that "Your games" can mark unread chat.

import { ApiError } from './net.js';
import { h, toast } from './util.js';
import { t } from './i18n.js';
import { serverErrorText } from './errors.js';

async function muteFetch(path, token, body) {
  const headers = { Accept: 'application/json', Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  let response;
  try {
    response = await fetch(path, { method: body === undefined ? 'GET' : 'POST', headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network', t('net.unreachable'));
  }
  const data = await response.json().catch(() => null);
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(response.status, err.code || `http_${response.status}`, serverErrorText(err.code, err.message));
  }
  return data;
}

export const muteApi = {
  list: (token) => muteFetch('/api/mutes', token),
  set: (token, playerId, mute) => muteFetch('/api/mute', token, { player: String(playerId), mute }),
};

// After a mute: his lines leave the page at once (the server sends no more of them).
export async function mutePlayer(page, playerId) {
  await muteApi.set(page.ctx.session.token, playerId, true);
  const keep = (m) => m.from_player !== String(playerId);
  page.channel.chat = (page.channel.chat || []).filter(keep);
  if (page.channel.state) page.channel.state.chat = page.channel.chat;
}

// Whether the list is on screen now. The observer's flag alone can be stale: when the game's
// state arrives, the map is laid out above the chat (on a phone) after the render that calls
// markChatRead, so the chat seen for a moment on the empty page would count as read.
function onScreenNow(list) {
  const r = list.getBoundingClientRect();
  return r.height > 0 && r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
}

// Tells the server "read up to here" when the players' chat is in sight: the panel open, on
// screen (on a phone it sits below the map) and the tab visible. Only moves forward.
export function markChatRead(page) {
  if (page.seatFromSeats() === null || !page.ctx.conn) return;
  const list = page.els.chatList;
  const panel = list.closest('details');
  if (document.visibilityState !== 'visible' || (panel && !panel.open) || !page.chatInView) return;
  if (!onScreenNow(list)) return;
  let last = 0;
  for (const m of page.channel.chat || []) {
    if (m.channel === 'players' && typeof m.id === 'number' && m.id > last) last = m.id;
  }
  if (last <= (page.chatReadUpTo || 0)) return;
  page.chatReadUpTo = last;
  if (page.ctx.conn.isOnline()) page.ctx.conn.sendRaw({ type: 'game.chat_read', game_id: page.gameId, up_to: last });
}

// Installed once per game page: watches whether the chat is on screen.
export function installChatRead(page) {
  if (page.chatReadInstalled) return;
  page.chatReadInstalled = true;
  const list = page.els.chatList;
  if (typeof IntersectionObserver === 'function') {
    const seen = new IntersectionObserver((entries) => {
      page.chatInView = entries.some((e) => e.isIntersecting);
      markChatRead(page);
    });
    seen.observe(list);
    page.listeners.push(() => seen.disconnect());
  } else {
    page.chatInView = true;
  }
  page.on(document, 'visibilitychange', () => markChatRead(page));
  const panel = list.closest('details');
  if (panel) page.on(panel, 'toggle', () => markChatRead(page));
}

// The account page's list of muted players, each with "unmute".
export function mutedPlayersSection(ctx, error) {
  const token = ctx.session.token;
  const box = h('section', { id: 'muted-players' });
  const render = (mutes) => {
    box.replaceChildren(
      h('h3', {}, t('chat.mutedTitle')),
      h('p', {}, t('chat.mutedHelp')),
      mutes.length
        ? h(
            'ul',
            { class: 'muted-list' },
            mutes.map((m) =>
              h(
                'li',
                { dataset: { playerId: m.player_id } },
                h('span', {}, m.name),
                ' ',
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'btn btn-small unmute',
                    onclick: async () => {
                      error.textContent = '';
                      try {
                        await muteApi.set(token, m.player_id, false);
                        toast(t('chat.unmuted', { name: m.name }));
                        render(mutes.filter((x) => x !== m));
                      } catch (err) {
                        error.textContent = err.message;
                      }
                    },
                  },
                  t('chat.unmute'),
                ),
              ),
            ),
          )
        : h('p', { class: 'subtle' }, t('chat.mutedNone')),
    );
  };
  muteApi.list(token).then(
    (reply) => render(reply.mutes || []),
    (err) => {
      error.textContent = err.message;
    },
  );
  return box;
}
