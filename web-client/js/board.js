// The SVG hex map. It draws exactly what the server's view says, plus highlights the game page
// computes from the server's list of legal actions. It knows no rule.
//
// Geometry: axial (q, r), pointy-top hexes; centre x = S*sqrt(3)*(q + r/2), y = S*1.5*r.
// Every hex is a <g data-hex data-label data-known [data-terrain]>; data-terrain is present
// only when the view carries the terrain (the viewer knows it), so hidden terrain never
// appears in the page.

import { s, seatStyle, UNIT_LETTER, UNIT_NAME, TERRAIN_NAME } from './util.js';
import { t } from './i18n.js';
import { HEX_SIZE, SQRT3, hexCenter, hexPoints } from './board_geometry.js';
import { drawMarks, drawHighlights, drawCatchUp, setFlash, drawFlash } from './board_overlays.js';
import { drawFog } from './board_fog.js';
import { fogHexParts } from './fog.js';

export { HEX_SIZE, hexCenter } from './board_geometry.js';
export { HIGHLIGHT_STYLE } from './board_overlays.js';

export class Board {
  // onHexClick(hex, {keyboard}), onHexHover(hex | null), onHexFocus(hex | null),
  // describe(hex) -> the hex's accessible name (default: describeHex). With `keyboard`, every
  // hex is a button reachable with the arrow keys (one tab stop for the whole map: roving
  // tabindex); Enter or Space acts on it like a click.
  constructor(container, { onHexClick, onHexHover, onHexFocus, describe, keyboard = false } = {}) {
    this.container = container;
    this.onHexClick = onHexClick || (() => {});
    this.onHexHover = onHexHover || (() => {});
    this.onHexFocus = onHexFocus || (() => {});
    this.describe = describe || null;
    this.keyboard = keyboard;
    this.svg = s('svg', {
      class: 'board',
      role: keyboard ? 'application' : 'img',
      'aria-label': t('board.map'),
      'aria-roledescription': keyboard ? t('board.hexMap') : undefined,
      // The map's one tab stop is its current hex, not the drawing around it.
      tabindex: keyboard ? '-1' : undefined,
      preserveAspectRatio: 'xMidYMid meet',
    });
    this.svg.append(makeDefs());
    this.layers = {};
    // Highlights lie under the pieces (so counters stay readable), their icons above them.
    // The other players' moves since your last turn lie over the pieces, under the icons.
    for (const name of ['tiles', 'marks', 'highlights', 'flash', 'pieces', 'fog', 'catchup', 'icons', 'coords', 'hits']) {
      this.layers[name] = s('g', { class: `layer layer-${name}` });
      this.svg.append(this.layers[name]);
    }
    container.append(this.svg);
    this.view = null;
    this.zoom = 1;
    this.pan = { x: 0, y: 0 };
    this.bounds = null;
    this.showCoords = false;
    this.hoverHex = null;
    this.cursorHex = null; // the map's one tab stop
    this.hitByHex = new Map();
    this.counterScale = 1;
    this.installPointer();
    if (keyboard) this.installKeyboard();
    // On a small screen the whole map is drawn small: counters then get bigger (as far as the
    // hex leaves room) so they stay readable.
    if (typeof ResizeObserver === 'function') {
      this.resizeObserver = new ResizeObserver(() => this.updateCounterScale());
      this.resizeObserver.observe(this.svg);
    }
  }

  updateCounterScale() {
    if (!this.bounds) return;
    const width = this.svg.getBoundingClientRect().width;
    if (!width) return;
    const pxPerUnit = width / this.bounds.w;
    const scale = pxPerUnit < 0.8 ? 1.35 : 1;
    if (scale === this.counterScale) return;
    this.counterScale = scale;
    if (this.view) {
      this.drawPieces();
      drawFog(this);
    }
  }

  installPointer() {
    let drag = null;
    this.svg.addEventListener('pointerdown', (e) => {
      if (e.button !== 0) return;
      drag = { x: e.clientX, y: e.clientY, pan: { ...this.pan }, moved: false, id: e.pointerId };
    });
    this.svg.addEventListener('pointermove', (e) => {
      if (drag && drag.id === e.pointerId && this.zoom > 1) {
        const dx = e.clientX - drag.x;
        const dy = e.clientY - drag.y;
        if (!drag.moved && Math.hypot(dx, dy) > 6) {
          drag.moved = true;
          this.svg.setPointerCapture(e.pointerId);
        }
        if (drag.moved) {
          const scale = this.unitsPerPixel();
          this.pan = { x: drag.pan.x - dx * scale, y: drag.pan.y - dy * scale };
          this.applyViewBox();
        }
      }
      const hex = hexFromEvent(e);
      if (hex !== this.hoverHex) {
        this.hoverHex = hex;
        this.onHexHover(hex);
      }
    });
    this.svg.addEventListener('pointerleave', () => {
      this.hoverHex = null;
      this.onHexHover(null);
    });
    this.svg.addEventListener('pointerup', (e) => {
      const wasDrag = drag && drag.moved;
      drag = null;
      if (wasDrag) return;
      const hex = hexFromEvent(e);
      if (hex !== null) this.onHexClick(hex);
    });
    this.svg.addEventListener(
      'wheel',
      (e) => {
        if (!e.ctrlKey && !e.metaKey && !e.altKey && this.zoom === 1 && e.deltaY > 0) return;
        e.preventDefault();
        this.setZoom(this.zoom * (e.deltaY < 0 ? 1.2 : 1 / 1.2));
      },
      { passive: false },
    );
  }

