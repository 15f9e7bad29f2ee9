// The invitation page (#/join/<id>/<invite>): who invites you to which game, its options and
// seats, and a button to take a seat. Read from the game summary the server gives to holders of
// the invitation (GET /api/games/<id>?invite=...), so nothing is joined by just opening a link.

import { api } from './net.js';
import { h, seatStyle, toast } from './util.js';
import { saveInvite } from './invites.js';
import { optionsText } from './options.js';
import { timeControlText } from './clock_options.js';
import { t } from './i18n.js';
import { followToServer } from './elsewhere.js';

export { optionsText } from './options.js';

// The summary of a game as a few lines (also above the name form, for visitors without a name).
export function inviteSummary(summary) {
  const creator = summary.creator && summary.creator.name ? summary.creator.name : t('invite.someone');
  const seats = h(
    'ol',
    { class: 'seat-list' },
    summary.seats.map((seat) => {
      const st = seatStyle(seat.seat);
      return h(
        'li',
        { class: seat.player_id ? 'taken' : 'free', dataset: { seat: seat.seat } },
        h('span', { class: 'swatch', style: `background:${st.fill};border-color:${st.edge}` }),
        h('b', {}, st.name),
        ' — ',
        seat.name ? h('span', {}, seat.name) : h('span', { class: 'subtle' }, t('invite.freeSeat')),
      );
    }),
  );
  return h(
    'div',
    { class: 'invite-summary' },
    h('h1', { id: 'invite-title' }, t('invite.title', { name: creator, id: summary.game_id })),
    h('p', { class: 'subtle', id: 'invite-options' }, `${optionsText(summary.options)}${summary.private ? ` · ${t('invite.privateGame')}` : ''}`),
    h('p', { class: 'time-control', id: 'invite-clock' }, h('b', {}, `${t('clock.label')}: `), timeControlText(summary.clock)),
    seats,
  );
}

export function fetchInvite(ctx, gameId, invite) {
  return api.game(gameId, ctx.session ? ctx.session.token : null, invite);
}

export function mountInvite(root, ctx, gameId, invite) {
  let gone = false;
  saveInvite(gameId, invite);
  root.replaceChildren(h('p', { class: 'loading' }, t('invite.lookingUp')));
  fetchInvite(ctx, gameId, invite).then(
    (summary) => {
      if (!gone) render(root, ctx, summary, invite);
    },
    (err) => {
      if (gone) return;
      // The server answers a wrong or renewed invitation code exactly like a game that does not
      // exist (it keeps only the code's hash and tells nobody whether the game is there).
      const text = err.status === 404 ? t('invite.noSuchGame') : err.status === 403 ? t('invite.notValid') : err.message;
      root.replaceChildren(
        h('section', { class: 'card invite-page' }, h('h1', {}, t('invite.heading')), h('p', { class: 'form-error', id: 'invite-error' }, text), h('a', { class: 'btn', href: '#/' }, t('invite.toLobby'))),
      );
    },
  );
  return {
    destroy() {
      gone = true;
    },
  };
}

function render(root, ctx, summary, invite) {
  const gameId = summary.game_id;
  const me = ctx.session ? ctx.session.player_id : null;
  const seated = summary.seats.some((x) => x.player_id === me);
  const free = summary.seats.some((x) => !x.player_id);
  const card = h('section', { class: 'card invite-page' }, inviteSummary(summary));
  const row = h('div', { class: 'button-row' });
  const open = () => location.replace(`#/game/${gameId}`);
  if (seated) {
    card.append(h('p', {}, t('invite.alreadySeated')));
    row.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'open-game', onclick: open }, t('invite.openGame')));
  } else if (summary.status === 'open' && free) {
    card.append(h('p', {}, t('invite.startsWhen')));
    const button = h(
      'button',
      {
        type: 'button',
        class: 'btn btn-primary',
        id: 'accept-invite',
        onclick: async () => {
          button.disabled = true;
          try {
            await whenOnline(ctx.conn);
            await ctx.conn.request('game.join', { game_id: gameId, invite });
            open();
          } catch (err) {
            if (err.code === 'already_seated') return open();
            button.disabled = false;
            // Another server serves this game (several servers, ./elsewhere.js): this page is
            // loaded again through it, where the seat is taken with one more click.
            if (err.code === 'game_elsewhere') {
              followToServer(err.server, gameId, (where) => toast(t('gamePage.elsewhere', { server: where }), 'error'));
              return;
            }
            toast(err.message, 'error');
          }
        },
      },
      t('invite.takeSeat'),
    );
    row.append(button);
  } else {
    const why = { running: t('invite.started'), finished: t('invite.over'), cancelled: t('invite.cancelled') }[summary.status] || t('invite.noFreeSeat');
    card.append(h('p', {}, why));
    if (summary.status !== 'cancelled') row.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'open-game', onclick: open }, summary.status === 'finished' ? t('invite.seeGame') : t('invite.watch')));
  }
  row.append(h('a', { class: 'btn', href: '#/' }, t('title.lobby')));
  card.append(row);
  root.replaceChildren(card);
}

// A click right after the page opened may come before the connection is up: wait for it (a
// few seconds at most; then the request itself says that the server cannot be reached).
function whenOnline(conn) {
  if (conn.isOnline()) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      conn.removeEventListener('welcome', done);
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(done, 8000);
    conn.addEventListener('welcome', done);
  });
}
