// The waiting room: seats, options and the invitation link before a game starts (the link box
// is also in the meta panel of a running private game).

import { h, seatStyle, toast } from '../util.js';
import { t } from '../i18n.js';
import { optionsText } from '../options.js';
import { timeControlText } from '../clock_options.js';
import { inviteFriendsBox } from '../friends.js';
import { operatorPlays, revealWaitingText } from '../fair_marks.js';

export function renderWaitingRoom(page, status) {
  const box = page.els.waiting;
  box.replaceChildren();
  if (page.fatal) {
    box.append(h('h1', {}, t('waiting.game', { id: page.gameId })), h('p', { class: 'form-error', id: 'game-error' }, page.fatal), h('a', { class: 'btn', href: '#/' }, t('actions.backToLobby')));
    return;
  }
  if (!page.seats) {
    box.append(h('p', { class: 'loading' }, t('waiting.loading')));
    return;
  }
  const seats = page.seats;
  const me = page.ctx.session ? page.ctx.session.player_id : null;
  const seated = seats.seats.some((x) => x.player_id === me);
  const isCreator = seats.creator === me;
  const opts = seats.options || {};
  box.append(h('h1', {}, t('waiting.game', { id: page.gameId })));
  if (status === 'cancelled') {
    box.append(h('p', {}, t('waiting.cancelled')), h('a', { class: 'btn', href: '#/' }, t('actions.backToLobby')));
    return;
  }
  box.append(
    h('p', { class: 'subtle' }, [t('waiting.seats', { count: opts.players || seats.seats.length }), optionsText(opts, { players: false }), seats.private ? t('waiting.private') : t('waiting.public')].join(' · ')),
    h('p', { class: 'time-control', id: 'waiting-clock' }, h('b', {}, `${t('clock.label')}: `), timeControlText(seats.clock)),
    h('p', { id: 'waiting-status' }, seats.reveal ? revealWaitingText(seats.reveal) : status === 'open' ? t('waiting.waitingForPlayers') : t('waiting.starting')),
  );
  if (seats.reveal) box.append(h('p', { class: 'subtle', id: 'reveal-about' }, t('fairPlay.confirmAbout')));
  if (page.contributionLost && seated) {
    // Another device, or cleared storage: this seat cannot reveal; one sentence and a way out.
    box.append(h('p', { class: 'form-error', id: 'contribution-lost' }, t('fairPlay.lost'), ' ', h('button', { type: 'button', class: 'btn btn-small', id: 'leave-lost-seat', onclick: () => page.leave() }, t('fairPlay.leaveSeat'))));
  }
  if (operatorPlays(seats.seats)) box.append(h('p', { class: 'operator-note', id: 'operator-plays' }, t('fairPlay.operatorPlays')));
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
        seat.name ? h('span', {}, seat.name, seat.player_id === me ? ` ${t('waiting.you')}` : '', seat.player_id === seats.creator ? ` · ${t('waiting.creator')}` : '', seat.host ? ` · ${t('fairPlay.operatorSeat')}` : '') : h('span', { class: 'subtle' }, t('waiting.freeSeat')),
        // During the reveal round: which human seats have confirmed the dice (never with what).
        seats.reveal && seat.player_id && !seat.computer ? h('span', { class: `tag ${seat.revealed ? 'tag-confirmed' : 'tag-reveal'}` }, seat.revealed ? t('fairPlay.confirmed') : t('fairPlay.confirming')) : null,
      ),
    );
  }
  box.append(list);
  const row = h('div', { class: 'button-row' });
  const free = seats.seats.some((x) => !x.player_id);
  const final = !!seats.reveal; // the seats are final while the players confirm the dice
  if (!seated && free && status === 'open' && !final) {
    row.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'join-game', onclick: () => page.join() }, t('waiting.join')));
  }
  if (seated && isCreator && status === 'open' && !final) {
    const count = seats.seats.filter((x) => x.player_id).length;
    row.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'start-game', disabled: count < 2, title: count < 2 ? t('waiting.needTwo') : '', onclick: () => page.startGame() }, count < 2 ? t('waiting.startNeedsTwo') : t('waiting.startWith', { count })));
  }
  if (seated && status === 'open') {
    row.append(h('button', { type: 'button', class: 'btn', onclick: () => page.leave() }, isCreator ? t('waiting.cancelGame') : t('waiting.leaveSeat')));
  }
  row.append(h('a', { class: 'btn', href: '#/' }, t('waiting.lobby')));
  box.append(row);
  if (status === 'open') box.append(inviteBox(page, seats, isCreator));
  if (status === 'open' && seated && free) box.append(inviteFriendsBox(page, seats));  // js/friends.js
}

// The link to share. The server keeps only a hash of a private game's invitation, so the
// code is known where it was received (this browser remembers it); the creator may always
// make a new one (the old link then stops working).
export function inviteBox(page, seats, isCreator) {
  const renew = isCreator && seats.private ? h('button', { type: 'button', class: 'btn btn-small', id: 'new-invite', onclick: () => page.newInvite() }, page.invite ? t('waiting.newLink') : t('waiting.makeLink')) : null;
  if (seats.private && !page.invite) {
    return h('div', { class: 'invite' }, h('p', { class: 'subtle' }, isCreator ? t('waiting.linkOnlyThere') : t('waiting.privateGame')), renew);
  }
  const link = page.invite ? `${location.origin}${location.pathname}#/join/${page.gameId}/${page.invite}` : `${location.origin}${location.pathname}#/game/${page.gameId}`;
  const input = h('input', { type: 'text', readonly: true, value: link, class: 'invite-link', id: 'invite-link', 'aria-label': t('waiting.invitationLink') });
  return h(
    'div',
    { class: 'invite' },
    h('label', { for: 'invite-link' }, seats.private ? t('waiting.invitationLinkPrivate') : t('waiting.linkToGame')),
    h('div', { class: 'invite-row' }, input, h('button', { type: 'button', class: 'btn btn-small', onclick: () => copyText(input) }, t('account.copy')), renew),
  );
}

function copyText(input) {
  input.select();
  if (navigator.clipboard) {
    navigator.clipboard.writeText(input.value).then(() => toast(t('waiting.linkCopied')), () => toast(t('waiting.copyByHand')));
  } else {
    toast(t('waiting.copyByHand'));
  }
}