  unitsPerPixel() {
    const rect = this.svg.getBoundingClientRect();
    if (!this.bounds || rect.width === 0) return 1;
    const vbW = this.bounds.w / this.zoom;
    const vbH = this.bounds.h / this.zoom;
    return Math.max(vbW / rect.width, vbH / rect.height);
  }

  setZoom(zoom) {
    this.zoom = Math.min(4, Math.max(1, zoom));
    if (this.zoom === 1) this.pan = { x: 0, y: 0 };
    this.applyViewBox();
  }

  applyViewBox() {
    if (!this.bounds) return;
    const b = this.bounds;
    const w = b.w / this.zoom;
    const hgt = b.h / this.zoom;
    const maxPanX = (b.w - w) / 2;
    const maxPanY = (b.h - hgt) / 2;
    this.pan.x = Math.max(-maxPanX, Math.min(maxPanX, this.pan.x));
    this.pan.y = Math.max(-maxPanY, Math.min(maxPanY, this.pan.y));
    const x = b.x + (b.w - w) / 2 + this.pan.x;
    const y = b.y + (b.h - hgt) / 2 + this.pan.y;
    this.svg.setAttribute('viewBox', `${x.toFixed(1)} ${y.toFixed(1)} ${w.toFixed(1)} ${hgt.toFixed(1)}`);
    // Zoomed in, a finger drag pans the map; at full view it scrolls the page as usual.
    this.svg.style.touchAction = this.zoom > 1 ? 'none' : 'manipulation';
  }

  setShowCoords(on) {
    this.showCoords = on;
    if (this.view) this.drawCoords();
  }

  // scene: {highlights: Map(hex -> kind), selectedHex, selectedUnit, actionable: Set(hex),
  //         moves: [{from, to, owner, kind?: "bombard", last?: bool}], battleHex, pendingBattles: [hex],
  //         cargoReady: Set(frigate unit id) whose cargo can land now,
  //         catchUp: {moves: [{from, to, owner, n, kind?}], battles: [{hex, n}]} or null}
  render(view, scene = {}) {
    const firstDraw = !this.view || this.view.hexes.length !== view.hexes.length;
    this.view = view;
    this.scene = scene;
    this.centers = new Map();
    for (const hx of view.hexes) this.centers.set(hx.hex, hexCenter(hx.q, hx.r));
    if (firstDraw) this.computeBounds();
    this.drawTiles();
    this.drawMarks();
    this.drawPieces();
    drawFog(this);
    this.drawHighlights();
    this.drawCatchUp();
    this.drawCoords();
    this.drawHits(firstDraw);
    this.drawFlash();
  }

  computeBounds() {
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (const { x, y } of this.centers.values()) {
      minX = Math.min(minX, x);
      maxX = Math.max(maxX, x);
      minY = Math.min(minY, y);
      maxY = Math.max(maxY, y);
    }
    const padX = HEX_SIZE * SQRT3 * 0.5 + 4;
    const padY = HEX_SIZE + 4;
    this.bounds = {
      x: minX - padX,
      y: minY - padY,
      w: maxX - minX + 2 * padX,
      h: maxY - minY + 2 * padY,
    };
    this.zoom = 1;
    this.pan = { x: 0, y: 0 };
    this.applyViewBox();
    this.updateCounterScale();
  }

  drawTiles() {
    const layer = this.layers.tiles;
    layer.replaceChildren();
    for (const hx of this.view.hexes) {
      const { x, y } = this.centers.get(hx.hex);
      const known = !!hx.known && typeof hx.terrain === 'string';
      const attrs = {
        class: `hex ${known ? `terrain-${hx.terrain}` : 'unknown'}${hx.perimeter ? ' perimeter' : ''}`,
        dataset: { hex: hx.hex, label: hx.label, known: known ? '1' : '0' },
      };
      if (known) attrs.dataset.terrain = hx.terrain;
      const g = s('g', attrs);
      const fill = known ? `url(#tex-${hx.terrain})` : 'url(#tex-unknown)';
      g.append(s('polygon', { class: 'tile', points: hexPoints(x, y, HEX_SIZE - 0.6), fill }));
      if (known) g.append(terrainGlyphs(hx.terrain, x, y, hx.perimeter));
      else g.append(s('polygon', { class: 'tile-back-inner', points: hexPoints(x, y, HEX_SIZE * 0.72) }));
      layer.append(g);
    }
  }

