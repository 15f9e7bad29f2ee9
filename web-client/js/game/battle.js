// The battle panel: the battle or bombardment under way, its last dice, the last roll.

import { diceRow } from '../board.js';
import { fillIn, h, seatStyle, UNIT_NAME } from '../util.js';
import { t } from '../i18n.js';
import { rollPurpose, stageText } from './text.js';
import { battleTable } from './fire.js';
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
      h('h2', {}, b.naval ? t('battle.navalAt', { hex: page.label(b.hex) }) : t('battle.at', { hex: page.label(b.hex) }), h('span', { class: 'subtle' }, ` · ${t('battle.round', { round: b.round })}`)),
      h('p', {}, fillIn(t('battle.attacks'), { attacker: page.who(b.attacker), defender: page.who(b.defender) })),
      h('p', { class: 'stage' }, stageText(b.stage)),
    );
    // With the fires of this Battle seen live, the table below says it all, round by round.
    const live = record && record.hex === b.hex;
    if (!live && b.attacker_dice && b.attacker_dice.length) panel.append(h('div', { class: 'dice-line' }, h('span', {}, `${t('battle.attacker')}: `), diceRow(b.attacker_dice)));
    if (!live && b.defender_dice && b.defender_dice.length) panel.append(h('div', { class: 'dice-line' }, h('span', {}, `${t('battle.defender')}: `), diceRow(b.defender_dice)));
    if (b.picks_by_firer || b.picks_by_target) {
      panel.append(h('p', {}, t('battle.hitsToAssign', { firer: b.picks_by_firer, target: b.picks_by_target })));
    }
    if (b.suppression) panel.append(h('p', {}, t('battle.suppressed', { count: b.suppression })));
    if (b.marked && b.marked.length) panel.append(h('p', {}, t('battle.hitThisRound', { units: unitList(page, b.marked) })));
  } else if (bombard) {
    panel.append(
      h('h2', {}, t('battle.bombardmentOf', { hex: page.label(bombard.hex) })),
      h('p', {}, fillIn(t('battle.firesAt'), { firer: page.who(bombard.firer), target: page.who(bombard.target) })),
      h('p', {}, t('battle.bombardHitsToAssign', { firer: bombard.picks_by_firer, target: bombard.picks_by_target })),
    );
  }
  if (record && (!b || record.hex === b.hex)) {
    if (!b) {
      const hex = page.label(record.hex);
      const ended = record.ended;
      const title = ended && ended.winner === record.attacker ? t('battle.lastTaken', { hex }) : ended && !(ended.winner >= 0) ? t('battle.lastHeld', { hex }) : t('battle.last', { hex });
      panel.append(h('h2', {}, title));
    }
    panel.append(battleTable(record, (seat) => page.whoText(seat), { you: page.mySeat }));
  } else if (page.lastRoll && (!b || !(b.attacker_dice || []).length)) {
    const r = page.lastRoll;
    panel.append(h('div', { class: 'dice-line last-roll' }, h('span', {}, `${r.hex >= 0 ? t('battle.lastRollAt', { who: page.whoText(r.player), purpose: rollPurpose(r.purpose), hex: page.label(r.hex) }) : t('battle.lastRoll', { who: page.whoText(r.player), purpose: rollPurpose(r.purpose) })} `), diceRow(r.dice)));
  }
  panel.append(h('p', { class: 'subtle legend' }, t('battle.legend')));
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
      return t('battle.seatUnits', { count: n, seat: seatStyle(Number(owner)).name, unit: UNIT_NAME[type] });
    })
    .join(', ');
}
