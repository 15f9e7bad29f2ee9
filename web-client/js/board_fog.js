// Fog of war on the map (docs/client.md, "Fog of war"): hexes out of the viewer's sight (the
// view's `"unseen": true`) under a hatched shade that leaves terrain, Towns and Cities readable,
// and over it the enemy units last seen there (the view's `last_seen`) as faded, dashed marks in
// the owner's colour with their numbers and the round they were seen in. A function of the
// Board (board.js), drawn over the pieces and under the highlights' icons; it never takes a
// click (the hit areas above name the hex, with what fog.js says of it).

import { s, seatStyle } from './util.js';
import { HEX_SIZE, hexPoints } from './board_geometry.js';
import { lastSeenAt, lastSeenMarkWhen, lastSeenShort, lastSeenText } from './fog.js';

const HATCH_ID = 'fog-hatch';

// The hatch pattern, once per map.
function ensureHatch(board) {
  if (board.svg.querySelector(`#${HATCH_ID}`)) return;
  const pattern = s('pattern', { id: HATCH_ID, width: 7, height: 7, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  pattern.append(s('rect', { width: 7, height: 7, class: 'fog-hatch-bg' }), s('line', { x1: 0, y1: 0, x2: 0, y2: 7, class: 'fog-hatch-line' }));
  const defs = s('defs', {});
  defs.append(pattern);
  board.svg.prepend(defs);
}

// One mark: a dashed, half-transparent counter of the owner's colour; its lines are the units
// ("I×2 C×1") and when they were seen ("round 6").
function lastSeenMark(view, entry, x, y, wanted, maxHeight) {
  const st = seatStyle(entry.owner);
  const parts = lastSeenShort(entry);
  const lines = parts.length > 2 ? [parts.slice(0, 2).join(' '), parts.slice(2).join(' ')] : [parts.join(' ')];
  const whenText = lastSeenMarkWhen(view, entry);
  const widest = Math.max(...lines.map((l) => l.length * 7.2), whenText.length * 4.9);
  const w = Math.max(30, widest + 8);
  const lineH = 12;
  const hgt = lines.length * lineH + 10 + 3;
  // As large as wanted (bigger on a phone, as counters are), as long as it stays in its hex.
  const scale = Math.min(wanted, (HEX_SIZE * 1.55) / w, maxHeight / hgt);
  const g = s('g', {
    class: 'last-seen',
    role: 'img',
    'aria-label': lastSeenText(view, entry),
    dataset: { hex: entry.hex, owner: entry.owner, turn: entry.turn },
    transform: `translate(${x},${y}) scale(${scale})`,
  });
  g.append(s('title', { text: lastSeenText(view, entry) }));
  g.append(s('rect', { class: 'last-seen-box', x: -w / 2, y: -hgt / 2, width: w, height: hgt, rx: 3, fill: st.fill, stroke: st.edge }));
  lines.forEach((line, i) => {
    g.append(s('text', { class: 'last-seen-units', x: 0, y: -hgt / 2 + 2 + lineH * (i + 0.5) + 0.5, fill: st.ink, text: line }));
  });
  g.append(s('text', { class: 'last-seen-when', x: 0, y: hgt / 2 - 6, fill: st.ink, text: whenText }));
  return g;
}

export function drawFog(board) {
  const layer = board.layers.fog;
  layer.replaceChildren();
  const view = board.view;
  const unseen = view.hexes.filter((hx) => hx.unseen);
  if (!unseen.length && !(view.last_seen || []).length) return;
  ensureHatch(board);
  for (const hx of unseen) {
    const { x, y } = board.centers.get(hx.hex);
    layer.append(s('polygon', { class: 'fog-shade', points: hexPoints(x, y, HEX_SIZE - 0.6), fill: `url(#${HATCH_ID})`, dataset: { unseenHex: hx.hex } }));
  }
  // Marks only on hexes out of sight: a hex back in sight shows the truth (the server drops its
  // entries then; this is only so a stale entry can never sit over real counters).
  const wanted = board.counterScale || 1;
  for (const hx of unseen) {
    const entries = lastSeenAt(view, hx.hex);
    if (!entries.length) continue;
    const { x, y } = board.centers.get(hx.hex);
    const hasTown = hx.town_owner !== undefined && hx.town_owner !== null && hx.town_owner >= 0;
    // Under a Town or City the marks get the lower part of the hex, as counters do; several
    // owners' marks share the room, one above the other.
    const room = hasTown ? HEX_SIZE * 0.95 : HEX_SIZE * 1.3;
    const centre = y + (hasTown ? HEX_SIZE * 0.42 : 0);
    const each = room / entries.length;
    entries.forEach((entry, i) => {
      const dy = (i - (entries.length - 1) / 2) * each;
      layer.append(lastSeenMark(view, entry, x, centre + dy, wanted, each - 2));
    });
  }
}