  // The overlays (board_overlays.js).
  drawMarks() {
    drawMarks(this);
  }

  drawHighlights() {
    drawHighlights(this);
  }

  drawCatchUp() {
    drawCatchUp(this);
  }

  // Hexes to point out for a moment (e.g. the hexes a log line names), drawn over the tiles.
  setFlash(hexes) {
    setFlash(this, hexes);
  }

  drawFlash() {
    drawFlash(this);
  }

  drawPieces() {
    const layer = this.layers.pieces;
    layer.replaceChildren();
    const view = this.view;
    const scene = this.scene;
    const byHex = new Map();
    for (const unit of view.units) {
      if (unit.place !== 'map' || unit.hex < 0) continue;
      if (!byHex.has(unit.hex)) byHex.set(unit.hex, []);
      byHex.get(unit.hex).push(unit);
    }
    for (const hx of view.hexes) {
      const { x, y } = this.centers.get(hx.hex);
      const hasTown = hx.town_owner !== undefined && hx.town_owner !== null && hx.town_owner >= 0;
      const hasCapital = hx.capital_of !== undefined && hx.capital_of !== null && hx.capital_of >= 0;
      if (hasTown) layer.append(settlementGlyph(x, y - HEX_SIZE * (byHex.has(hx.hex) ? 0.4 : 0.1), hx.town_owner, !!hx.city));
      if (hasCapital) layer.append(capitalStar(x + HEX_SIZE * 0.5, y - HEX_SIZE * 0.42, hx.capital_of));
      // A Vassal's Towns and Cities [15.61] carry a small badge in his Ruler's colour.
      const vassal = hasTown && view.players[hx.town_owner] ? view.players[hx.town_owner].ruler : undefined;
      if (vassal !== undefined && vassal >= 0) layer.append(vassalBadge(x + HEX_SIZE * 0.5, y - HEX_SIZE * 0.12, vassal));
      const units = byHex.get(hx.hex);
      if (units) {
        layer.append(
          // Under a Town or City the stack gets the lower part of the hex.
          unitStack(units, x, y + (hasTown ? HEX_SIZE * 0.4 : 0), {
            maxHeight: hasTown ? HEX_SIZE * 1.02 : HEX_SIZE * 1.3,
            selectedUnit: scene.selectedUnit,
            actionableUnits: scene.actionableUnits,
            cargoReady: scene.cargoReady,
            scale: this.counterScale,
          }),
        );
      }
    }
  }

  drawCoords() {
    const layer = this.layers.coords;
    layer.replaceChildren();
    if (!this.showCoords) return;
    for (const hx of this.view.hexes) {
      const { x, y } = this.centers.get(hx.hex);
      layer.append(s('text', { class: 'coord', x, y: y - HEX_SIZE * 0.68, text: hx.label }));
    }
  }

  // Transparent hit areas on top, so glyphs never swallow clicks; each has a tooltip. They are
  // made once per map and then only updated, so a hex that has the keyboard focus keeps it
  // while the position changes under it.
  drawHits(rebuild) {
    const layer = this.layers.hits;
    if (rebuild || this.hitByHex.size !== this.view.hexes.length) {
      layer.replaceChildren();
      this.hitByHex = new Map();
      for (const hx of this.view.hexes) {
        const { x, y } = this.centers.get(hx.hex);
        const poly = s('polygon', {
          class: 'hit',
          points: hexPoints(x, y, HEX_SIZE),
          dataset: { hitHex: hx.hex },
        });
        if (this.keyboard) {
          poly.setAttribute('role', 'button');
          poly.setAttribute('tabindex', '-1');
        }
        poly.append(s('title'));
        layer.append(poly);
        this.hitByHex.set(hx.hex, poly);
      }
    }
    if (this.keyboard && (this.cursorHex === null || !this.hitByHex.has(this.cursorHex))) {
      this.cursorHex = this.defaultCursor();
    }
    for (const hx of this.view.hexes) {
      const poly = this.hitByHex.get(hx.hex);
      const text = this.describe ? this.describe(hx.hex) : describeHex(this.view, hx);
      poly.firstChild.textContent = text;
      if (this.keyboard) {
        poly.setAttribute('aria-label', text);
        poly.setAttribute('tabindex', hx.hex === this.cursorHex ? '0' : '-1');
      }
    }
  }

  // Where the keyboard starts: the selected hex, else a highlighted one, else the middle.
  defaultCursor() {
    const scene = this.scene || {};
    if (scene.selectedHex !== undefined && scene.selectedHex !== null && this.centers.has(scene.selectedHex)) return scene.selectedHex;
    for (const hex of (scene.highlights || new Map()).keys()) if (this.centers.has(hex)) return hex;
    for (const hex of scene.actionable || []) if (this.centers.has(hex)) return hex;
    let best = null;
    let bestD = Infinity;
    for (const hx of this.view.hexes) {
      const d = Math.abs(hx.q) + Math.abs(hx.r) + Math.abs(hx.q + hx.r);
      if (d < bestD) {
        bestD = d;
        best = hx.hex;
      }
    }
    return best;
  }

