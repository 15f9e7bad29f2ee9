// The prompt above the map: where the game stands and what this player can do now. Every
// text comes from the message catalogs (docs/client.md, "Languages").

import { t } from '../i18n.js';
import { h, touchScreen, UNIT_NAME, PHASE_NAME } from '../util.js';
import { hexActionKinds } from './legal.js';
import { joinOr, lostSettlementText, resultText, roundText, stageText } from './text.js';
import { reinforcing } from './actions.js';

// "Click" or "Tap" (a touch screen has no pointer): the verb at the start of a sentence and
// within one, as the instructions' {clickStart} and {click}.
function clickWords() {
  return touchScreen() ? { clickStart: t('prompt.tapStart'), click: t('prompt.tap') } : { clickStart: t('prompt.clickStart'), click: t('prompt.click') };
}

export function renderPrompt(page, c) {
  const view = page.view;
  const me = page.mySeat;
  const p = page.els.prompt;
  p.replaceChildren();
  p.className = 'prompt';
  const phaseLine = h(
    'div',
    { class: 'phase-line' },
    view.phase === 'setup' || view.phase === 'game_over' ? null : [h('span', { class: 'round', id: 'round' }, roundText(view)), sep()],
    h('span', {}, PHASE_NAME[view.phase] || view.phase),
    view.phase === 'game_over' ? null : [sep(), h('span', {}, t('prompt.playing')), page.who(view.current)],
  );
  let title;
  let text = '';
  if (view.phase === 'game_over') {
    p.classList.add('over');
    title = resultText(page);
    text = t('prompt.gameOver');
  } else if (page.isMyMove(c)) {
    p.classList.add('mine');
    ({ title, text } = instructions(page, c));
  } else if (me === null) {
    title = t('prompt.watching');
    text = t('prompt.waitingForDot', { who: page.whoText(view.decider) });
  } else {
    title = t('prompt.waitingFor', { who: page.whoText(view.decider) });
    text = waitingReason(page);
  }
  const help = h('button', { type: 'button', class: 'btn btn-small btn-plain help-link', id: 'help-link', dataset: { focusKey: 'help-link' }, title: t('prompt.helpTitle'), onclick: () => page.openHelp() }, t('prompt.help'));
  p.append(h('div', { class: 'prompt-head' }, phaseLine, help), h('div', { class: 'prompt-title', id: 'prompt-title' }, title));
  if (text) p.append(h('div', { class: 'prompt-text' }, text));
}

// The phase line is a flex row: each part is its own element, so no text runs together.
function sep() {
  return h('span', { class: 'sep', 'aria-hidden': 'true' }, '·');
}

function waitingReason(page) {
  const view = page.view;
  if (view.battle) return t('prompt.battleAt', { hex: page.label(view.battle.hex), stage: stageText(view.battle.stage) });
  if (view.bombard) return t('prompt.bombardmentOf', { hex: page.label(view.bombard.hex) });
  if (view.exploration_choice) return t('prompt.othersExplorationChoice', { who: page.whoText(view.exploration_choice.player) });
  if (view.relocation) return view.relocation.city ? t('prompt.othersRelocateCity', { who: page.whoText(view.relocation.player) }) : t('prompt.othersRelocateTown', { who: page.whoText(view.relocation.player) });
  if (view.capital_return) {
    return view.capital_return.stage === 'reinforce'
      ? t('prompt.othersReinforce', { who: page.whoText(view.capital_return.vassal) })
      : t('prompt.othersWithdraw', { who: page.whoText(view.capital_return.ruler), hex: page.label(view.capital_return.hex) });
  }
  if (view.elimination) return t('prompt.othersReturnUnits', { who: page.whoText(view.elimination.player), lost: lostSettlementText(page, view.elimination.player) });
  if (view.phase === 'setup') return t('prompt.othersPlaceCapitals');
  return `${PHASE_NAME[view.phase] || view.phase}.`;
}

function instructions(page, c) {
  const view = page.view;
  const click = clickWords();
  if (c.casualty.length) return { title: t('prompt.casualtyTitle'), text: t('prompt.chooseInBox') };
  if (c.continueBattle || c.retreat.length) return { title: t('prompt.retreatTitle'), text: t('prompt.chooseInBox') };
  if (c.average.length) return { title: t('prompt.averageTitle'), text: t('prompt.chooseInBox') };
  if (c.replaceWater.length || c.keepWater) return { title: t('prompt.waterTitle'), text: t('prompt.waterText', click) };
  if (c.withdraw.length) return { title: t('prompt.withdrawTitle'), text: t('prompt.withdrawText', click) };
  if (c.rebuild.length) return { title: t('prompt.rebuildTitle'), text: t('prompt.rebuildText', click) };
  if (reinforcing(page)) return { title: t('prompt.reinforceTitle'), text: t('prompt.reinforceText') };
  if (c.eliminate.length && view.relocation) return { title: t('prompt.relocateReturnTitle'), text: t('prompt.relocateReturnText') };
  if (c.eliminate.length) return { title: t('prompt.returnTitle'), text: t('prompt.returnText', { lost: lostSettlementText(page, page.mySeat) }) };
  const hexKinds = hexActionKinds(c);
  if (hexKinds.has('place_capital')) return { title: t('prompt.capitalTitle'), text: t('prompt.capitalText', click) };
  if (view.phase === 'build') {
    const parts = [];
    if (hexKinds.has('build_town')) parts.push(t('prompt.buildTown'));
    if (hexKinds.has('upgrade_city')) parts.push(t('prompt.upgradeCity'));
    if (hexKinds.has('remove_town')) parts.push(t('prompt.relocateTown'));
    if (parts.length) return { title: t('prompt.buildTitle'), text: t('prompt.buildText', { ...click, what: joinOr(parts) }) };
    return { title: t('prompt.buildTitle'), text: t('prompt.buildNothing') };
  }
  if (view.phase === 'movement') {
    const battles = [...c.hex.values()].flat().filter((a) => a.kind === 'start_battle').length;
    const selected = page.ui.selectedUnit !== null ? page.unitsById().get(page.ui.selectedUnit) : null;
    if (selected) return { title: t('prompt.unitSelected', { unit: UNIT_NAME[selected.type] }), text: t('prompt.unitSelectedText', click) };
    const parts = [c.unit.size ? t('prompt.pickUnit', click) : t('prompt.noUnitMoves')];
    parts.push(battles ? t('prompt.battlesToFight', { count: battles, click: click.click }) : t('prompt.endWhenDone'));
    return { title: t('prompt.movementTitle'), text: parts.join(' ') };
  }
  if (view.phase === 'reserve') {
    // House rule Redeployment: units on the board are offered too (select one, then its place).
    const redeploy = [...c.unit.values()].flat().some((a) => a.kind === 'redeploy') ? ` ${t('prompt.redeployText', click)}` : '';
    if (c.place.size) return { title: t('prompt.reserveTitle'), text: t('prompt.reserveText', click) + redeploy };
    if (redeploy) return { title: t('prompt.reserveTitle'), text: redeploy.trim() };
    return { title: t('prompt.reserveNothingTitle'), text: t('prompt.reserveNothing') };
  }
  return { title: t('prompt.yourMove'), text: '' };
}
