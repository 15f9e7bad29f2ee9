// The last panel: the game's options and the buttons for notifications, conceding, the lobby.

import { h, VICTORY_NAME, TILE_MIX_NAME } from '../util.js';

export function renderMeta(page, c) {
  const panel = page.els.meta;
  panel.replaceChildren();
  const opts = page.view.options || {};
  panel.append(
    h('p', { class: 'subtle' }, `${opts.players} players · ${VICTORY_NAME[opts.victory] || opts.victory} · ${TILE_MIX_NAME[opts.tile_mix] || opts.tile_mix} tiles${opts.independent_exploration ? ' · independent exploration' : ''}`),
  );
  const row = h('div', { class: 'meta-buttons' });
  if ('Notification' in window && Notification.permission === 'default' && page.mySeat !== null) {
    row.append(h('button', { type: 'button', class: 'btn btn-small', onclick: () => Notification.requestPermission().then(() => page.render()) }, 'Notify me on my turn'));
  }
  if (c.concede && page.view.phase !== 'game_over') {
    row.append(h('button', { type: 'button', class: 'btn btn-small btn-danger', id: 'concede', onclick: () => page.concede(c.concede) }, 'Concede'));
  }
  row.append(h('a', { class: 'btn btn-small', href: '#/' }, 'Lobby'));
  panel.append(row);
}
