// The decision card over the map, for the choices the rules give a player, also out of turn:
// casualties [10.1], retreat or fight on [12.3 step 3], units to return to stock [10.2], and
// those of the optional rules: dice to average [15.4], a land tile for water [15.3], where to
// rebuild a relocated Town [15.5], the units leaving a returned Capital [15.62].

import { diceRow } from '../board.js';
import { t } from '../i18n.js';
import { h, seatStyle, UNIT_NAME, TERRAIN_NAME } from '../util.js';
import { classifyLegal, groupUnits } from './legal.js';
import { lostSettlementText } from './text.js';

// "Attacker: ⚀ ⚂": a line of dice with its label.
function diceLine(label, dice) {
  return h('div', { class: 'dice-line' }, h('span', {}, `${label} `), diceRow(dice));
}

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
    if (ownLosses) lines.push(picks ? t('decision.ownHitPicks', { count: picks.picks_by_target }) : t('decision.ownHit'));
    else lines.push(picks ? t('decision.tacticalHitPicks', { count: picks.picks_by_firer }) : t('decision.tacticalHit'));
    if (view.battle) {
      const diceBox = h('div', { class: 'dice-lines' });
      if ((view.battle.attacker_dice || []).length) diceBox.append(diceLine(t('decision.attacker'), view.battle.attacker_dice));
      if ((view.battle.defender_dice || []).length) diceBox.append(diceLine(t('decision.defender'), view.battle.defender_dice));
      lines.push(diceBox);
    } else if (page.lastRoll) {
      lines.push(diceLine(t('decision.roll'), page.lastRoll.dice));
    }
    const groups = groupUnits(c.casualty, units, (u) => `${u.owner}|${u.type}|${u.hex}|${u.carrier >= 0 ? 'c' : ''}`);
    page.card.show({
      key: `casualty-${page.state.seq}`,
      kind: 'choose_casualty',
      title: view.battle ? t('decision.casualtyBattleTitle', { hex: where }) : t('decision.casualtyBombardTitle', { hex: where }),
      lines,
      groups: [
        {
          options: groups.map((g) => ({
            label: g.unit.carrier >= 0 ? t('decision.unitOfColourAboard', { colour: seatStyle(g.unit.owner).name, unit: UNIT_NAME[g.unit.type] }) : t('decision.unitOfColour', { colour: seatStyle(g.unit.owner).name, unit: UNIT_NAME[g.unit.type] }),
            detail: g.actions.length > 1 ? t('decision.ofThem', { count: g.actions.length }) : '',
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
      lines.push(t('decision.battleRound', { hex: page.label(b.hex), round: b.round }));
      if ((b.attacker_dice || []).length || (b.defender_dice || []).length) {
        lines.push(
          h('div', { class: 'dice-lines' },
            (b.attacker_dice || []).length ? diceLine(t('decision.youRolled'), b.attacker_dice) : null,
            (b.defender_dice || []).length ? diceLine(t('decision.defenderRolled'), b.defender_dice) : null),
        );
      }
    }
    const groups = [];
    if (c.continueBattle) {
      groups.push({ options: [{ label: t('decision.fightOn'), kind: 'danger', onClick: () => page.send(c.continueBattle), data: { choice: 'continue' } }] });
    }
    if (c.retreat.length) {
      const byTypeHex = groupUnits(c.retreat, units, (u, a) => `${u.type}|${a.hex}`);
      groups.push({
        heading: c.continueBattle ? t('decision.orRetreat') : t('decision.retreatOneByOne'),
        options: byTypeHex.map((g) => ({
          label: `${UNIT_NAME[g.unit.type]} → ${page.label(g.actions[0].hex)}`,
          detail: g.actions.length > 1 ? t('decision.canGo', { count: g.actions.length }) : '',
          onClick: () => page.send(g.actions[0]),
          onHover: preview(g.actions[0].hex),
          data: { choice: 'retreat' },
        })),
      });
    }
    page.card.show({ key: `retreat-${b ? b.hex : ''}-${b ? b.round : ''}`, kind: 'retreat', title: c.continueBattle ? t('decision.retreatOrFight') : t('decision.retreat'), lines, groups });
    return;
  }
  if (c.eliminate.length) {
    const owed = view.elimination ? view.elimination.owed : [];
    const groups = groupUnits(c.eliminate, units, (u) => `${u.type}|${u.place}|${u.place === 'map' ? u.hex : ''}`);
    page.card.show({
      key: 'eliminate',
      kind: 'eliminate_unit',
      title: eliminateTitle(page),
      lines: [t('decision.stillOwed', { units: owed.map((type) => UNIT_NAME[type]).join(', ') || '—' })],
      groups: [
        {
          options: groups.map((g) => ({
            label: g.unit.place === 'reserve' ? t('decision.fromReserve', { unit: UNIT_NAME[g.unit.type] }) : t('decision.unitAt', { unit: UNIT_NAME[g.unit.type], hex: page.label(g.unit.hex) }),
            detail: g.actions.length > 1 ? t('decision.there', { count: g.actions.length }) : '',
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

function eliminateTitle(page) {
  const reloc = page.view.relocation;
  if (reloc && reloc.player === page.mySeat) return reloc.city ? t('decision.relocatingCity') : t('decision.relocatingTown');
  return t('decision.lostReturn', { lost: lostSettlementText(page, page.mySeat) });
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
        label: a.pairs ? t('decision.averagePairs', { count: a.pairs }) : t('gameText.rollEveryDie'),
        detail: due !== undefined ? t('decision.diceRolled', { count: due - 2 * a.pairs }) : '',
        kind: a.pairs ? undefined : 'primary',
        onClick: () => page.send(a),
        data: { pairs: a.pairs },
      }));
    page.card.show({
      key: `average-${b ? `${b.hex}-${b.round}-${b.stage}` : page.state.seq}`,
      kind: 'average_dice',
      title: averageTitle(firer, b ? page.label(b.hex) : null),
      lines: [due !== undefined ? t('decision.averageText', { count: due }) : t('decision.averageTextYourDice')],
      groups: [{ options }],
    });
    return true;
  }
  if (c.replaceWater.length || c.keepWater) {
    const choice = view.exploration_choice || {};
    const land = TERRAIN_NAME[choice.land] || choice.land || t('decision.land');
    page.card.show({
      key: `balance-${page.state.seq}`,
      kind: 'exploration_choice',
      title: t('decision.waterTitle', { rule: t('rule.explorationBalancing') }),
      lines: [t('decision.waterText', { count: (choice.water || c.replaceWater).length, land })],
      groups: [
        {
          options: c.replaceWater.map((a) => ({
            label: t('decision.landAt', { land, hex: page.label(a.hex) }),
            onClick: () => page.send(a),
            onHover: preview(a.hex),
            data: { replaceHex: a.hex },
          })),
        },
        c.keepWater ? { options: [{ label: t('decision.keepWater'), onClick: () => page.send(c.keepWater), data: { choice: 'keep_water' } }] } : null,
      ].filter(Boolean),
    });
    return true;
  }
  if (c.rebuild.length) {
    const reloc = view.relocation || {};
    const from = reloc.from_hex >= 0 ? page.label(reloc.from_hex) : null;
    let text;
    if (reloc.city) text = from ? t('decision.rebuildCityText', { hex: from }) : t('decision.rebuildCityTextNoHex');
    else text = from ? t('decision.rebuildTownText', { hex: from }) : t('decision.rebuildTownTextNoHex');
    page.card.show({
      key: `rebuild-${reloc.from_hex}`,
      kind: 'rebuild_town',
      title: reloc.city ? t('decision.rebuildCityTitle') : t('decision.rebuildTownTitle'),
      lines: [text],
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
      title: ret.hex >= 0 ? t('decision.withdrawTitle', { hex: page.label(ret.hex) }) : t('prompt.withdrawTitle'),
      lines: [ret.vassal >= 0 ? t('decision.withdrawVassal', { who: page.whoText(ret.vassal) }) : t('decision.withdrawOwner')],
      groups: [
        {
          options: groups.map((g) => ({
            label: `${UNIT_NAME[g.unit.type]} → ${page.label(g.actions[0].hex)}`,
            detail: g.actions.length > 1 ? t('decision.canGo', { count: g.actions.length }) : '',
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

// "Luck Averaging [15.4]: your fire as the attacker at E5".
function averageTitle(firer, hex) {
  const rule = t('rule.luckAveraging');
  if (firer === 'defender') return hex ? t('decision.averageTitleDefenderAt', { rule, hex }) : t('decision.averageTitleDefender', { rule });
  return hex ? t('decision.averageTitleAttackerAt', { rule, hex }) : t('decision.averageTitleAttacker', { rule });
}
