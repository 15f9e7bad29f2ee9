// What the map draws over the terrain and pieces, apart from them: the highlights the game page
// computes from the legal list (with their icons), move trails, pending and current battles,
// hexes pointed out for a moment (a log line's), and the other players' moves since your last
// turn (arrows numbered in order, battle markers) until you dismiss them. Functions of the
// Board (board.js), which keeps its layers and the scene.

import { s, seatStyle } from './util.js';
import { t } from './i18n.js';
import { HEX_SIZE, hexPoints } from './board_geometry.js';

// What each kind of highlight looks like. `icon` is drawn by iconPath below.
export const HIGHLIGHT_STYLE = {
  move: { color: '#2ee07a', icon: 'arrow', text: t('overlay.moveHere') },
  battle: { color: '#ff4d4d', icon: 'swords', text: t('overlay.moveInAndFight') },
  embark: { color: '#27d3f0', icon: 'anchor', text: t('overlay.boardFrigate') },
  disembark: { color: '#27d3f0', icon: 'land', text: t('overlay.landHere') },
  bombard: { color: '#ff9d1c', icon: 'target', text: t('overlay.bombard') },
  retreat: { color: '#ffc65c', icon: 'arrow', text: t('overlay.retreatHere') },
  build: { color: '#ffe066', icon: 'house', text: t('overlay.buildTown') },
  upgrade: { color: '#ffe066', icon: 'tower', text: t('overlay.upgradeCity') },
  capital: { color: '#ffe066', icon: 'star', text: t('overlay.placeCapital') },
  place: { color: '#c9a6ff', icon: 'plus', text: t('overlay.placeUnit') },
  start_battle: { color: '#ff4d4d', icon: 'swords', text: t('overlay.startBattle') },
  choice: { color: '#ffffff', icon: 'dot', text: '' },
  // The optional rules' choices [15.3, 15.5, 15.62].
  replace_water: { color: '#7fd1ff', icon: 'plus', text: t('overlay.replaceWater') },
  relocate: { color: '#ffe066', icon: 'arrow', text: t('overlay.relocate') },
  rebuild: { color: '#ffe066', icon: 'house', text: t('overlay.rebuild') },
  withdraw: { color: '#2ee07a', icon: 'arrow', text: t('overlay.withdraw') },
  redeploy: { color: '#c9a6ff', icon: 'arrow', text: t('overlay.redeploy') }, // house rule
  // Further than the next move: reachable this turn by several moves (game.reach).
  reach: { color: '#b9f5cf', icon: 'dot', text: t('overlay.reach') },
};

// Pending battles, the current battle, recent moves.
export function drawMarks(board) {
  const layer = board.layers.marks;
  layer.replaceChildren();
  const scene = board.scene;
  for (const move of scene.moves || []) {
    const a = board.centers.get(move.from);
    const b = board.centers.get(move.to);
    if (!a || !b) continue;
    const style = seatStyle(move.owner);
    layer.append(
      s('line', {
        class: `move-trail${move.kind === 'bombard' ? ' bombard-trail' : ''}${move.last ? ' last-move' : ''}`,
        dataset: { from: move.from, to: move.to, owner: move.owner },
        x1: a.x,
        y1: a.y,
        x2: a.x + (b.x - a.x) * 0.82,
        y2: a.y + (b.y - a.y) * 0.82,
        stroke: style.fill,
        'marker-end': 'url(#trail-head)',
      }),
    );
  }
  const battleHexes = new Set(scene.pendingBattles || []);
  for (const hex of battleHexes) {
    const c = board.centers.get(hex);
    if (!c) continue;
    layer.append(s('polygon', { class: 'pending-battle', points: hexPoints(c.x, c.y, HEX_SIZE - 3) }));
  }
  if (scene.battleHex !== undefined && scene.battleHex !== null && scene.battleHex >= 0) {
    const c = board.centers.get(scene.battleHex);
    if (c) layer.append(s('polygon', { class: 'battle-now', points: hexPoints(c.x, c.y, HEX_SIZE - 2) }));
  }
}

export function drawHighlights(board) {
  const layer = board.layers.highlights;
  layer.replaceChildren();
  board.layers.icons.replaceChildren();
  const scene = board.scene;
  if (scene.actionable) {
    for (const hex of scene.actionable) {
      const c = board.centers.get(hex);
      if (!c) continue;
      layer.append(s('polygon', { class: 'actionable', points: hexPoints(c.x, c.y, HEX_SIZE - 2.5) }));
    }
  }
  if (scene.selectedHex !== undefined && scene.selectedHex !== null) {
    const c = board.centers.get(scene.selectedHex);
    if (c) layer.append(s('polygon', { class: 'selected-hex', points: hexPoints(c.x, c.y, HEX_SIZE - 2) }));
  }
  for (const [hex, kind] of scene.highlights || []) {
    const c = board.centers.get(hex);
    if (!c) continue;
    const style = HIGHLIGHT_STYLE[kind] || HIGHLIGHT_STYLE.choice;
    const g = s('g', { class: `target target-${kind}`, dataset: { target: hex, kind } });
    // A dark edge under the coloured one keeps the mark visible on every terrain colour.
    g.append(
      s('polygon', { class: 'target-edge', points: hexPoints(c.x, c.y, HEX_SIZE - 3) }),
      s('polygon', {
        class: 'target-fill',
        points: hexPoints(c.x, c.y, HEX_SIZE - 3),
        fill: style.color,
        stroke: style.color,
      }),
    );
    layer.append(g);
    board.layers.icons.append(
      s('g', { class: `target-mark target-${kind}-mark`, dataset: { target: hex } }, iconBadge(style.icon, c.x - HEX_SIZE * 0.47, c.y - HEX_SIZE * 0.5, style.color)),
    );
  }
}

