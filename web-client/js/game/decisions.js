// The decision card over the map, for the choices the rules give a player, also out of turn:
// casualties [10.1], retreat or fight on [12.3 step 3], units to return to stock [10.2].

import { diceRow } from '../board.js';
import { h, seatStyle, UNIT_NAME } from '../util.js';
import { classifyLegal, groupUnits } from './legal.js';
import { lostSettlementText } from './text.js';

export function renderDecision(page, c) {
  const view = page.view;
  const units = page.unitsById();
  const preview = (hex) => (on) => {
    page.ui.previewHex = on ? hex : null;
    page.renderBoard(classifyLegal(page.state.legal));
  };
  if (c.casualty.length) {
    const ctxt = view.battle || view.bombard;
    const where = ctxt ? page.label(ctxt.hex) : '';
    const owners = new Set(c.casualty.map((a) => (units.get(a.unit) || {}).owner));
    const ownLosses = owners.size === 1 && owners.has(page.mySeat);
    const picks = view.battle ? view.battle : view.bombard;
    const lines = [];
    if (ownLosses) lines.push(`Your units were hit. Choose which unit is lost${picks ? ` (${picks.picks_by_target} to choose)` : ''}.`);
    else lines.push(`A roll of 1 is a tactical victory: you choose which enemy unit is lost${picks ? ` (${picks.picks_by_firer} to choose)` : ''}.`);
    if (view.battle) {
      const diceBox = h('div', { class: 'dice-lines' });
      if ((view.battle.attacker_dice || []).length) diceBox.append(h('div', { class: 'dice-line' }, h('span', {}, 'Attacker: '), diceRow(view.battle.attacker_dice)));
      if ((view.battle.defender_dice || []).length) diceBox.append(h('div', { class: 'dice-line' }, h('span', {}, 'Defender: '), diceRow(view.battle.defender_dice)));
      lines.push(diceBox);
    } else if (page.lastRoll) {
      lines.push(h('div', { class: 'dice-line' }, h('span', {}, 'Roll: '), diceRow(page.lastRoll.dice)));
    }
    const groups = groupUnits(c.casualty, units, (u) => `${u.owner}|${u.type}|${u.hex}|${u.carrier >= 0 ? 'c' : ''}`);
    page.card.show({
      key: `casualty-${page.state.seq}`,
      kind: 'choose_casualty',
      title: `${view.battle ? 'Battle' : 'Bombardment'} at ${where}: choose a casualty`,
      lines,
      groups: [
        {
          options: groups.map((g) => ({
            label: `${seatStyle(g.unit.owner).name} ${UNIT_NAME[g.unit.type]}${g.unit.carrier >= 0 ? ' (aboard)' : ''}`,
            detail: g.actions.length > 1 ? `${g.actions.length} of them` : '',
            onClick: () => page.send(g.actions[0]),
            onHover: preview(g.unit.hex),
            data: { unitType: g.unit.type, owner: g.unit.owner },
          })),
        },
      ],
    });
    return;
  }
  if (c.continueBattle || c.retreat.length) {
    const b = view.battle;
    const lines = [];
    if (b) {
      lines.push(`Battle at ${page.label(b.hex)}, round ${b.round}. Both sides still have units.`);
      if ((b.attacker_dice || []).length || (b.defender_dice || []).length) {
        lines.push(
          h('div', { class: 'dice-lines' },
            (b.attacker_dice || []).length ? h('div', { class: 'dice-line' }, h('span', {}, 'You rolled: '), diceRow(b.attacker_dice)) : null,
            (b.defender_dice || []).length ? h('div', { class: 'dice-line' }, h('span', {}, 'Defender rolled: '), diceRow(b.defender_dice)) : null),
        );
      }
    }
    const groups = [];
    if (c.continueBattle) {
      groups.push({ options: [{ label: '⚔ Fight another round', kind: 'danger', onClick: () => page.send(c.continueBattle), data: { choice: 'continue' } }] });
    }
    if (c.retreat.length) {
      const byTypeHex = groupUnits(c.retreat, units, (u, a) => `${u.type}|${a.hex}`);
      groups.push({
        heading: c.continueBattle ? 'Or retreat, unit by unit:' : 'Retreat your units, one by one:',
        options: byTypeHex.map((g) => ({
          label: `${UNIT_NAME[g.unit.type]} → ${page.label(g.actions[0].hex)}`,
          detail: g.actions.length > 1 ? `${g.actions.length} can go` : '',
          onClick: () => page.send(g.actions[0]),
          onHover: preview(g.actions[0].hex),
          data: { choice: 'retreat' },
        })),
      });
    }
    page.card.show({ key: `retreat-${b ? b.hex : ''}-${b ? b.round : ''}`, kind: 'retreat', title: c.continueBattle ? 'Retreat or fight on?' : 'Retreat', lines, groups });
    return;
  }
  if (c.eliminate.length) {
    const owed = view.elimination ? view.elimination.owed : [];
    const groups = groupUnits(c.eliminate, units, (u) => `${u.type}|${u.place}|${u.place === 'map' ? u.hex : ''}`);
    page.card.show({
      key: 'eliminate',
      kind: 'eliminate_unit',
      title: `You lost ${lostSettlementText(page, page.mySeat)}: return units to stock`,
      lines: [`Still owed: ${owed.map((t) => UNIT_NAME[t]).join(', ') || '—'}. Units in your Reserve go first if you like; units on the map can be chosen too.`],
      groups: [
        {
          options: groups.map((g) => ({
            label: `${UNIT_NAME[g.unit.type]} ${g.unit.place === 'reserve' ? 'from your Reserve' : `at ${page.label(g.unit.hex)}`}`,
            detail: g.actions.length > 1 ? `${g.actions.length} there` : '',
            onClick: () => page.send(g.actions[0]),
            onHover: g.unit.place === 'map' ? preview(g.unit.hex) : undefined,
            data: { unitType: g.unit.type },
          })),
        },
      ],
    });
    return;
  }
  page.card.hide();
}
