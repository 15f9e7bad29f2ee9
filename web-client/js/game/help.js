// Rules help beside the map: the game's own victory conditions and optional rules ("This
// game", game/victory.js), what the phase under way allows, and the unit and terrain
// tables of the Player Aid sheet [3.4]. Reading matter only: what a player may do right now
// is still what the map lights up from the server's legal list.

import { t } from '../i18n.js';
import { h, UNIT_NAME, TERRAIN_NAME } from '../util.js';
import { renderThisGame } from './victory.js';

// The help of each phase: a title and its points, from the message catalogs (the page's
// language is fixed while it runs, so the texts are read once).
const PHASE_HELP = {
  setup: {
    title: t('help.setupTitle'),
    points: [t('help.setup1'), t('help.setup2')],
  },
  build: {
    title: t('help.buildTitle'),
    points: [t('help.build1'), t('help.build2'), t('help.build3'), t('help.build4')],
  },
  movement: {
    title: t('help.movementTitle'),
    points: [t('help.movement1'), t('help.movement2'), t('help.movement3'), t('help.movement4'), t('help.movement5'), t('help.movement6')],
  },
  reserve: {
    title: t('help.reserveTitle'),
    points: [t('help.reserve1'), t('help.reserve2'), t('help.reserve3')],
  },
};

// The Player Aid's rows: name, MP, dice attack / defence, what else.
const UNITS = [
  [UNIT_NAME.infantry, '2', '1 / 1', ''],
  [UNIT_NAME.cavalry, '3', '2 / 1', ''],
  [UNIT_NAME.artillery, '2', '1 / 1', t('help.artilleryAlso')],
  [UNIT_NAME.frigate, t('help.frigateMp'), t('help.frigateDice'), t('help.frigateAlso')],
];

// Name, movement, defence, what a City there supports [8.2].
const TERRAIN = [
  [TERRAIN_NAME.plains, '', '', `2 ${UNIT_NAME.infantry}`],
  [TERRAIN_NAME.grassland, '', '', `${UNIT_NAME.infantry} + ${UNIT_NAME.cavalry}`],
  [TERRAIN_NAME.forest, t('help.stopsLandUnits'), t('help.forestDefence'), `${UNIT_NAME.infantry} + ${UNIT_NAME.frigate}`],
  [TERRAIN_NAME.mountain, t('help.stopsLandUnits'), t('help.mountainDefence'), `${UNIT_NAME.infantry} + ${UNIT_NAME.artillery}`],
  [TERRAIN_NAME.water, t('help.frigatesOnly'), '', ''],
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
    h('summary', {}, t('help.summary')),
    gameBox,
    phaseBox,
    table(t('help.unitsCaption'), ['', t('help.mp'), t('help.dice'), t('help.also')], UNITS),
    table(t('help.terrainCaption'), ['', t('help.movement'), t('help.defence'), t('help.citySupports')], TERRAIN),
    h('p', { class: 'subtle' }, t('help.footnote')),
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
    phaseBox.append(h('h3', {}, t('help.now', { title: help.title })), h('ul', {}, help.points.map((p) => h('li', {}, p))));
  };
  return panel;
}
