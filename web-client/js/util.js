// Small helpers shared by the UI modules: DOM construction (text always via textContent, never
// innerHTML, so names and chat can never inject markup), names and colours of game things.

import { t, formatNumber, formatRelative } from './i18n.js';

const SVG_NS = 'http://www.w3.org/2000/svg';

// h('div', {class: 'x', onclick: fn}, 'text', child, ...) -> HTMLElement.
// Strings become text nodes; null/false children are skipped; arrays are flattened.
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  applyAttrs(node, attrs);
  appendChildren(node, children);
  return node;
}

// Same for SVG elements.
export function s(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  applyAttrs(node, attrs);
  appendChildren(node, children);
  return node;
}

function applyAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') {
      node.addEventListener(key.slice(2), value);
    } else if (key === 'text') {
      node.textContent = String(value);
    } else if (key === 'dataset') {
      for (const [k, v] of Object.entries(value)) node.dataset[k] = String(v);
    } else if (value === true) {
      node.setAttribute(key, '');
    } else {
      node.setAttribute(key, String(value));
    }
  }
}

function appendChildren(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
}

// A translated text whose placeholders are elements: fillIn(t('battle.attacks'), { attacker:
// node, defender: node }) -> [node, ' attacks ', node], for h(). Placeholders not in
// `parts` stay as they are.
export function fillIn(text, parts) {
  return String(text)
    .split(/(\{\w+\})/)
    .map((piece) => {
      const m = /^\{(\w+)\}$/.exec(piece);
      return m && m[1] in parts ? parts[m[1]] : piece;
    })
    .filter((piece) => piece !== '');
}

// Seat colours of the boxed game, in seat order [4.0]. `ink` is the text colour that reads
// on the fill; `name` is what the UI writes next to the swatch (never colour alone).
export const SEATS = [
  { name: t('seat.red'), fill: '#d1343f', ink: '#ffffff', edge: '#5e0f16' },
  { name: t('seat.yellow'), fill: '#f3c623', ink: '#1d1d1d', edge: '#6b5200' },
  { name: t('seat.blue'), fill: '#2f6fd6', ink: '#ffffff', edge: '#0d2c61' },
  { name: t('seat.green'), fill: '#23a04f', ink: '#ffffff', edge: '#0b3d1d' },
  { name: t('seat.white'), fill: '#f7f7f2', ink: '#1d1d1d', edge: '#55554f' },
  { name: t('seat.black'), fill: '#2a2a2a', ink: '#ffffff', edge: '#000000' },
  // Seats 7 and 8 (GamesByEmail's 7-8 player games; docs/rules-notes.md, "7 and 8 players").
  { name: t('seat.orange'), fill: '#ee7d22', ink: '#1d1d1d', edge: '#6e3100' },
  { name: t('seat.purple'), fill: '#8340b8', ink: '#ffffff', edge: '#33104f' },
];

// Player counts a game may have (the rules' 2..6, and 7 or 8 as GamesByEmail allows).
export const PLAYER_COUNTS = [2, 3, 4, 5, 6, 7, 8];

export function seatStyle(seat) {
  return SEATS[seat] || { name: t('seat.number', { n: seat + 1 }), fill: '#999', ink: '#000', edge: '#333' };
}

export const UNIT_TYPES = ['infantry', 'cavalry', 'artillery', 'frigate'];
export const UNIT_LETTER = { infantry: 'I', cavalry: 'C', artillery: 'A', frigate: 'F' };
export const UNIT_NAME = {
  infantry: t('unit.infantry'),
  cavalry: t('unit.cavalry'),
  artillery: t('unit.artillery'),
  frigate: t('unit.frigate'),
};
// "2 Infantry", "1 Frigate", "3 Frigates": a number of units of one type, in the language's
// plural ("2 Fregatten").
const UNIT_COUNT = {
  infantry: (n) => t('unit.infantryCount', { count: n }),
  cavalry: (n) => t('unit.cavalryCount', { count: n }),
  artillery: (n) => t('unit.artilleryCount', { count: n }),
  frigate: (n) => t('unit.frigateCount', { count: n }),
};
export function unitCount(type, n) {
  return UNIT_COUNT[type] ? UNIT_COUNT[type](n) : `${formatNumber(n)} ${type}`;
}
export const TERRAIN_NAME = {
  water: t('terrain.water'),
  plains: t('terrain.plains'),
  grassland: t('terrain.grassland'),
  forest: t('terrain.forest'),
  mountain: t('terrain.mountain'),
};
export const PHASE_NAME = {
  setup: t('phase.setup'),
  build: t('phase.build'),
  movement: t('phase.movement'),
  reserve: t('phase.reserve'),
  game_over: t('phase.gameOver'),
};
export const VICTORY_NAME = {
  standard: t('victory.standard'),
  shorter: t('victory.shorter'),
  race: t('victory.race'),
  doomsday: t('victory.doomsday'),
  subjugation: t('victory.subjugation'),
};
export const TILE_MIX_NAME = {
  standard: t('tileMix.standard'),
  land_rich: t('tileMix.landRich'),
  islands: t('tileMix.islands'),
};

// A touch screen without a mouse (a phone, a tablet): texts say "tap" where they would say
// "click", and leave out the keyboard.
export function touchScreen() {
  return typeof matchMedia === 'function' && matchMedia('(hover: none) and (pointer: coarse)').matches;
}

// "3 minutes ago", "vor 3 Minuten": a timestamp's age in the page's language (ISO string, seconds or milliseconds).
export function timeAgo(at) {
  if (at === undefined || at === null || at === '') return '';
  let ms;
  if (typeof at === 'number') ms = at < 1e12 ? at * 1000 : at;
  else ms = Date.parse(at);
  if (!Number.isFinite(ms)) return '';
  const sec = Math.max(0, Math.round((Date.now() - ms) / 1000));
  if (sec < 60) return t('time.justNow');
  if (sec < 3600) return formatRelative(-Math.floor(sec / 60), 'minute');
  if (sec < 86400) return formatRelative(-Math.floor(sec / 3600), 'hour');
  return formatRelative(-Math.floor(sec / 86400), 'day');
}

// A short-lived message at the bottom of the screen (errors, confirmations).
export function toast(message, kind = 'info') {
  let box = document.getElementById('toasts');
  if (!box) {
    box = h('div', { id: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.append(box);
  }
  const item = h('div', { class: `toast toast-${kind}` }, message);
  box.append(item);
  setTimeout(() => item.classList.add('fade'), 4000);
  setTimeout(() => item.remove(), 4600);
}

// How to scroll something into view: at once for players who asked their system for reduced
// motion, smoothly for the others.
export function scrollBehavior() {
  return window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches ? 'auto' : 'smooth';
}