// Hexes to point out for a moment (e.g. the hexes a log line names), drawn over the tiles.
export function setFlash(board, hexes) {
  board.flash = hexes && hexes.length ? [...hexes] : null;
  if (board.view) drawFlash(board);
}

export function drawFlash(board) {
  const layer = board.layers.flash;
  layer.replaceChildren();
  for (const hex of board.flash || []) {
    const c = board.centers.get(hex);
    if (!c) continue;
    layer.append(s('polygon', { class: 'flash-hex', points: hexPoints(c.x, c.y, HEX_SIZE - 2), dataset: { flashHex: hex } }));
  }
}

// The other players' moves since your last turn (scene.catchUp, from game.since): an arrow per
// move in the mover's colour over a dark edge, numbered in the order they were made, and a
// marker on every hex where a battle was fought. Drawn until the player dismisses them.
export function drawCatchUp(board) {
  const layer = board.layers.catchup;
  layer.replaceChildren();
  const scene = board.scene.catchUp;
  if (!scene) return;
  for (const battle of scene.battles || []) {
    const c = board.centers.get(battle.hex);
    if (!c) continue;
    layer.append(
      s(
        'g',
        { class: 'catch-up-battle', dataset: { hex: battle.hex } },
        s('polygon', { class: 'catch-up-battle-ring', points: hexPoints(c.x, c.y, HEX_SIZE - 4) }),
        iconBadge('swords', c.x + HEX_SIZE * 0.47, c.y - HEX_SIZE * 0.5, '#ff4d4d'),
      ),
    );
  }
  for (const move of scene.moves || []) {
    const a = board.centers.get(move.from);
    const b = board.centers.get(move.to);
    if (!a || !b) continue;
    const style = seatStyle(move.owner);
    const end = { x: a.x + (b.x - a.x) * 0.78, y: a.y + (b.y - a.y) * 0.78 };
    const start = { x: a.x + (b.x - a.x) * 0.12, y: a.y + (b.y - a.y) * 0.12 };
    const line = { x1: start.x, y1: start.y, x2: end.x, y2: end.y };
    const mid = { x: (start.x + end.x) / 2, y: (start.y + end.y) / 2 };
    layer.append(
      s(
        'g',
        { class: `catch-up-move${move.kind === 'bombard' ? ' catch-up-bombard' : ''}`, dataset: { from: move.from, to: move.to, owner: move.owner, n: move.n } },
        s('line', { class: 'catch-up-edge', ...line }),
        s('line', { class: 'catch-up-arrow', ...line, stroke: style.fill, 'marker-end': 'url(#trail-head)' }),
        s('circle', { class: 'catch-up-number', cx: mid.x, cy: mid.y, r: 6.5, fill: style.fill, stroke: style.edge }),
        s('text', { class: 'catch-up-number-text', x: mid.x, y: mid.y + 0.3, fill: style.ink, text: move.n }),
      ),
    );
  }
}

// ---------------------------------------------------------------------------------------------
// Icons for highlighted targets (drawn, so they look the same on every machine).

function iconBadge(icon, x, y, color) {
  const g = s('g', { class: 'target-icon' });
  g.append(s('circle', { cx: x, cy: y, r: 8, fill: '#1b1b1b', stroke: color, 'stroke-width': 1.8 }));
  const p = { fill: 'none', stroke: color, 'stroke-width': 1.7, 'stroke-linecap': 'round', 'stroke-linejoin': 'round' };
  switch (icon) {
    case 'arrow':
      g.append(s('path', { ...p, d: `M${x - 4},${y} h7 M${x + 0.5},${y - 3} l3,3 l-3,3` }));
      break;
    case 'swords':
      g.append(s('path', { ...p, d: `M${x - 4},${y - 4} L${x + 4},${y + 4} M${x + 4},${y - 4} L${x - 4},${y + 4} M${x - 4},${y + 1.5} l2.5,2.5 M${x + 4},${y + 1.5} l-2.5,2.5` }));
      break;
    case 'anchor':
      g.append(s('path', { ...p, d: `M${x},${y - 4.5} v8.5 M${x - 4},${y + 1} q0,3 4,3 q4,0 4,-3 M${x - 2.5},${y - 2} h5` }));
      break;
    case 'land':
      g.append(s('path', { ...p, d: `M${x},${y - 4.5} v7 M${x - 3},${y} l3,3 l3,-3 M${x - 4.5},${y + 4.5} h9` }));
      break;
    case 'target':
      g.append(s('circle', { ...p, cx: x, cy: y, r: 3.2 }), s('path', { ...p, d: `M${x - 5.5},${y} h2 M${x + 3.5},${y} h2 M${x},${y - 5.5} v2 M${x},${y + 3.5} v2` }));
      break;
    case 'house':
      g.append(s('path', { ...p, d: `M${x - 4},${y + 4} v-4.5 l4,-4 l4,4 v4.5 z` }));
      break;
    case 'tower':
      g.append(s('path', { ...p, d: `M${x - 4},${y + 4.5} v-8 h2 v2 h1.5 v-2 h1 v2 h1.5 v-2 h2 v8 z` }));
      break;
    case 'star':
      g.append(s('path', { ...p, d: `M${x},${y - 4.5} l1.4,3 3.2,0.4 -2.4,2.2 0.7,3.3 -2.9,-1.7 -2.9,1.7 0.7,-3.3 -2.4,-2.2 3.2,-0.4 z` }));
      break;
    case 'plus':
      g.append(s('path', { ...p, d: `M${x - 4},${y} h8 M${x},${y - 4} v8` }));
      break;
    default:
      g.append(s('circle', { cx: x, cy: y, r: 2.5, fill: color }));
  }
  return g;
}
