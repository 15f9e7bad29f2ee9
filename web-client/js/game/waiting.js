// The waiting room: seats, options and the invitation link before a game starts (the link box
// is also in the meta panel of a running private game).

import { h, seatStyle, toast } from '../util.js';
import { optionsText } from '../options.js';
import { timeControlText } from '../clock_options.js';

export function renderWaitingRoom(page, status) {
  const box = page.els.waiting;
  box.replaceChildren();
  if (page.fatal) {
    box.append(h('h1', {}, `Game ${page.gameId}`), h('p', { class: 'form-error', id: 'game-error' }, page.fatal), h('a', { class: 'btn', href: '#/' }, 'Back to the lobby'));
    return;
  }
  if (!page.seats) {
    box.append(h('p', { class: 'loading' }, 'Loading the game…'));
    return;
  }
  const seats = page.seats;
  const me = page.ctx.session ? page.ctx.session.player_id : null;
  const seated = seats.seats.some((x) => x.player_id === me);
  const isCreator = seats.creator === me;
  const opts = seats.options || {};
  box.append(h('h1', {}, `Game ${page.gameId}`));
  if (status === 'cancelled') {
    box.append(h('p', {}, 'This game was cancelled by its creator.'), h('a', { class: 'btn', href: '#/' }, 'Back to the lobby'));
    return;
  }
  box.append(
    h('p', { class: 'subtle' }, `${opts.players || seats.seats.length} seats · ${optionsText(opts, { players: false })}${seats.private ? ' · private' : ' · public'}`),
    h('p', { class: 'time-control', id: 'waiting-clock' }, h('b', {}, 'Clock: '), timeControlText(seats.clock)),
    h('p', {}, status === 'open' ? 'Waiting for players. The game starts when every seat is taken, or when the creator starts it.' : 'Starting…'),
  );
  const list = h('ol', { class: 'seat-list' });
  for (const seat of seats.seats) {
    const st = seatStyle(seat.seat);
    list.append(
      h(
        'li',
        { class: seat.player_id ? 'taken' : 'free', dataset: { seat: seat.seat } },
        h('span', { class: 'swatch', style: `background:${st.fill};border-color:${st.edge}` }),
        h('b', {}, st.name),
        ' — ',
        seat.name ? h('span', {}, seat.name, seat.player_id === me ? ' (you)' : '', seat.player_id === seats.creator ? ' · creator' : '') : h('span', { class: 'subtle' }, 'free seat'),
      ),
    );
  }
  box.append(list);
  const row = h('div', { class: 'button-row' });
  const free = seats.seats.some((x) => !x.player_id);
  if (!seated && free && status === 'open') {
    row.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'join-game', onclick: () => page.join() }, 'Join this game'));
  }
  if (seated && isCreator && status === 'open') {
    const count = seats.seats.filter((x) => x.player_id).length;
    row.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'start-game', disabled: count < 2, title: count < 2 ? 'At least 2 players are needed' : '', onclick: () => page.startGame() }, count < 2 ? 'Start now (needs 2 players)' : `Start now with ${count} players`));
  }
  if (seated && status === 'open') {
    row.append(h('button', { type: 'button', class: 'btn', onclick: () => page.leave() }, isCreator ? 'Cancel game' : 'Leave seat'));
  }
  row.append(h('a', { class: 'btn', href: '#/' }, 'Lobby'));
  box.append(row);
  if (status === 'open') box.append(inviteBox(page, seats, isCreator));
}

// The link to share. The server keeps only a hash of a private game's invitation, so the
// code is known where it was received (this browser remembers it); the creator may always
// make a new one (the old link then stops working).
export function inviteBox(page, seats, isCreator) {
  const renew = isCreator && seats.private ? h('button', { type: 'button', class: 'btn btn-small', id: 'new-invite', onclick: () => page.newInvite() }, page.invite ? 'New link' : 'Make a link') : null;
  if (seats.private && !page.invite) {
    return h('div', { class: 'invite' }, h('p', { class: 'subtle' }, isCreator ? 'The invitation link is shown only in the browser that created the game. Make a new one here (any older link stops working).' : 'This game is private.'), renew);
  }
  const link = page.invite ? `${location.origin}${location.pathname}#/join/${page.gameId}/${page.invite}` : `${location.origin}${location.pathname}#/game/${page.gameId}`;
  const input = h('input', { type: 'text', readonly: true, value: link, class: 'invite-link', id: 'invite-link', 'aria-label': 'Invitation link' });
  return h(
    'div',
    { class: 'invite' },
    h('label', { for: 'invite-link' }, seats.private ? 'Invitation link (only people with this link can join or watch):' : 'Link to this game:'),
    h('div', { class: 'invite-row' }, input, h('button', { type: 'button', class: 'btn btn-small', onclick: () => copyText(input) }, 'Copy'), renew),
  );
}

function copyText(input) {
  input.select();
  if (navigator.clipboard) {
    navigator.clipboard.writeText(input.value).then(() => toast('Link copied.'), () => toast('Select the link and copy it.'));
  } else {
    toast('Select the link and copy it.');
  }
}