  // ------------------------------------------------------------------------------------------
  // Keyboard

  installKeyboard() {
    this.svg.addEventListener('keydown', (e) => {
      const hex = hitHexOf(e.target);
      if (hex === null) return;
      let next = null;
      switch (e.key) {
        case 'ArrowLeft': next = this.neighbourInRow(hex, -1); break;
        case 'ArrowRight': next = this.neighbourInRow(hex, 1); break;
        case 'ArrowUp': next = this.nearestInRow(hex, -1); break;
        case 'ArrowDown': next = this.nearestInRow(hex, 1); break;
        case 'Home': next = this.rowEnd(hex, -1); break;
        case 'End': next = this.rowEnd(hex, 1); break;
        case 'Enter':
        case ' ':
          e.preventDefault();
          this.onHexClick(hex, { keyboard: true });
          return;
        case '+':
        case '=':
          this.setZoom(this.zoom * 1.4);
          this.ensureVisible(hex);
          e.preventDefault();
          return;
        case '-':
          this.setZoom(this.zoom / 1.4);
          e.preventDefault();
          return;
        default:
          return;
      }
      e.preventDefault();
      if (next !== null && next !== undefined) this.focusHex(next);
    });
    this.svg.addEventListener('focusin', (e) => {
      const hex = hitHexOf(e.target);
      if (hex === null) return;
      this.setCursor(hex);
      this.onHexFocus(hex);
    });
    this.svg.addEventListener('focusout', (e) => {
      if (!this.svg.contains(e.relatedTarget)) this.onHexFocus(null);
    });
  }

  setCursor(hex) {
    if (this.cursorHex === hex) return;
    const old = this.hitByHex.get(this.cursorHex);
    if (old) old.setAttribute('tabindex', '-1');
    this.cursorHex = hex;
    const poly = this.hitByHex.get(hex);
    if (poly) poly.setAttribute('tabindex', '0');
  }

  // Moves the keyboard focus to a hex (and the map's tab stop with it).
  focusHex(hex) {
    const poly = this.hitByHex.get(hex);
    if (!poly) return false;
    this.setCursor(hex);
    this.ensureVisible(hex);
    poly.focus({ preventScroll: true });
    return true;
  }

  focusedHex() {
    return hitHexOf(document.activeElement);
  }

  hexAt(q, r) {
    if (!this.byCoord) this.byCoord = new Map();
    if (this.byCoordView !== this.view) {
      this.byCoord = new Map(this.view.hexes.map((hx) => [`${hx.q},${hx.r}`, hx.hex]));
      this.byCoordView = this.view;
    }
    const hex = this.byCoord.get(`${q},${r}`);
    return hex === undefined ? null : hex;
  }

  coordOf(hex) {
    const hx = this.view.hexes.find((x) => x.hex === hex);
    return hx ? { q: hx.q, r: hx.r } : null;
  }

  neighbourInRow(hex, dir) {
    const c = this.coordOf(hex);
    return c ? this.hexAt(c.q + dir, c.r) : null;
  }

  rowEnd(hex, dir) {
    let cur = hex;
    for (;;) {
      const next = this.neighbourInRow(cur, dir);
      if (next === null) return cur;
      cur = next;
    }
  }

  // Up and down: the hex of the next row whose centre is nearest (rows are offset by half a
  // hex, so this alternates between the two neighbours above or below).
  nearestInRow(hex, dir) {
    const c = this.coordOf(hex);
    if (!c) return null;
    const from = this.centers.get(hex);
    let best = null;
    let bestD = Infinity;
    for (const hx of this.view.hexes) {
      if (hx.r !== c.r + dir) continue;
      const d = Math.abs(this.centers.get(hx.hex).x - from.x);
      if (d < bestD - 0.01) {
        bestD = d;
        best = hx.hex;
      }
    }
    return best;
  }

  // When zoomed in, pans so that the hex is on screen.
  ensureVisible(hex) {
    if (this.zoom <= 1 || !this.bounds) return;
    const c = this.centers.get(hex);
    const b = this.bounds;
    const w = b.w / this.zoom;
    const hgt = b.h / this.zoom;
    const x0 = b.x + (b.w - w) / 2 + this.pan.x;
    const y0 = b.y + (b.h - hgt) / 2 + this.pan.y;
    const margin = HEX_SIZE;
    if (c.x < x0 + margin) this.pan.x -= x0 + margin - c.x;
    if (c.x > x0 + w - margin) this.pan.x += c.x - (x0 + w - margin);
    if (c.y < y0 + margin) this.pan.y -= y0 + margin - c.y;
    if (c.y > y0 + hgt - margin) this.pan.y += c.y - (y0 + hgt - margin);
    this.applyViewBox();
  }

