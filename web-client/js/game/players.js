// The players panel: turn order, whose turn, victory points, Reserves, and the progress toward
// the game's victory conditions.

import { h, seatStyle, unitCount, UNIT_LETTER, UNIT_TYPES } from '../util.js';
import { t } from '../i18n.js';
import { victoryText } from '../options.js';
import { fogOptionText } from '../fog.js';
import { fillPresence } from '../presence.js';
import { computerLevel, computerTag } from '../seat_kinds.js';
import { renderClock, seatClock } from './clock.js';
import { pointsBadge, renderProgress } from './victory.js';
import { timeControlParts } from '../clock_options.js';

export function renderPlayers(page) {
  const view = page.view;
  const panel = page.els.players;
  const opts = view.options || {};
  // The time per move in the header (its other parts under the game, meta.js).
  const clock = (page.seats && page.seats.clock) || (page.clock && page.clock.options) || null;
  panel.replaceChildren(
    h('h2', {}, t('waiting.game', { id: page.gameId }), h('span', { class: 'subtle' }, ` · ${victoryText(opts)}${opts.independent_exploration ? ` · ${t('options.independentExploration')}` : ''}${opts.fog_of_war ? ` · ${fogOptionText(opts)}` : ''}`), h('span', { class: 'subtle', id: 'header-clock' }, ` · ${timeControlParts(clock)[0]}`)),
  );
  const list = h('ol', { class: 'player-list' });
  // Turn order: clockwise round the table from the first player [4.0] (the table's order may
  // be drawn at random [15.2]).
  const n = view.players.length;
  const order = Array.isArray(view.turn_order) && view.turn_order.length === n ? view.turn_order : view.players.map((_, i) => i);
  const start = Math.max(0, order.indexOf(view.first_player));
  for (let k = 0; k < n; k += 1) {
    const seat = order[(start + k) % n];
    const p = view.players[seat];
    if (!p) continue;
    const st = seatStyle(seat);
    const flags = [];
    const level = computerLevel(page.seats, seat);
    if (level) flags.push(computerTag(level));
    const time = seatClock(page, seat);
    if (time) flags.push(time);
    if (view.current === seat && view.phase !== 'game_over') flags.push(h('span', { class: 'tag tag-turn' }, t('players.turn')));
    if (view.decider === seat && view.decider !== view.current) flags.push(h('span', { class: 'tag tag-decide' }, t('players.deciding')));
    if (p.eliminated) flags.push(h('span', { class: 'tag tag-out' }, t('players.eliminated')));
    if (p.conceded) flags.push(h('span', { class: 'tag tag-out' }, t('players.conceded')));
    // A Capital lost to an enemy: not one of a player who is out (conceded too), nor one
    // being moved by Town/City Relocation [15.5] (off the map until it is rebuilt).
    const relocating = view.relocation && view.relocation.player === seat && view.relocation.from_hex === p.capital_hex;
    if (relocating) flags.push(h('span', { class: 'tag', title: t('players.relocatingTitle') }, t('players.relocating')));
    else if (p.capital_hex >= 0 && !p.holds_capital && !p.eliminated && !p.conceded) flags.push(h('span', { class: 'tag tag-warn' }, t('players.capitalLost')));
    // Subjugation [15.61, 15.63]: public, the same for every viewer.
    if (p.ruler !== undefined && p.ruler >= 0) flags.push(h('span', { class: 'tag tag-vassal', dataset: { ruler: p.ruler } }, t('players.vassalOf', { ruler: `${page.playerName(p.ruler)} (${seatStyle(p.ruler).name})` })));
    if (p.vassals && p.vassals.length) flags.push(h('span', { class: 'tag tag-ruler', dataset: { vassals: p.vassals.join(',') } }, t('players.rulerOf', { vassals: p.vassals.map((v) => `${page.playerName(v)} (${seatStyle(v).name})`).join(', ') })));
    if (p.reorganization === 'next_turn' || p.reorganization === 'this_turn') flags.push(h('span', { class: 'tag tag-warn', title: t('players.reorganizingTitle') }, p.reorganization === 'this_turn' ? t('players.reorganizingNow') : t('players.reorganizingNext')));
    if (p.doomsday_coin) flags.push(h('span', { class: 'tag' }, t('players.doomsdayCoin')));
    if ((view.winners || []).includes(seat)) flags.push(h('span', { class: 'tag tag-win' }, t('players.winner')));
    const reserve = UNIT_TYPES.filter((type) => p.reserve && p.reserve[type] > 0).map((type) =>
      h('span', { class: 'mini-counter', style: `background:${st.fill};color:${st.ink};border-color:${st.edge}`, title: t('players.inReserve', { units: unitCount(type, p.reserve[type]) }) }, `${UNIT_LETTER[type]}×${p.reserve[type]}`),
    );
    list.append(
      h(
        'li',
        { class: `player${view.current === seat ? ' current' : ''}${p.eliminated || p.conceded ? ' out' : ''}`, dataset: { seat } },
        h('div', { class: 'player-head' }, view.current === seat ? h('span', { class: 'turn-arrow', 'aria-hidden': 'true' }, '▶') : h('span', { class: 'turn-arrow' }), page.who(seat), presenceSpot(page, seat), pointsBadge(view, p)),
        h('div', { class: 'player-sub' }, flags, reserve.length ? h('span', { class: 'reserve' }, `${t('players.reserve')}: `, reserve) : h('span', { class: 'reserve subtle' }, t('players.reserveEmpty'))),
      ),
    );
  }
  panel.append(list);
  // Progress toward the game's victory conditions (game/victory.js).
  const progress = renderProgress(page);
  if (progress) panel.append(progress);
  fillPresence(list);
  renderClock(page, panel);
}

// Online now or last seen (presence.js), for the player in `seat`.
function presenceSpot(page, seat) {
  const taken = page.seats && (page.seats.seats || []).find((x) => x.seat === seat);
  if (!taken || !taken.player_id || taken.computer) return null;  // a computer is always there
  return h('span', { class: 'presence', dataset: { presencePlayer: String(taken.player_id) } });
}
