// Friends (docs/protocol.md, "Friends"): the players this one follows (one-sided, as on
// lichess; the page calls them friends). From the server: GET /api/friends (names, and the online
// state of those whose profile privacy lets this player see it), POST /api/follow. This module
// keeps the list for the page and offers:
// - followButton(ctx, playerId): shows and toggles the follow (on the profile page, the lobby);
// - friendsPanel(ctx): the lobby's card (names, an online dot, unfollow);
// - sortFriendsFirst / isFriendsGame: the lobby puts friends' open games first, marked;
// - inviteFriendsBox(page): a waiting game's list of friends, each with an "Invite" button
//   (game.invite_friend: the friend is told by his own notifications).

import { loadSession } from './net.js';
import { h, timeAgo, toast } from './util.js';
import { serverErrorText } from './errors.js';
import { t } from './i18n.js';

const CHANGED = 'viktory:friends';
let state = { friends: [], followers: 0, loaded: false };
let loading = null;

async function call(path, { method = 'GET', body } = {}) {
  const session = loadSession();
  if (!session) throw new Error(t('error.authFailed'));
  const headers = { Accept: 'application/json', Authorization: `Bearer ${session.token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(path, { method, headers, cache: 'no-store', body: body === undefined ? undefined : JSON.stringify(body) });
  const data = await r.json().catch(() => null);
  if (!r.ok) {
    const err = (data && data.error) || {};
    throw new Error(serverErrorText(err.code, err.message || String(r.status)));
  }
  return data;
}

function changed() {
  window.dispatchEvent(new CustomEvent(CHANGED));
}

// Loads the list (again); the lobby and the buttons redraw on the event.
export function loadFriends() {
  if (!loading) {
    loading = call('/api/friends')
      .then((data) => {
        state = { friends: data.friends || [], followers: data.followers || 0, loaded: true };
        changed();
        return state;
      })
      .catch(() => state)
      .finally(() => {
        loading = null;
      });
  }
  return loading;
}

export function friends() {
  return state.friends;
}

export function isFriend(playerId) {
  return state.friends.some((f) => f.player === String(playerId));
}

// Calls `f` whenever the list changed; returns the function that stops it.
export function onFriendsChanged(f) {
  window.addEventListener(CHANGED, f);
  return () => window.removeEventListener(CHANGED, f);
}

export async function setFollow(playerId, follow) {
  await call('/api/follow', { method: 'POST', body: { player: String(playerId), follow } });
  await loadFriends();
}

// A game's creator or one of its seated players is followed by this player.
export function isFriendsGame(game) {
  if (!state.friends.length) return false;
  const creator = game.creator && typeof game.creator === 'object' ? game.creator.player_id : game.creator;
  const ids = [creator, ...(game.seats || []).map((s) => s.player_id)];
  return ids.some((id) => id && isFriend(id));
}

// Friends' games first, each group keeping its order.
export function sortFriendsFirst(games) {
  const mark = games.map((g) => [isFriendsGame(g), g]);
  return [...mark.filter(([f]) => f), ...mark.filter(([f]) => !f)].map(([, g]) => g);
}

// A button that shows whether this player follows `playerId` and toggles it. `inRow`: a link
// styled as a small button (role "button"), for a row whose one <button> is its main action
// (the lobby's open games: "Join", which pages and tests find as the row's button).
export function followButton(ctx, playerId, { inRow = false } = {}) {
  const id = String(playerId);
  const button = inRow
    ? h('a', { href: '#', role: 'button', class: 'btn btn-small follow-button', dataset: { followPlayer: id } })
    : h('button', { type: 'button', class: 'btn btn-small follow-button', dataset: { followPlayer: id } });
  if (inRow) {
    button.addEventListener('keydown', (ev) => {
      if (ev.key === ' ') {
        ev.preventDefault();
        button.click();
      }
    });
  }
  const render = () => {
    const on = isFriend(id);
    button.textContent = on ? t('friends.unfollow') : t('friends.follow');
    button.setAttribute('aria-pressed', String(on));
    button.classList.toggle('following', on);
  };
  let busy = false;
  button.addEventListener('click', async (ev) => {
    ev.preventDefault();
    if (busy) return;
    busy = true;
    button.setAttribute('aria-disabled', 'true');
    try {
      await setFollow(id, !isFriend(id));
    } catch (err) {
      toast(err.message, 'error');
    } finally {
      busy = false;
      button.removeAttribute('aria-disabled');
      render();
    }
  });
  const session = ctx && ctx.session;
  if (session && String(session.player_id) === id) button.hidden = true;  // not oneself
  render();
  // The list changes after a fetch, when the button is on the page; a button a redraw took
  // away stops listening.
  const off = onFriendsChanged(() => (button.isConnected ? render() : off()));
  if (!state.loaded) loadFriends();
  return button;
}

function onlineText(f) {
  if (!('online' in f)) return '';
  if (f.online) return t('presence.online');
  return f.last_seen ? t('presence.seen', { ago: timeAgo(f.last_seen) }) : t('presence.offline');
}

// The lobby's card: the friends, an online dot (when their privacy shows it), unfollow.
export function friendsPanel() {
  const list = h('ul', { class: 'friends-list', id: 'friends-list' });
  const followers = h('p', { class: 'subtle', id: 'friends-followers' });
  const render = () => {
    list.replaceChildren(
      ...state.friends.map((f) =>
        h(
          'li',
          { class: 'friend', dataset: { player: f.player } },
          h('span', { class: `online-dot${f.online ? ' online' : ''}${'online' in f ? '' : ' unknown'}`, 'aria-hidden': 'true' }),
          h('b', {}, f.name),
          h('span', { class: 'subtle friend-seen' }, onlineText(f)),
          h('button', { type: 'button', class: 'btn btn-small', onclick: () => setFollow(f.player, false).catch((err) => toast(err.message, 'error')) }, t('friends.unfollow')),
        ),
      ),
    );
    if (!state.friends.length) list.append(h('li', { class: 'subtle empty' }, t('friends.none')));
    followers.textContent = t('friends.followers', { count: state.followers });
  };
  render();
  const section = h('section', { class: 'card friends-card', id: 'friends' }, h('h2', {}, t('friends.title')), list, followers);
  const off = onFriendsChanged(render);
  // Online states change: look again now and then while the card is on the page.
  const timer = setInterval(() => {
    if (!section.isConnected) {
      clearInterval(timer);
      off();
      return;
    }
    if (document.visibilityState === 'visible') loadFriends();
  }, 15000);
  loadFriends();
  return section;
}

// A waiting game's invitations: each friend without a seat, with a button that tells him
// (game.invite_friend). A private game's code is sent along (the link the friend gets).
export function inviteFriendsBox(page, seats) {
  const box = h('div', { class: 'invite-friends', id: 'invite-friends' });
  const seated = new Set((seats.seats || []).map((s) => s.player_id).filter(Boolean).map(String));
  const sent = new Set();
  const render = () => {
    // Friends both ways only: the server refuses an invitation to a player who does not follow
    // the inviter too (nobody gets invitations from players he did not choose to hear from).
    const open = state.friends.filter((f) => !seated.has(f.player) && f.follows_you);
    box.replaceChildren(h('h3', {}, t('friends.inviteTitle')));
    if (!open.length) {
      box.append(h('p', { class: 'subtle' }, t('friends.noneToInvite')));
      return;
    }
    box.append(
      h(
        'ul',
        { class: 'friends-list' },
        open.map((f) => {
          const button = h('button', { type: 'button', class: 'btn btn-small btn-primary', disabled: sent.has(f.player), dataset: { invitePlayer: f.player } }, sent.has(f.player) ? t('friends.invited') : t('friends.invite'));
          button.addEventListener('click', async () => {
            button.disabled = true;
            try {
              const payload = { game_id: page.gameId, player: f.player };
              if (page.invite) payload.invite = page.invite;
              await page.ctx.conn.request('game.invite_friend', payload);
              sent.add(f.player);
              toast(t('friends.invitedToast', { name: f.name }));
              render();
            } catch (err) {
              button.disabled = false;
              toast(err.message, 'error');
            }
          });
          return h(
            'li',
            { class: 'friend' },
            h('span', { class: `online-dot${f.online ? ' online' : ''}${'online' in f ? '' : ' unknown'}`, 'aria-hidden': 'true' }),
            h('b', {}, f.name),
            button,
          );
        }),
      ),
    );
  };
  render();
  const off = onFriendsChanged(() => (box.isConnected ? render() : off()));
  loadFriends();
  return box;
}
