// The players panel: turn order, whose turn, victory points, Reserves.

import { computerLevel, computerTag } from '../seat_kinds.js';
import { renderClock } from './clock.js';
import { h, seatStyle, UNIT_LETTER, UNIT_NAME, UNIT_TYPES, VICTORY_NAME } from '../util.js';

export function renderPlayers(page) {
  const view = page.view;
  const panel = page.els.players;
  const opts = view.options || {};
  panel.replaceChildren(
    h('h2', {}, `Game ${page.gameId}`, h('span', { class: 'subtle' }, ` · ${VICTORY_NAME[opts.victory] || opts.victory || ''}${opts.independent_exploration ? ' · independent exploration' : ''}`)),
  );
  const list = h('ol', { class: 'player-list' });
  // Turn order: clockwise from the first player [4.0].
  const n = view.players.length;
  for (let k = 0; k < n; k += 1) {
    const seat = (view.first_player + k) % n;
    const p = view.players[seat];
    if (!p) continue;
    const st = seatStyle(seat);
    const flags = [];
    const level = computerLevel(page.seats, seat);
    if (level) flags.push(computerTag(level));
    if (view.current === seat && view.phase !== 'game_over') flags.push(h('span', { class: 'tag tag-turn' }, 'turn'));
    if (view.decider === seat && view.decider !== view.current) flags.push(h('span', { class: 'tag tag-decide' }, 'deciding'));
    if (p.eliminated) flags.push(h('span', { class: 'tag tag-out' }, 'eliminated'));
    if (p.conceded) flags.push(h('span', { class: 'tag tag-out' }, 'conceded'));
    if (p.capital_hex >= 0 && !p.holds_capital && !p.eliminated) flags.push(h('span', { class: 'tag tag-warn' }, 'capital lost'));
    if (p.doomsday_coin) flags.push(h('span', { class: 'tag' }, 'doomsday coin'));
    if ((view.winners || []).includes(seat)) flags.push(h('span', { class: 'tag tag-win' }, 'winner'));
    const reserve = UNIT_TYPES.filter((t) => p.reserve && p.reserve[t] > 0).map((t) =>
      h('span', { class: 'mini-counter', style: `background:${st.fill};color:${st.ink};border-color:${st.edge}`, title: `${p.reserve[t]} ${UNIT_NAME[t]} in Reserve` }, `${UNIT_LETTER[t]}×${p.reserve[t]}`),
    );
    list.append(
      h(
        'li',
        { class: `player${view.current === seat ? ' current' : ''}${p.eliminated || p.conceded ? ' out' : ''}`, dataset: { seat } },
        h('div', { class: 'player-head' }, view.current === seat ? h('span', { class: 'turn-arrow', 'aria-hidden': 'true' }, '▶') : h('span', { class: 'turn-arrow' }), page.who(seat), h('span', { class: 'vp', title: 'Victory points: 1 per Town, 2 per City' }, `${p.victory_points} VP`)),
        h('div', { class: 'player-sub' }, flags, reserve.length ? h('span', { class: 'reserve' }, 'Reserve: ', reserve) : h('span', { class: 'reserve subtle' }, 'Reserve empty')),
      ),
    );
  }
  panel.append(list);
  renderClock(page, panel);
}
