// The decision card over the map, for the choices the rules give a player, also out of turn:
// casualties [10.1], retreat or fight on [12.3 step 3], units to return to stock [10.2], and
// those of the optional rules: dice to average [15.4], a land tile for water [15.3], where to
// rebuild a relocated Town [15.5], the units leaving a returned Capital [15.62].

import { diceRow } from '../board.js';
import { h, seatStyle, UNIT_NAME, TERRAIN_NAME } from '../util.js';
import { classifyLegal, groupUnits } from './legal.js';
import { lostSettlementText } from './text.js';
import { FIRE_TEXT } from './fire.js';

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
      title: view.relocation && view.relocation.player === page.mySeat ? `Relocating your ${view.relocation.city ? 'City' : 'Town'} [15.5]: return the units it supported to stock` : `You lost ${lostSettlementText(page, page.mySeat)}: return units to stock`,
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
  if (renderOptionalRuleDecision(page, c, units, preview)) return;
  page.card.hide();
}

// The decisions the optional rules add. Returns whether a card is shown.
function renderOptionalRuleDecision(page, c, units, preview) {
  const view = page.view;
  if (c.average.length) {
    const b = view.battle;
    const due = b ? b.dice_due : undefined;
    const firer = b && b.stage === 'average_defender_fire' ? 'defender' : 'attacker';
    const options = c.average
      .slice()
      .sort((x, y) => x.pairs - y.pairs)
      .map((a) => ({
        label: a.pairs ? `Average ${a.pairs} pair${a.pairs > 1 ? 's' : ''}: ${a.pairs} sure hit${a.pairs > 1 ? 's' : ''}` : 'Roll every die',
        detail: due !== undefined ? `${FIRE_TEXT.dice(due - 2 * a.pairs)} rolled` : '',
        kind: a.pairs ? undefined : 'primary',
        onClick: () => page.send(a),
        data: { pairs: a.pairs },
      }));
    page.card.show({
      key: `average-${b ? `${b.hex}-${b.round}-${b.stage}` : page.state.seq}`,
      kind: 'average_dice',
      title: `Luck Averaging [15.4]: your fire as the ${firer}${b ? ` at ${page.label(b.hex)}` : ''}`,
      lines: [`You may fire ${due !== undefined ? FIRE_TEXT.dice(due) : 'your dice'}. Each pair you average is not rolled and counts as one hit, your opponent choosing the unit (like a 3 and a 4); an odd die is always rolled.`],
      groups: [{ options }],
    });
    return true;
  }
  if (c.replaceWater.length || c.keepWater) {
    const choice = view.exploration_choice || {};
    const land = TERRAIN_NAME[choice.land] || choice.land || 'land';
    page.card.show({
      key: `balance-${page.state.seq}`,
      kind: 'exploration_choice',
      title: 'Exploration Balancing [15.3]: water or land?',
      lines: [`What you just did turned up ${(choice.water || c.replaceWater).length} water tiles. A ${land} tile was drawn: lay it on one of them, or keep the water.`],
      groups: [
        {
          options: c.replaceWater.map((a) => ({
            label: `${land} at ${page.label(a.hex)}`,
            onClick: () => page.send(a),
            onHover: preview(a.hex),
            data: { replaceHex: a.hex },
          })),
        },
        c.keepWater ? { options: [{ label: 'Keep the water', onClick: () => page.send(c.keepWater), data: { choice: 'keep_water' } }] } : null,
      ].filter(Boolean),
    });
    return true;
  }
  if (c.rebuild.length) {
    const reloc = view.relocation || {};
    const what = reloc.city ? 'City' : 'Town';
    page.card.show({
      key: `rebuild-${reloc.from_hex}`,
      kind: 'rebuild_town',
      title: `Rebuild your ${what} [15.5]`,
      lines: [`Your ${what} left ${reloc.from_hex >= 0 ? page.label(reloc.from_hex) : 'its hex'}: choose the hex next to it where it is rebuilt (also lit on the map).`],
      groups: [{ options: c.rebuild.map((a) => ({ label: page.label(a.hex), onClick: () => page.send(a), onHover: preview(a.hex), data: { rebuildHex: a.hex } })) }],
    });
    return true;
  }
  if (c.withdraw.length) {
    const ret = view.capital_return || {};
    const groups = groupUnits(c.withdraw, units, (u, a) => `${u.type}|${a.hex}`);
    page.card.show({
      key: `withdraw-${page.state.seq}`,
      kind: 'withdraw',
      title: `Return the Capital${ret.hex >= 0 ? ` at ${page.label(ret.hex)}` : ''} [15.62]`,
      lines: [`${ret.vassal >= 0 ? `${page.whoText(ret.vassal)} becomes your Vassal and` : 'Its owner'} keeps the Capital: withdraw your units from it one by one, to a hex next to it or aboard your Frigate there. Among other players' pieces a withdrawal is an attack.`],
      groups: [
        {
          options: groups.map((g) => ({
            label: `${UNIT_NAME[g.unit.type]} → ${page.label(g.actions[0].hex)}`,
            detail: g.actions.length > 1 ? `${g.actions.length} can go` : '',
            onClick: () => page.send(g.actions[0]),
            onHover: preview(g.actions[0].hex),
            data: { choice: 'withdraw' },
          })),
        },
      ],
    });
    return true;
  }
  return false;
}
