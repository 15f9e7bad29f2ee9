// The last panel: the game's options and the buttons for notifications, conceding, a private
// game's new invitation link, the lobby.

import { h } from '../util.js';
import { t } from '../i18n.js';
import { optionsText } from '../options.js';
import { timeControlText } from '../clock_options.js';
import { inviteBox } from './waiting.js';

export function renderMeta(page, c) {
  const panel = page.els.meta;
  panel.replaceChildren();
  const opts = page.view.options || {};
  // The time control in parts (game.seats carries it; game.clock's options once it runs).
  const clock = (page.seats && page.seats.clock) || (page.clock && page.clock.options) || null;
  panel.append(
    h('p', { class: 'subtle', id: 'game-options' }, optionsText(opts)),
    h('p', { class: 'subtle time-control', id: 'game-clock-options' }, `${t('clock.label')}: ${timeControlText(clock)}`),
  );
  const row = h('div', { class: 'meta-buttons' });
  if ('Notification' in window && Notification.permission === 'default' && page.mySeat !== null) {
    row.append(h('button', { type: 'button', class: 'btn btn-small', onclick: () => Notification.requestPermission().then(() => page.render()) }, t('meta.notify')));
  }
  if (c.concede && page.view.phase !== 'game_over') {
    row.append(h('button', { type: 'button', class: 'btn btn-small btn-danger', id: 'concede', onclick: () => page.concede(c.concede) }, t('meta.concede')));
  }
  // A private game's creator may invite spectators while it runs, too.
  const me = page.ctx.session ? page.ctx.session.player_id : null;
  if (page.seats && page.seats.private && page.seats.creator === me && page.view.phase !== 'game_over') {
    row.append(h('button', { type: 'button', class: 'btn btn-small', id: 'new-invite', onclick: () => page.newInvite() }, t('meta.newInvitationLink')));
    if (page.invite) panel.append(inviteBox(page, page.seats, false));
  }
  row.append(h('a', { class: 'btn btn-small', href: '#/' }, t('waiting.lobby')));
  panel.append(row);
}
