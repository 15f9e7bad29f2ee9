// A game's options (docs/protocol.md, "Game options"): the create form's fields for the victory
// conditions [5.0] and the optional rules [15.1–15.6], and the one line that names a game's
// options wherever a game is listed (lobby, invitation, waiting room, game page). The server
// checks every combination; the form only helps with the two it always refuses.

import { h, TILE_MIX_NAME, VICTORY_NAME } from './util.js';
import { t, formatNumber } from './i18n.js';
import { fogOptionText } from './fog.js';

// In the order the server writes a list of conditions.
export const VICTORY_CONDITIONS = [
  { key: 'standard', rule: '5.1', help: t('victory.standardHelp') },
  { key: 'shorter', rule: '5.3', help: t('victory.shorterHelp') },
  { key: 'race', rule: '5.4', help: t('victory.raceHelp') },
  { key: 'doomsday', rule: '5.5', help: t('victory.doomsdayHelp') },
  { key: 'subjugation', rule: '5.2', help: t('victory.subjugationHelp') },
];

export const OPTIONAL_RULES = [
  { key: 'terrain_leveling', name: t('rule.terrainLeveling'), rule: '15.1', help: t('rule.terrainLevelingHelp') },
  { key: 'no_exploration', name: t('rule.noExploration'), rule: '15.2', help: t('rule.noExplorationHelp') },
  { key: 'exploration_balancing', name: t('rule.explorationBalancing'), rule: '15.3', help: t('rule.explorationBalancingHelp') },
  { key: 'luck_averaging', name: t('rule.luckAveraging'), rule: '15.4', help: t('rule.luckAveragingHelp') },
  { key: 'town_relocation', name: t('rule.townRelocation'), rule: '15.5', help: t('rule.townRelocationHelp') },
  { key: 'subjugation', name: t('rule.subjugation'), rule: '15.6', help: t('rule.subjugationHelp') },
];

// GamesByEmail's house rules: not the rulebook's, so they carry no rule number.
export const HOUSE_RULES = [
  { key: 'defender_prefire', name: t('rule.defenderPrefire'), house: true, help: t('rule.defenderPrefireHelp') },
  { key: 'redeployment', name: t('rule.redeployment'), house: true, help: t('rule.redeploymentHelp') },
];

// "Luck Averaging [15.4]", "Redeployment (house rule)".
export function ruleLabel(r) {
  return r.house ? `${r.name} (${t('rule.houseRuleTag')})` : `${r.name} [${r.rule}]`;
}

// The conditions of a game, from either form the server writes (a string or a list).
export function victoryList(options) {
  const v = options ? options.victory : null;
  if (Array.isArray(v)) return v;
  return v ? [v] : ['standard'];
}

export function victoryText(options) {
  return victoryList(options).map((k) => VICTORY_NAME[k] || k).join(' + ');
}

// The optional rules in play (a missing flag is off: games stored before they existed).
export function optionalRules(options) {
  return OPTIONAL_RULES.concat(HOUSE_RULES).filter((r) => options && options[r.key]);
}

// "3 players · Standard Conquest + Race for Dominance · Standard tiles · Luck Averaging [15.4]"
export function optionsText(options, { players = true } = {}) {
  if (!options) return '';
  const parts = [];
  if (players && options.players) parts.push(t('options.players', { count: options.players }));
  parts.push(victoryText(options));
  parts.push(t('options.tiles', { mix: TILE_MIX_NAME[options.tile_mix] || options.tile_mix || TILE_MIX_NAME.standard }));
  if (options.board_hexes) parts.push(t('options.board', { hexes: formatNumber(options.board_hexes) }));
  if (options.independent_exploration) parts.push(t('options.independentExploration'));
  if (options.fog_of_war) parts.push(fogOptionText(options));
  for (const r of optionalRules(options)) parts.push(ruleLabel(r));
  return parts.join(' · ');
}

