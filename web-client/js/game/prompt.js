// The prompt above the map: where the game stands and what this player can do now.

import { clickWord, h, plural, UNIT_NAME, PHASE_NAME } from '../util.js';
import { hexActionKinds } from './legal.js';
import { lostSettlementText, resultText, roundText, stageText } from './text.js';
import { reinforcing } from './actions.js';

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
    view.phase === 'game_over' ? null : [sep(), h('span', {}, 'playing:'), page.who(view.current)],
  );
  let title;
  let text = '';
  if (view.phase === 'game_over') {
    p.classList.add('over');
    title = resultText(page);
    text = 'The game is over. You can watch the replay step by step.';
  } else if (page.isMyMove(c)) {
    p.classList.add('mine');
    ({ title, text } = instructions(page, c));
  } else if (me === null) {
    title = 'You are watching this game.';
    text = `Waiting for ${page.whoText(view.decider)}.`;
  } else {
    title = `Waiting for ${page.whoText(view.decider)}`;
    text = waitingReason(page);
  }
  const help = h('button', { type: 'button', class: 'btn btn-small btn-plain help-link', id: 'help-link', dataset: { focusKey: 'help-link' }, title: 'What this phase allows, units and terrain', onclick: () => page.openHelp() }, '? Rules');
  p.append(h('div', { class: 'prompt-head' }, phaseLine, help), h('div', { class: 'prompt-title', id: 'prompt-title' }, title));
  if (text) p.append(h('div', { class: 'prompt-text' }, text));
}

// The phase line is a flex row: each part is its own element, so no text runs together.
function sep() {
  return h('span', { class: 'sep', 'aria-hidden': 'true' }, '·');
}

function waitingReason(page) {
  const view = page.view;
  if (view.battle) return `Battle at ${page.label(view.battle.hex)}: ${stageText(view.battle.stage)}.`;
  if (view.bombard) return `Bombardment of ${page.label(view.bombard.hex)}: hits are being assigned.`;
  if (view.exploration_choice) return `${page.whoText(view.exploration_choice.player)} chooses whether to lay a land tile on new water [15.3].`;
  if (view.relocation) return `${page.whoText(view.relocation.player)} is relocating a ${view.relocation.city ? 'City' : 'Town'} [15.5].`;
  if (view.capital_return) return view.capital_return.stage === 'reinforce' ? `${page.whoText(view.capital_return.vassal)} reinforces his returned Capital [15.62].` : `${page.whoText(view.capital_return.ruler)} withdraws his units from ${page.label(view.capital_return.hex)} [15.62].`;
  if (view.elimination) return `${page.whoText(view.elimination.player)} must return units to stock after losing ${lostSettlementText(page, view.elimination.player)}.`;
  if (view.phase === 'setup') return 'Players place their Capitals in turn.';
  return `${PHASE_NAME[view.phase] || view.phase}.`;
}

function instructions(page, c) {
  const view = page.view;
  if (c.casualty.length) return { title: 'Choose a casualty', text: 'Make your choice in the box at the bottom of the map.' };
  if (c.continueBattle || c.retreat.length) return { title: 'Retreat or fight on?', text: 'Make your choice in the box at the bottom of the map.' };
  if (c.average.length) return { title: 'Average dice or roll them? [15.4]', text: 'Make your choice in the box at the bottom of the map.' };
  if (c.replaceWater.length || c.keepWater) return { title: 'Water or land? [15.3]', text: `${clickWord(true)} a lit water hex to lay the drawn land tile there, or choose in the box.` };
  if (c.withdraw.length) return { title: 'Return the Capital [15.62]', text: `Withdraw your units one by one: select one (dashed outline) and ${clickWord()} a lit hex, or choose in the box.` };
  if (c.rebuild.length) return { title: 'Rebuild your Town or City [15.5]', text: `${clickWord(true)} a lit hex next to the old one, or choose in the box.` };
  if (reinforcing(page)) return { title: 'Reinforce your Capital [15.62]', text: 'Place Reserve units on your Capital (Frigates next to it), then press “Done reinforcing”.' };
  if (c.eliminate.length && view.relocation) return { title: 'Return units to stock [15.5]', text: 'Your Town or City leaves the map for now: choose the units it supported, then rebuild it next door.' };
  if (c.eliminate.length) return { title: 'Return units to stock', text: `You lost ${lostSettlementText(page, page.mySeat)}: choose the units it supported [10.2].` };
  const hexKinds = hexActionKinds(c);
  if (hexKinds.has('place_capital')) return { title: 'Place your Capital', text: `${clickWord(true)} one of the highlighted hexes (★).` };
  if (view.phase === 'build') {
    const parts = [];
    if (hexKinds.has('build_town')) parts.push('build a Town (house mark)');
    if (hexKinds.has('upgrade_city')) parts.push('upgrade a Town to a City (tower mark)');
    if (hexKinds.has('remove_town')) parts.push('relocate a Town or City (its button, then the Town)');
    if (parts.length) return { title: 'Your Build phase', text: `${clickWord(true)} a highlighted hex to ${parts.join(' or ')} — or end the Build phase.` };
    return { title: 'Your Build phase', text: 'Nothing to build now. End the Build phase to move your units.' };
  }
  if (view.phase === 'movement') {
    const battles = [...c.hex.values()].flat().filter((a) => a.kind === 'start_battle').length;
    const selected = page.ui.selectedUnit !== null ? page.unitsById().get(page.ui.selectedUnit) : null;
    if (selected) {
      return { title: `${UNIT_NAME[selected.type]} selected`, text: `${clickWord(true)} a highlighted hex to act with it, or ${clickWord()} another of your units.` };
    }
    let text = c.unit.size ? `${clickWord(true)} one of your units (dashed outline) to see where it can go.` : 'No unit can move any more.';
    if (battles) text += ` ${plural(battles, 'battle')} to fight: ${clickWord()} a ⚔ hex or a “Fight” button.`;
    else text += ' End the phase when you are done.';
    return { title: 'Move and fight', text };
  }
  if (view.phase === 'reserve') {
    if (c.place.size) return { title: 'Place your Reserve', text: `${clickWord(true)} a highlighted hex (+) to place a unit there, or pick a type first. Units you keep stay in the Reserve.` };
    return { title: 'Reserve placement', text: 'Nothing to place. End your turn.' };
  }
  return { title: 'Your move', text: '' };
}
