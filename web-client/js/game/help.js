// Rules help beside the map: the game's own victory conditions and optional rules ("This
// game", game/victory.js), what the phase under way allows, and the unit and terrain
// tables of the Player Aid sheet [3.4]. Reading matter only: what a player may do right now
// is still what the map lights up from the server's legal list.

import { h } from '../util.js';
import { renderThisGame } from './victory.js';

const PHASE_HELP = {
  setup: {
    title: 'Setup [4.0]',
    points: [
      'Choose a land hex among your revealed starting hexes for your Capital.',
      'The Capital is a Town: it gives you one Infantry, placed there at once.',
    ],
  },
  build: {
    title: 'Build phase [7.0]',
    points: [
      'Build one Town, or upgrade one of your Towns to a City [7.2]. Only while you hold your Capital [7.1].',
      'A Town goes on an explored land hex 2 or 3 hexes from one of your Towns or Cities, joined to it by revealed hexes, never next to another Town or City [7.21], never on an enemy unit [7.22].',
      'A new Town turns over the tiles around it, a new City the tiles two hexes away [7.3].',
      'Each gives you one unit for your Reserve: a Town an Infantry, a City the unit of its terrain [7.4].',
    ],
  },
  movement: {
    title: 'Movement & Combat phase [9.0–12.0]',
    points: [
      'Units move one at a time; 1 MP per hex. Entering a hex turns over the tiles around it [9.2].',
      'Entering Forest or Mountain stops a land unit, unless one of your Towns or Cities is there or one of your land units began the turn there [9.12].',
      'Roads: 1 MP between two of your Towns or Cities 2–3 land hexes apart, with no enemy on the way [9.13].',
      'Frigates carry up to 3 land units. Boarding and landing use up the land unit’s move; a Frigate lands cargo in one hex per turn [9.4].',
      'Artillery and Frigates bombard a unit 1 or 2 hexes away with one die; Forest, Mountain, Towns and Cities block the line [11.0, 11.2].',
      'Moving into enemy units or an enemy Town starts a battle there; a unit attacks once per turn [10.6, 12.0].',
    ],
  },
  reserve: {
    title: 'Reserve placement [13.0]',
    points: [
      'Place Reserve units in your Towns and Cities of the matching terrain: one Infantry per Town; a Plains City two Infantry; a Grassland City Infantry and/or Cavalry; a Mountain City Infantry and/or Artillery; a Forest City Infantry and/or a Frigate on water next to it [13.11, 13.3].',
      'Not where an enemy unit stands next to the Town or City [13.2]. Your Capital takes any unit [13.4].',
      'Units you do not place wait in the Reserve.',
    ],
  },
};

const UNITS = [
  ['Infantry', '2', '1 / 1', ''],
  ['Cavalry', '3', '2 / 1', ''],
  ['Artillery', '2', '1 / 1', 'each also fires 1 die before a battle; bombards 1–2 hexes'],
  ['Frigate', '5, on water', '1 / 1 against Frigates', 'carries 3 land units; bombards; 1 Naval Support die to a land battle next to it'],
];

const TERRAIN = [
  ['Plains', '', '', '2 Infantry'],
  ['Grassland', '', '', 'Infantry + Cavalry'],
  ['Forest', 'stops land units', '1 die; blocks bombardment', 'Infantry + Frigate'],
  ['Mountain', 'stops land units', '2 dice; blocks bombardment', 'Infantry + Artillery'],
  ['Water', 'Frigates only', '', ''],
];

function table(caption, head, rows) {
  return h(
    'table',
    { class: 'help-table' },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, head.map((c) => h('th', { scope: 'col' }, c)))),
    h('tbody', {}, rows.map((r) => h('tr', {}, r.map((c, i) => (i === 0 ? h('th', { scope: 'row' }, c) : h('td', {}, c)))))),
  );
}

export function buildHelpPanel() {
  const gameBox = h('div', { class: 'help-game', id: 'help-game' });
  const phaseBox = h('div', { class: 'help-phase', id: 'help-phase' });
  const panel = h(
    'details',
    { class: 'panel help-panel', id: 'help' },
    h('summary', {}, 'Rules help'),
    gameBox,
    phaseBox,
    table('Units [9.11, 12.3]: dice count per kind of unit in a battle, not per unit', ['', 'MP', 'Dice attack / defence', 'Also'], UNITS),
    table('Terrain [9.12, 12.3, 8.2]', ['', 'Movement', 'Defence', 'A City there supports'], TERRAIN),
    h('p', { class: 'subtle' }, 'A Town gives the defender 1 die, a City 2; only the best of terrain and Town or City counts (at most 2) [12.3]. Dice of 3 or less hit; for each 1 the firer picks the casualty [10.1].'),
  );
  panel.update = (phase, options) => {
    // The options never change during a game; compared as text, they are drawn once.
    const key = JSON.stringify(options || {});
    if (panel.optionsKey !== key) {
      panel.optionsKey = key;
      renderThisGame(gameBox, options);
    }
    if (panel.phase === phase) return;
    panel.phase = phase;
    const help = PHASE_HELP[phase];
    phaseBox.replaceChildren();
    if (!help) return;
    phaseBox.append(h('h3', {}, `Now: ${help.title}`), h('ul', {}, help.points.map((p) => h('li', {}, p))));
  };
  return panel;
}