// The create form's fieldsets: victory conditions (several at once [5.0]) and optional rules.
export function optionFields() {
  const victories = h(
    'fieldset',
    { class: 'option-set', id: 'victory-set' },
    h('legend', {}, t('create.howToWin')),
    VICTORY_CONDITIONS.map((v) =>
      h(
        'label',
        { class: 'check', for: `victory-${v.key}` },
        h('input', { type: 'checkbox', id: `victory-${v.key}`, name: 'victory', value: v.key, checked: v.key === 'standard' }),
        h('span', {}, h('b', {}, VICTORY_NAME[v.key]), ` [${v.rule}]: ${v.help}`),
      ),
    ),
  );
  const rules = h(
    'details',
    { class: 'option-set', id: 'optional-rules' },
    h('summary', {}, t('create.optionalRules')),
    OPTIONAL_RULES.map((r) =>
      h(
        'label',
        { class: 'check', for: `rule-${r.key}` },
        h('input', { type: 'checkbox', id: `rule-${r.key}`, name: r.key }),
        h('span', {}, h('b', {}, `${r.name} [${r.rule}]`), `: ${r.help}`),
      ),
    ),
  );
  // Under the optional rules, apart from them: not the rulebook's.
  const house = h(
    'details',
    { class: 'option-set', id: 'house-rules' },
    h('summary', {}, t('create.houseRules')),
    HOUSE_RULES.map((r) =>
      h(
        'label',
        { class: 'check', for: `rule-${r.key}` },
        h('input', { type: 'checkbox', id: `rule-${r.key}`, name: r.key }),
        h('span', {}, h('b', {}, ruleLabel(r)), `: ${r.help}`),
      ),
    ),
  );
  return [victories, rules, house];
}

// Keeps the form's choices in line with what the server accepts: at least one condition;
// Subjugation Conquest brings the Subjugation rules; Exploration Balancing is not played with
// independent exploration [15.3].
export function wireOptionFields(form) {
  const sync = (ev) => {
    const conquest = form.querySelector('#victory-subjugation');
    const rule = form.querySelector('#rule-subjugation');
    if (conquest.checked) rule.checked = true;
    rule.disabled = conquest.checked;
    const independent = form.querySelector('#independent_exploration');
    const balancing = form.querySelector('#rule-exploration_balancing');
    if (independent && ev && ev.target === independent && independent.checked) balancing.checked = false;
    if (independent && ev && ev.target === balancing && balancing.checked) independent.checked = false;
    const boxes = [...form.querySelectorAll('input[name="victory"]')];
    if (!boxes.some((b) => b.checked)) form.querySelector('#victory-standard').checked = true;
  };
  form.addEventListener('change', sync);
  sync();
}

// The option fields of game.create, from the form.
export function readOptionFields(form) {
  const chosen = [...form.querySelectorAll('input[name="victory"]')].filter((b) => b.checked).map((b) => b.value);
  const out = { victory: chosen.length === 1 ? chosen[0] : chosen };
  for (const r of OPTIONAL_RULES) out[r.key] = form.querySelector(`#rule-${r.key}`).checked;
  for (const r of HOUSE_RULES) if (form.querySelector(`#rule-${r.key}`).checked) out[r.key] = true;
  return out;
}

// Board size [3.2] (game option board_hexes): the rules' size for the player count by
// default, or any of the five boards; 7 and 8 players need 169 or 217 hexes (the server
// refuses smaller ones; docs/rules-notes.md, "Board sizes").
export const BOARD_SIZES = [61, 91, 127, 169, 217];

export function boardSizeField() {
  return h(
    'label',
    { class: 'field', for: 'board_hexes' },
    h('span', {}, t('create.board')),
    h(
      'select',
      { id: 'board_hexes', name: 'board_hexes' },
      h('option', { value: '0', selected: true }, t('create.boardRules')),
      BOARD_SIZES.map((n) => h('option', { value: String(n) }, t('create.boardHexes', { hexes: formatNumber(n) }))),
    ),
  );
}

// Offers only the boards the chosen number of players may have.
export function wireBoardSizeField(form) {
  const seats = form.querySelector('#seats');
  const board = form.querySelector('#board_hexes');
  const sync = () => {
    const many = Number(seats.value) > 6;
    for (const option of board.options) option.disabled = many && Number(option.value) > 0 && Number(option.value) < 169;
    if (board.selectedOptions[0] && board.selectedOptions[0].disabled) board.value = '0';
  };
  seats.addEventListener('change', sync);
  sync();
}
