// Words for what the view and the events say: battle stages, roll purposes, rounds, actions.

import { HIGHLIGHT_STYLE } from '../board.js';
import { UNIT_NAME, VICTORY_NAME } from '../util.js';

export function stageText(stage) {
  return {
    assign_pre_fire: 'pre-battle Artillery fire — hits are being assigned',
    assign_attacker_fire: "attacker's fire — hits are being assigned",
    assign_defender_fire: "defender's fire — hits are being assigned",
    retreat_option: 'the attacker chooses: retreat or fight another round',
    retreating: 'the attacker is retreating',
    average_attacker_fire: 'the attacker chooses how many pairs of dice to average [15.4]',
    average_defender_fire: 'the defender chooses how many pairs of dice to average [15.4]',
  }[stage] || stage;
}

export function rollPurpose(p) {
  return { bombard: 'bombardment', pre_battle_fire: 'pre-battle fire', attacker_fire: 'attacker fire', defender_fire: 'defender fire', doomsday: 'Doomsday Clock' }[p] || p || 'roll';
}

function inGame(p) {
  return p && !p.eliminated && !p.conceded;
}

// Where the game stands in rounds. The view counts Player Turns (1, 2, ... across the game);
// a round is one Player Turn of each player, clockwise from the first player [4.0, 6.0].
// Returns {round, position, players} while every seat still plays (then the round follows
// exactly from the turn number), or {turn, position, players} once someone is out: when he
// left is not in the view, so the round number is not known and the page says the turn.
export function roundInfo(view) {
  if (!view || view.phase === 'setup' || !(view.turn > 0)) return null;
  const n = view.players.length;
  // Play passes along the table's order, which [15.2] may have drawn at random.
  const table = Array.isArray(view.turn_order) && view.turn_order.length === n ? view.turn_order : view.players.map((_, i) => i);
  const start = Math.max(0, table.indexOf(view.first_player));
  const order = [];
  for (let k = 0; k < n; k += 1) order.push(table[(start + k) % n]);
  const playing = order.filter((seat) => inGame(view.players[seat]));
  if (playing.length === n) {
    return {
      round: Math.floor((view.turn - 1) / n) + 1,
      position: order.indexOf(view.current) + 1,
      players: n,
    };
  }
  const position = playing.indexOf(view.current) + 1;
  return { turn: view.turn, position: position || null, players: playing.length };
}

export function roundText(view) {
  const r = roundInfo(view);
  if (!r) return view && view.phase === 'setup' ? 'Setup' : '';
  // The turn number first, as the game log counts ("Turn 4: Yellow to play."), then the round.
  if (r.round !== undefined) return `Turn ${view.turn} · round ${r.round} (${r.position} of ${r.players})`;
  return r.position ? `Turn ${r.turn} · ${r.position} of ${r.players} still playing` : `Turn ${r.turn}`;
}

export function describeAction(page, a, units) {
  const u = a.unit !== undefined ? units.get(a.unit) : null;
  const name = u ? UNIT_NAME[u.type] : '';
  const label = (hex) => page.label(hex);
  switch (a.kind) {
    case 'move': return page.enemyAt(a.hex) ? `${name}: move in and fight at ${label(a.hex)}` : `${name}: move to ${label(a.hex)}`;
    case 'embark': return `${name}: board the Frigate at ${label(page.targetHex(a, units))}`;
    case 'disembark': return `${name}: land at ${label(a.hex)}`;
    case 'bombard': return `${name}: bombard ${label(a.hex)}`;
    case 'retreat': return `${name}: retreat to ${label(a.hex)}`;
    case 'build_town': return `Build a Town at ${label(a.hex)}`;
    case 'upgrade_city': return `Upgrade the Town at ${label(a.hex)} to a City`;
    case 'start_battle': return `Start the battle at ${label(a.hex)}`;
    case 'place_capital': return `Place your Capital at ${label(a.hex)}`;
    case 'place_reserve': return `Place ${UNIT_NAME[a.unit_type]} at ${label(a.hex)}`;
    case 'withdraw': return `${name}: withdraw to ${label(a.hex)}`;
    case 'remove_town': return `Relocate the ${page.hexInfo(a.hex) && page.hexInfo(a.hex).city ? 'City' : 'Town'} at ${label(a.hex)} (remove it, then rebuild it next door) [15.5]`;
    case 'rebuild_town': return `Rebuild it at ${label(a.hex)} [15.5]`;
    case 'replace_water': return `Lay the land tile at ${label(a.hex)} [15.3]`;
    case 'keep_water': return 'Keep the water [15.3]';
    case 'average_dice': return a.pairs ? `Average ${a.pairs} pair${a.pairs > 1 ? 's' : ''} [15.4]` : 'Roll every die';
    default: return HIGHLIGHT_STYLE[a.kind] ? HIGHLIGHT_STYLE[a.kind].text : a.kind;
  }
}

export function resultText(page) {
  const view = page.view;
  const w = view.winners || [];
  const how = VICTORY_NAME[view.ended_by] || view.ended_by;
  if (w.length === 0) return `Game over (${how}).`;
  const names = w.map((s) => page.whoText(s));
  const verb = w.length === 1 && w[0] === page.mySeat ? 'win' : w.length === 1 ? 'wins' : 'win';
  return `${names.join(' and ')} ${verb} — ${how}.`;
}

// What a player lost when he must return units to stock [10.2]: the capture event of this
// page says Town or City; after a reload only the owed units are known, and two of them
// can only be a City's [8.2].
export function lostSettlementName(page, player) {
  const lost = page.lostSettlement.get(player);
  if (lost) return lost.city ? 'City' : 'Town';
  const owed = page.view.elimination ? page.view.elimination.owed || [] : [];
  return owed.length >= 2 ? 'City' : 'Town or City';
}

export function lostSettlementText(page, player) {
  const lost = page.lostSettlement.get(player);
  const name = lostSettlementName(page, player);
  return lost ? `the ${name} at ${page.label(lost.hex)}` : `a ${name}`;
}
