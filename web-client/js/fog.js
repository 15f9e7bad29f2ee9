// Fog of war (docs/client.md, "Fog of war"; the rules' decisions in docs/rules-notes.md): the
// create form's choice, the words naming it in a game's options and in the Rules help, and the
// words for what the map shows of it. The page decides nothing: which hexes are out of sight
// (`"unseen": true` on a hex) and where enemy units were last seen (`last_seen`) come from the
// view; the page only draws and names them (js/board_fog.js draws).

import { t } from './i18n.js';
import { h, seatStyle, unitCount, UNIT_LETTER, UNIT_TYPES } from './util.js';

// The sight of a City in hexes [options: fog_city_sight], as the server's default.
export const DEFAULT_CITY_SIGHT = 2;
const CITY_SIGHTS = [1, 2, 3];

function citySight(options) {
  const n = options ? Number(options.fog_city_sight) : NaN;
  return CITY_SIGHTS.includes(n) ? n : DEFAULT_CITY_SIGHT;
}

// "fog of war (City sight 2)" in a game's line of options, or null in a game without fog.
export function fogOptionText(options) {
  if (!options || !options.fog_of_war) return null;
  return t('fog.optionText', { count: citySight(options) });
}

// ------------------------------------------------------------------------------------------
// The create form

// A box and, beside it, the City's sight (only asked when the box is ticked).
export function fogFields() {
  const sight = h(
    'select',
    { id: 'fog_city_sight', name: 'fog_city_sight', disabled: true, 'aria-describedby': 'fog-help' },
    CITY_SIGHTS.map((n) => h('option', { value: String(n), selected: n === DEFAULT_CITY_SIGHT }, t('fog.citySightHexes', { count: n }))),
  );
  const box = h('input', { type: 'checkbox', id: 'fog_of_war', name: 'fog_of_war', 'aria-describedby': 'fog-help' });
  box.addEventListener('change', () => {
    sight.disabled = !box.checked;
  });
  return h(
    'div',
    { class: 'fog-fields', id: 'fog-fields' },
    h('label', { class: 'check', for: 'fog_of_war' }, box, h('span', {}, h('b', {}, t('fog.name')), ': ', h('span', { id: 'fog-help' }, t('create.fogHelp')))),
    h('label', { class: 'field fog-sight', for: 'fog_city_sight' }, h('span', {}, t('create.fogCitySight')), sight),
  );
}

// The game.create fields: only for a fog game, so other games are created as before.
export function readFogFields(form) {
  const box = form.querySelector('#fog_of_war');
  if (!box || !box.checked) return {};
  return { fog_of_war: true, fog_city_sight: Number(form.querySelector('#fog_city_sight').value) };
}

// ------------------------------------------------------------------------------------------
// The Rules help's part for a fog game

export function fogHelp(options) {
  if (!options || !options.fog_of_war) return [];
  const sight = citySight(options);
  return [
    h('p', { class: 'help-game-head', id: 'help-fog' }, t('fog.name')),
    h(
      'ul',
      { class: 'help-fog' },
      h('li', {}, t('fog.helpSight', { count: sight })),
      h('li', {}, t('fog.helpMap')),
      h('li', {}, t('fog.helpLastSeen')),
      h('li', {}, t('fog.helpPublic')),
      h('li', {}, t('fog.helpBattles')),
      h('li', {}, t('fog.helpUndo')),
      h('li', {}, t('fog.helpSpectators')),
    ),
  ];
}

// ------------------------------------------------------------------------------------------
// What the map says about a hex

// The view's `last_seen` entries on one hex (several owners possible).
export function lastSeenAt(view, hex) {
  return Array.isArray(view && view.last_seen) ? view.last_seen.filter((e) => e.hex === hex) : [];
}

// The units of an entry in the game's order of types: [[type, n], ...].
export function lastSeenUnits(entry) {
  const units = (entry && entry.units) || {};
  return UNIT_TYPES.filter((type) => units[type] > 0).map((type) => [type, units[type]]);
}

// "I×2 C×1": the letters the counters use, with their numbers.
export function lastSeenShort(entry) {
  return lastSeenUnits(entry).map(([type, n]) => `${UNIT_LETTER[type]}×${n}`);
}

// The round of a Player Turn, counted as the prompt counts (js/game/text.js, roundInfo): while
// every seat still plays, a round is one turn of each player, so it follows from the turn
// number; once someone is out it does not (null). Kept here so the lobby need not load the map.
function roundNumberOf(view, turn) {
  if (!view || !Array.isArray(view.players) || !(turn > 0)) return null;
  const n = view.players.length;
  if (!view.players.every((p) => p && !p.eliminated && !p.conceded)) return null;
  return Math.floor((turn - 1) / n) + 1;
}

// When an entry was seen, in the words of the prompt ("Turn 12 · round 6"): the round while
// every seat still plays, else the turn.
function when(view, turn) {
  const round = roundNumberOf(view, turn);
  return round ? { round, turn } : { turn };
}

// The mark's short line under the counts: "round 6" (or "turn 12").
export function lastSeenMarkWhen(view, entry) {
  const w = when(view, entry.turn);
  return w.round ? t('fog.markRound', { round: w.round }) : t('fog.markTurn', { turn: w.turn });
}

// "Bob (Blue): 2 Infantry, 1 Cavalry, last seen in round 6 (turn 12)".
export function lastSeenText(view, entry, name) {
  const w = when(view, entry.turn);
  const units = lastSeenUnits(entry).map(([type, n]) => unitCount(type, n)).join(', ');
  const who = name || seatStyle(entry.owner).name;
  return w.round ? t('fog.lastSeenRound', { who, units, round: w.round, turn: w.turn }) : t('fog.lastSeenTurn', { who, units, turn: w.turn });
}

// What a hex's name says more in a fog game: out of sight, and what was last seen there.
// `name(seat)` names a player ("Bob (Blue)").
export function fogHexParts(view, hx, name) {
  if (!hx || !hx.unseen) return [];
  return [t('fog.outOfSight'), ...lastSeenAt(view, hx.hex).map((e) => lastSeenText(view, e, name ? name(e.owner) : null))];
}