  // Screen position of a hex centre (for tests and popovers).
  hexScreenPoint(hex) {
    const c = this.centers && this.centers.get(hex);
    if (!c) return null;
    const pt = this.svg.createSVGPoint();
    pt.x = c.x;
    pt.y = c.y;
    const m = this.svg.getScreenCTM();
    if (!m) return null;
    const out = pt.matrixTransform(m);
    return { x: out.x, y: out.y };
  }
}

function hitHexOf(node) {
  return node && node.dataset && node.dataset.hitHex !== undefined ? Number(node.dataset.hitHex) : null;
}

function hexFromEvent(e) {
  const target = document.elementFromPoint(e.clientX, e.clientY);
  const hit = target && target.closest ? target.closest('[data-hit-hex]') : null;
  return hit ? Number(hit.dataset.hitHex) : null;
}

// One line about a hex: label, terrain (if known), settlement, units. Used for tooltips.
export function describeHex(view, hx) {
  const parts = [hx.label];
  if (hx.known && hx.terrain) parts.push(TERRAIN_NAME[hx.terrain] || hx.terrain);
  else parts.push(t('selection.unexplored'));
  if (hx.town_owner !== undefined && hx.town_owner >= 0) {
    const seat = seatStyle(hx.town_owner).name;
    parts.push(hx.city ? t('board.seatCity', { seat }) : t('board.seatTown', { seat }));
  }
  if (hx.capital_of !== undefined && hx.capital_of >= 0) {
    parts.push(t('board.seatCapital', { seat: seatStyle(hx.capital_of).name }));
  }
  const counts = new Map();
  for (const u of view.units) {
    if (u.place !== 'map' || u.hex !== hx.hex) continue;
    const key = `${u.owner}|${u.type}|${u.carrier >= 0 ? 'aboard' : ''}`;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  for (const [key, n] of counts) {
    const [owner, type, aboard] = key.split('|');
    const params = { count: n, seat: seatStyle(Number(owner)).name, unit: UNIT_NAME[type] || type };
    parts.push(aboard ? t('board.seatUnitsAboard', params) : t('battle.seatUnits', params));
  }
  return [...parts, ...fogHexParts(view, hx)].join(' · ');
}

// ---------------------------------------------------------------------------------------------
// Pieces

function settlementGlyph(x, y, owner, city) {
  const st = seatStyle(owner);
  const g = s('g', { class: city ? 'city' : 'town', dataset: { owner } });
  if (city) {
    // A wall with two crenellated towers.
    const w = 26;
    const hgt = 12;
    const left = x - w / 2;
    const top = y - hgt / 2 + 3;
    g.append(
      s('path', {
        d: `M${left},${top + hgt} v-${hgt} h${w} v${hgt} z`,
        fill: st.fill,
        stroke: st.edge,
        'stroke-width': 1.6,
      }),
      tower(left - 1, top, st),
      tower(left + w - 8, top, st),
      s('rect', { x: x - 2.5, y: top + hgt - 6, width: 5, height: 6, fill: st.edge }),
    );
  } else {
    const w = 15;
    const hgt = 9;
    const left = x - w / 2;
    const top = y - 1;
    g.append(
      s('path', {
        d: `M${left},${top} L${x},${top - 8} L${left + w},${top} v${hgt} h-${w} z`,
        fill: st.fill,
        stroke: st.edge,
        'stroke-width': 1.6,
        'stroke-linejoin': 'round',
      }),
      s('rect', { x: x - 2, y: top + hgt - 5, width: 4, height: 5, fill: st.edge }),
    );
  }
  return g;
}

function tower(x, top, st) {
  const w = 9;
  const hgt = 18;
  const y0 = top - 6;
  return s('path', {
    d: `M${x},${y0 + hgt} v-${hgt} h2 v2.5 h2.5 v-2.5 h2 v2.5 h2.5 v-2.5 v${hgt} z`,
    fill: st.fill,
    stroke: st.edge,
    'stroke-width': 1.4,
    'stroke-linejoin': 'round',
    transform: `translate(${(w - 9) / 2},0)`,
  });
}

function vassalBadge(x, y, ruler) {
  const st = seatStyle(ruler);
  return s(
    'g',
    { class: 'vassal-badge', dataset: { ruler } },
    s('circle', { cx: x, cy: y, r: 6, fill: st.fill, stroke: st.edge, 'stroke-width': 1.2 }),
    s('text', { x, y: y + 3, 'text-anchor': 'middle', 'font-size': 8, 'font-weight': 700, fill: st.ink }, 'V'),
  );
}

function capitalStar(x, y, owner) {
  const st = seatStyle(owner);
  const pts = [];
  for (let i = 0; i < 10; i += 1) {
    const rad = i % 2 === 0 ? 7.5 : 3.2;
    const a = (Math.PI / 5) * i - Math.PI / 2;
    pts.push(`${(x + rad * Math.cos(a)).toFixed(2)},${(y + rad * Math.sin(a)).toFixed(2)}`);
  }
  return s('polygon', {
    class: 'capital-star',
    points: pts.join(' '),
    fill: st.fill,
    stroke: '#ffcf33',
    'stroke-width': 1.8,
    'stroke-linejoin': 'round',
    dataset: { capitalOf: owner },
  });
}

const COUNTER_W = 20; // one unit
const STACK_W = 29; // several: the count sits in its own box at the right, covering nothing
const COUNTER_H = 17;
const COUNTER_GAP = 2;
const CARGO_H = 9;
const TYPE_ORDER = { infantry: 0, cavalry: 1, artillery: 2, frigate: 3 };

// Units on one hex grouped by owner and type: one counter per group, with the number of units
// inside it when there are several. Cargo is written under its Frigate. Crowded hexes (a
// battle of many kinds) draw their counters smaller so they stay inside the hex.
function unitStack(units, cx, cy, { selectedUnit, actionableUnits, cargoReady, scale: wanted = 1, maxHeight }) {
  const cargoOf = new Map();
  const groups = new Map();
  for (const u of units) {
    if (u.carrier !== undefined && u.carrier >= 0) {
      if (!cargoOf.has(u.carrier)) cargoOf.set(u.carrier, []);
      cargoOf.get(u.carrier).push(u);
      continue;
    }
    // Frigates are drawn one by one because each carries its own cargo.
    const key = u.type === 'frigate' ? `${u.owner}:frigate:${u.id}` : `${u.owner}:${u.type}`;
    if (!groups.has(key)) groups.set(key, { owner: u.owner, type: u.type, units: [] });
    groups.get(key).units.push(u);
  }
  const list = [...groups.values()].sort(
    (a, b) => a.owner - b.owner || TYPE_ORDER[a.type] - TYPE_ORDER[b.type],
  );
  const perRow = list.length <= 4 ? 2 : list.length <= 6 ? 3 : 4;
  const rows = [];
  for (let i = 0; i < list.length; i += perRow) rows.push(list.slice(i, i + perRow));
  const rowHeight = (row) => COUNTER_H + (row.some((gr) => gr.type === 'frigate' && (cargoOf.get(gr.units[0].id) || []).length) ? CARGO_H : 0);
  const rowWidth = (row) => row.reduce((w, gr) => w + (gr.units.length > 1 ? STACK_W : COUNTER_W), 0) + COUNTER_GAP * (row.length - 1);
  const totalH = rows.reduce((sum, row) => sum + rowHeight(row), 0) + COUNTER_GAP * (rows.length - 1);
  // As large as wanted, as long as the stack stays inside its hex.
  const scale = Math.min(wanted, (HEX_SIZE * 1.62) / Math.max(...rows.map(rowWidth)), maxHeight / totalH);
  const g = s('g', { class: 'stack' });
  const inner = s('g', { transform: `translate(${cx},${cy}) scale(${scale})` });
  let y = -totalH / 2;
  for (const row of rows) {
    const widths = row.map((gr) => (gr.units.length > 1 ? STACK_W : COUNTER_W));
    const rowW = rowWidth(row);
    let x = -rowW / 2;
    row.forEach((group, k) => {
      const cargo = group.type === 'frigate' ? cargoOf.get(group.units[0].id) || [] : [];
      const selected = group.units.some((u) => u.id === selectedUnit);
      const actionable = actionableUnits && group.units.some((u) => actionableUnits.has(u.id));
      const ready = group.type === 'frigate' && cargoReady && cargoReady.has(group.units[0].id);
      inner.append(counter(x, y, widths[k], group, cargo, selected, actionable, ready));
      x += widths[k] + COUNTER_GAP;
    });
    y += rowHeight(row) + COUNTER_GAP;
  }
  g.append(inner);
  return g;
}

export function unitGroupName(group) {
  return t('board.unitGroup', { count: group.units.length, seat: seatStyle(group.owner).name, unit: UNIT_NAME[group.type] || group.type });
}

function counter(x, y, w, group, cargo, selected, actionable, cargoReady) {
  const st = seatStyle(group.owner);
  const letter = UNIT_LETTER[group.type] || '?';
  const count = group.units.length;
  const cls = `unit unit-${group.type}${selected ? ' selected' : ''}${actionable ? ' ready' : ''}`;
  const cargoText = cargo.length ? t('board.carrying', { cargo: cargo.map((u) => UNIT_NAME[u.type]).join(', ') }) : '';
  const g = s('g', {
    class: cls,
    role: 'img',
    'aria-label': `${unitGroupName(group)}${cargoText}`,
    dataset: { owner: group.owner, type: group.type, count, units: group.units.map((u) => u.id).join(',') },
  });
  if (group.type === 'frigate') {
    // A hull shape so Frigates read as ships even without colour.
    g.append(
      s('path', {
        class: 'counter',
        d: `M${x - 1},${y + 4} h${w + 2} l-3.5,${COUNTER_H - 4} h-${w - 5} z`,
        fill: st.fill,
        stroke: st.edge,
      }),
      s('path', { d: `M${x + 10},${y + 4} v-6 l5,4 z`, fill: st.edge }),
    );
  } else {
    g.append(s('rect', { class: 'counter', x, y, width: w, height: COUNTER_H, rx: 2.6, fill: st.fill, stroke: st.edge }));
  }
  g.append(
    s('text', {
      class: 'unit-letter',
      x: x + 10,
      y: y + COUNTER_H / 2 + (group.type === 'frigate' ? 2.6 : 0.5),
      fill: st.ink,
      text: letter,
    }),
  );
  if (count > 1) {
    g.append(
      s('rect', { class: 'count-box', x: x + 18.5, y: y + 3, width: 8.5, height: COUNTER_H - 6, rx: 2 }),
      s('text', { class: 'count-text', x: x + 22.75, y: y + COUNTER_H / 2 + 0.3, text: count }),
    );
  }
  if (cargo.length > 0) {
    const letters = cargo
      .slice()
      .sort((a, b) => TYPE_ORDER[a.type] - TYPE_ORDER[b.type])
      .map((u) => UNIT_LETTER[u.type])
      .join('');
    const bw = 6 + letters.length * 6.5 + (cargoReady ? 8 : 0);
    const bx = x + w / 2 - bw / 2;
    g.append(
      s('rect', {
        class: `cargo-box${cargoReady ? ' cargo-ready' : ''}`,
        x: bx,
        y: y + COUNTER_H + 0.5,
        width: bw,
        height: CARGO_H,
        rx: 2.5,
        fill: st.fill,
        stroke: st.edge,
      }),
      s('text', {
        class: 'cargo-text',
        x: bx + 3 + (letters.length * 6.5) / 2,
        y: y + COUNTER_H + 0.5 + CARGO_H / 2 + 0.3,
        fill: st.ink,
        text: letters,
      }),
    );
    if (cargoReady) {
      // A small down-arrow: this cargo can land now.
      const ax = bx + bw - 6;
      const ay = y + COUNTER_H + 0.5 + CARGO_H / 2;
      g.append(s('path', { class: 'cargo-land', d: `M${ax},${ay - 3} v5.5 M${ax - 2.5},${ay} l2.5,2.5 l2.5,-2.5` }));
    }
  }
  return g;
}

// ---------------------------------------------------------------------------------------------
// Terrain

function terrainGlyphs(terrain, x, y, perimeter) {
  const g = s('g', { class: 'glyphs', 'aria-hidden': 'true' });
  const S = HEX_SIZE;
  if (terrain === 'forest') {
    for (const [dx, dy, k] of [[-0.5, 0.28, 1], [-0.22, 0.5, 0.85], [0.5, 0.3, 0.95], [0.25, 0.52, 0.8], [-0.6, -0.12, 0.7]]) {
      g.append(tree(x + dx * S, y + dy * S, k));
    }
  } else if (terrain === 'mountain') {
    g.append(peak(x - 0.38 * S, y + 0.5 * S, 1), peak(x + 0.36 * S, y + 0.52 * S, 0.85), peak(x - 0.62 * S, y + 0.05 * S, 0.6));
  } else if (terrain === 'grassland') {
    for (const [dx, dy] of [[-0.55, 0.3], [0.45, 0.45], [-0.15, 0.6], [0.6, 0.0], [-0.6, -0.2]]) {
      const gx = x + dx * S;
      const gy = y + dy * S;
      g.append(s('path', { class: 'tuft', d: `M${gx - 3},${gy - 4} L${gx},${gy} L${gx + 3},${gy - 4} M${gx},${gy} v-5` }));
    }
  } else if (terrain === 'plains') {
    for (const [dx, dy] of [[-0.5, 0.4], [0.4, 0.5], [0.55, 0.05], [-0.6, -0.05]]) {
      const px = x + dx * S;
      const py = y + dy * S;
      g.append(s('path', { class: 'furrow', d: `M${px - 5},${py} h10 M${px - 3},${py - 3} h6` }));
    }
  } else if (terrain === 'water') {
    const rows = perimeter ? [[-0.35, 0.35], [0.3, 0.5], [0, -0.05]] : [[-0.35, 0.4], [0.3, 0.55], [0.1, -0.1]];
    for (const [dx, dy] of rows) {
      const wx = x + dx * S;
      const wy = y + dy * S;
      g.append(s('path', { class: 'wave', d: `M${wx - 7},${wy} q3.5,-3.5 7,0 t7,0` }));
    }
  }
  return g;
}

function tree(x, y, k) {
  return s(
    'g',
    { class: 'tree' },
    s('rect', { x: x - 1, y: y - 1, width: 2, height: 4 * k, fill: '#4a3320' }),
    s('path', { d: `M${x},${y - 11 * k} L${x + 5.5 * k},${y} L${x - 5.5 * k},${y} z`, fill: '#153d1b', stroke: '#0b2410', 'stroke-width': 0.6 }),
  );
}

function peak(x, y, k) {
  const w = 9 * k;
  const hgt = 12 * k;
  return s(
    'g',
    { class: 'peak' },
    s('path', { d: `M${x - w},${y} L${x},${y - hgt} L${x + w},${y} z`, fill: '#6b5a49', stroke: '#3d3126', 'stroke-width': 0.8 }),
    s('path', { d: `M${x - w * 0.33},${y - hgt * 0.67} L${x},${y - hgt} L${x + w * 0.33},${y - hgt * 0.67} l-${w * 0.16},${hgt * 0.12} z`, fill: '#f4f1ea' }),
  );
}

// ---------------------------------------------------------------------------------------------
// Textures

function makeDefs() {
  const defs = s('defs');
  const solid = {
    water: '#3f88cf',
    plains: '#f1e3a0',
    grassland: '#8fd16c',
    forest: '#2f7a3a',
    mountain: '#9d8b76',
  };
  for (const [name, color] of Object.entries(solid)) {
    // A gentle radial shading makes neighbouring tiles of one terrain still read as tiles.
    const grad = s('radialGradient', { id: `tex-${name}`, cx: '50%', cy: '45%', r: '65%' });
    grad.append(
      s('stop', { offset: '0%', 'stop-color': lighten(color, 0.12) }),
      s('stop', { offset: '100%', 'stop-color': color }),
    );
    defs.append(grad);
  }
  // The back of a face-down tile: a neutral diamond lattice, the same for every tile.
  const back = s('pattern', { id: 'tex-unknown', width: 10, height: 10, patternUnits: 'userSpaceOnUse', patternTransform: 'rotate(45)' });
  back.append(
    s('rect', { width: 10, height: 10, fill: '#6d6457' }),
    s('path', { d: 'M0,0 h10 M0,0 v10', stroke: '#82796b', 'stroke-width': 2 }),
  );
  defs.append(back);
  const head = s('marker', { id: 'trail-head', viewBox: '0 0 10 10', refX: 5, refY: 5, markerWidth: 4, markerHeight: 4, orient: 'auto-start-reverse' });
  head.append(s('path', { d: 'M0,0 L10,5 L0,10 z', fill: 'context-stroke' }));
  defs.append(head);
  return defs;
}

function lighten(hex, amount) {
  const n = parseInt(hex.slice(1), 16);
  const mix = (c) => Math.round(c + (255 - c) * amount);
  const r = mix((n >> 16) & 255);
  const gr = mix((n >> 8) & 255);
  const b = mix(n & 255);
  return `#${((r << 16) | (gr << 8) | b).toString(16).padStart(6, '0')}`;
}

// ---------------------------------------------------------------------------------------------
// Dice

// An inline SVG row of dice faces; hits (3 or less [10.1]) are red, a '1' (tactical victory)
// also carries a gold ring. `hitLimit` comes from the caller; the board itself decides nothing.
export function diceRow(values, { hitLimit = 3 } = {}) {
  const size = 26;
  const gap = 6;
  const svg = s('svg', {
    class: 'dice',
    width: Math.max(1, values.length) * (size + gap),
    height: size + 4,
    viewBox: `0 0 ${Math.max(1, values.length) * (size + gap)} ${size + 4}`,
    role: 'img',
    'aria-label': t('board.dice', { values: values.join(', ') }),
  });
  values.forEach((value, i) => {
    const x = i * (size + gap) + 2;
    const hit = value <= hitLimit;
    const g = s('g', { class: `die${hit ? ' hit' : ''}${value === 1 ? ' tactical' : ''}`, dataset: { value } });
    g.append(s('rect', { x, y: 2, width: size, height: size, rx: 5, class: 'die-face' }));
    for (const [px, py] of PIPS[value] || []) {
      g.append(s('circle', { cx: x + px * size, cy: 2 + py * size, r: size * 0.09, class: 'pip' }));
    }
    g.append(s('title', { text: hit ? (value === 1 ? t('board.dieTactical', { value }) : t('board.dieHit', { value })) : t('board.dieMiss', { value }) }));
    svg.append(g);
  });
  return svg;
}

const PIPS = {
  1: [[0.5, 0.5]],
  2: [[0.28, 0.28], [0.72, 0.72]],
  3: [[0.26, 0.26], [0.5, 0.5], [0.74, 0.74]],
  4: [[0.28, 0.28], [0.72, 0.28], [0.28, 0.72], [0.72, 0.72]],
  5: [[0.26, 0.26], [0.74, 0.26], [0.5, 0.5], [0.26, 0.74], [0.74, 0.74]],
  6: [[0.28, 0.24], [0.72, 0.24], [0.28, 0.5], [0.72, 0.5], [0.28, 0.76], [0.72, 0.76]],
};
