// The battle panel: the battle or bombardment under way, its last dice, the last roll.

import { diceRow } from '../board.js';
import { h, seatStyle, UNIT_NAME } from '../util.js';
import { rollPurpose, stageText } from './text.js';
import { battleTable, FIRE_TEXT } from './fire.js';
import { previewSection } from './preview.js';

export function renderBattle(page) {
  const panel = page.els.battle;
  panel.replaceChildren();
  const view = page.view;
  const b = view.battle;
  const bombard = view.bombard;
  const record = page.battleRecord && page.battleRecord.fires.length ? page.battleRecord : null;
  const preview = page.preview && !b ? page.preview : null;
  if (!b && !bombard && !page.lastRoll && !record && !preview) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  if (preview) panel.append(previewSection(page, preview));
  if (b) {
    panel.append(
      h('h2', {}, `${b.naval ? 'Naval battle' : 'Battle'} at ${page.label(b.hex)}`, h('span', { class: 'subtle' }, ` · round ${b.round}`)),
      h('p', {}, page.who(b.attacker), ' attacks ', page.who(b.defender)),
      h('p', { class: 'stage' }, stageText(b.stage)),
    );
    // With the fires of this Battle seen live, the table below says it all, round by round.
    const live = record && record.hex === b.hex;
    if (!live && b.attacker_dice && b.attacker_dice.length) panel.append(h('div', { class: 'dice-line' }, h('span', {}, 'Attacker: '), diceRow(b.attacker_dice)));
    if (!live && b.defender_dice && b.defender_dice.length) panel.append(h('div', { class: 'dice-line' }, h('span', {}, 'Defender: '), diceRow(b.defender_dice)));
    if (b.picks_by_firer || b.picks_by_target) {
      panel.append(h('p', {}, `Hits to assign: ${b.picks_by_firer} chosen by the firer (1s), ${b.picks_by_target} by the target.`));
    }
    if (b.suppression) panel.append(h('p', {}, `Defender suppressed: ${FIRE_TEXT.fewerDice(b.suppression)} [12.31].`));
    if (b.marked && b.marked.length) panel.append(h('p', {}, 'Hit this round: ', unitList(page, b.marked)));
  } else if (bombard) {
    panel.append(
      h('h2', {}, `Bombardment of ${page.label(bombard.hex)}`),
      h('p', {}, page.who(bombard.firer), ' fires at ', page.who(bombard.target)),
      h('p', {}, `Hits to assign: ${bombard.picks_by_firer} chosen by the firer, ${bombard.picks_by_target} by the target.`),
    );
  }
  if (record && (!b || record.hex === b.hex)) {
    if (!b) {
      const end = record.ended ? (record.ended.winner === record.attacker ? ': the attacker took it' : record.ended.winner >= 0 ? '' : ': the defender held') : '';
      panel.append(h('h2', {}, `Last battle at ${page.label(record.hex)}${end}`));
    }
    panel.append(battleTable(record, (seat) => page.whoText(seat)));
  } else if (page.lastRoll && (!b || !(b.attacker_dice || []).length)) {
    const r = page.lastRoll;
    panel.append(h('div', { class: 'dice-line last-roll' }, h('span', {}, `Last roll (${page.whoText(r.player)}, ${rollPurpose(r.purpose)}${r.hex >= 0 ? ` at ${page.label(r.hex)}` : ''}): `), diceRow(r.dice)));
  }
  panel.append(h('p', { class: 'subtle legend' }, 'Dice of 3 or less hit (red); a 1 lets the firer choose the casualty (gold).'));
}

function unitList(page, ids) {
  const units = page.unitsById();
  const counts = new Map();
  for (const id of ids) {
    const u = units.get(id);
    if (!u) continue;
    const key = `${u.owner}:${u.type}`;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return [...counts]
    .map(([key, n]) => {
      const [owner, type] = key.split(':');
      return `${n}× ${seatStyle(Number(owner)).name} ${UNIT_NAME[type]}`;
    })
    .join(', ');
}
