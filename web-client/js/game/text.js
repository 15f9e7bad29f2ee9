// Words for what the view and the events say: battle stages, roll purposes, rounds, actions.
// Every text comes from the message catalogs (docs/client.md, "Languages").

import { HIGHLIGHT_STYLE } from '../board.js';
import { LANG, t } from '../i18n.js';
import { UNIT_NAME, VICTORY_NAME } from '../util.js';

// Lists the language's way: "Alice (Red) and Bob (Yellow)", "Alice (Rot) und Bob (Gelb)";
// "build a Town or upgrade a Town to a City".
const andList = typeof Intl.ListFormat === 'function' ? new Intl.ListFormat(LANG, { type: 'conjunction' }) : null;
const orList = typeof Intl.ListFormat === 'function' ? new Intl.ListFormat(LANG, { type: 'disjunction' }) : null;
export function joinAnd(items) {
  return andList ? andList.format(items) : items.join(', ');
}
export function joinOr(items) {
  return orList ? orList.format(items) : items.join(', ');
}

// Written out once: each key is a literal for the catalog check.
const STAGE_TEXT = {
  assign_pre_fire: t('gameText.stagePreFire'),
  assign_attacker_fire: t('gameText.stageAttackerFire'),
  assign_defender_fire: t('gameText.stageDefenderFire'),
  retreat_option: t('gameText.stageRetreatOption'),
  retreating: t('gameText.stageRetreating'),
  average_attacker_fire: t('gameText.stageAverageAttacker'),
  average_defender_fire: t('gameText.stageAverageDefender'),
  assign_defender_pre_fire: t('gameText.stageDefenderPreFire'),
};

const ROLL_PURPOSE = {
  bombard: t('gameText.rollBombard'),
  pre_battle_fire: t('gameText.rollPreBattleFire'),
  attacker_fire: t('gameText.rollAttackerFire'),
  defender_fire: t('gameText.rollDefenderFire'),
  doomsday: t('gameText.rollDoomsday'),
  defender_pre_fire: t('gameText.rollDefenderPreFire'),
};

export function stageText(stage) {
  return STAGE_TEXT[stage] || stage;
}

export function rollPurpose(p) {
  return ROLL_PURPOSE[p] || p || t('gameText.roll');
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
  if (!r) return view && view.phase === 'setup' ? t('gameText.setup') : '';
  // The turn number first, as the game log counts ("Turn 4: Yellow to play."), then the round.
  if (r.round !== undefined) return t('gameText.turnRound', { turn: view.turn, round: r.round, position: r.position, players: r.players });
  return r.position ? t('gameText.turnStillPlaying', { turn: r.turn, position: r.position, players: r.players }) : t('gameText.turn', { turn: r.turn });
}

export function describeAction(page, a, units) {
  const u = a.unit !== undefined ? units.get(a.unit) : null;
  const unit = u ? UNIT_NAME[u.type] : '';
  const hex = page.label(a.hex);
  switch (a.kind) {
    case 'move': return page.enemyAt(a.hex) ? t('gameText.moveAndFight', { unit, hex }) : t('gameText.move', { unit, hex });
    case 'embark': return t('gameText.embark', { unit, hex: page.label(page.targetHex(a, units)) });
    case 'disembark': return t('gameText.disembark', { unit, hex });
    case 'bombard': return t('gameText.bombard', { unit, hex });
    case 'retreat': return t('gameText.retreat', { unit, hex });
    case 'build_town': return t('gameText.buildTown', { hex });
    case 'upgrade_city': return t('gameText.upgradeCity', { hex });
    case 'start_battle': return t('gameText.startBattle', { hex });
    case 'place_capital': return t('gameText.placeCapital', { hex });
    case 'place_reserve': return t('gameText.placeReserve', { unit: UNIT_NAME[a.unit_type], hex });
    case 'withdraw': return t('gameText.withdraw', { unit, hex });
    case 'redeploy': return t('gameText.redeploy', { unit, hex });
    case 'remove_town': return page.hexInfo(a.hex) && page.hexInfo(a.hex).city ? t('gameText.relocateCity', { hex }) : t('gameText.relocateTown', { hex });
    case 'rebuild_town': return t('gameText.rebuildTown', { hex });
    case 'replace_water': return t('gameText.replaceWater', { hex });
    case 'keep_water': return t('gameText.keepWater');
    case 'average_dice': return a.pairs ? t('gameText.averagePairs', { count: a.pairs }) : t('gameText.rollEveryDie');
    default: return HIGHLIGHT_STYLE[a.kind] ? HIGHLIGHT_STYLE[a.kind].text : a.kind;
  }
}

export function resultText(page) {
  const view = page.view;
  const w = view.winners || [];
  const how = VICTORY_NAME[view.ended_by] || view.ended_by;
  if (w.length === 0) return t('gameText.gameOverHow', { how });
  if (w.length === 1) return w[0] === page.mySeat ? t('gameText.youWin', { how }) : t('gameText.oneWins', { name: page.whoText(w[0]), how });
  return t('gameText.winTogether', { names: joinAnd(w.map((s) => page.whoText(s))), how });
}

// What a player lost when he must return units to stock [10.2]: the capture event of this
// page says Town or City; after a reload only the owed units are known, and two of them
// can only be a City's [8.2]. Returns 'city', 'town' or 'either'.
export function lostSettlementKind(page, player) {
  const lost = page.lostSettlement.get(player);
  if (lost) return lost.city ? 'city' : 'town';
  const owed = page.view.elimination ? page.view.elimination.owed || [] : [];
  return owed.length >= 2 ? 'city' : 'either';
}

// "the City at E7", "a Town or City": the object of "You lost ..." (the same word in the
// nominative and the accusative in German: die Stadt, das Dorf, eine Stadt, ein Dorf).
export function lostSettlementText(page, player) {
  const lost = page.lostSettlement.get(player);
  const kind = lostSettlementKind(page, player);
  if (lost) return kind === 'city' ? t('gameText.lostTheCityAt', { hex: page.label(lost.hex) }) : t('gameText.lostTheTownAt', { hex: page.label(lost.hex) });
  return kind === 'city' ? t('gameText.lostACity') : t('gameText.lostATownOrCity');
}
