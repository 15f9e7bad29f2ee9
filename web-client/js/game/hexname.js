// The name of a hex for screen readers, tooltips and the line under the map, from this
// player's point of view: "C4, Forest, your City, 2 Infantry; Bob (Blue): 1 Cavalry. Move here".

import { HIGHLIGHT_STYLE } from '../board.js';
import { seatStyle, unitCount, TERRAIN_NAME } from '../util.js';
import { t } from '../i18n.js';
import { fogHexParts } from '../fog.js';

function unitCounts(units) {
  const counts = new Map();
  for (const u of units) {
    const key = `${u.type}${u.carrier >= 0 ? ' aboard' : ''}`;
    counts.set(key, (counts.get(key) || 0) + 1);
  }
  return [...counts].map(([key, n]) => {
    const [type, aboard] = key.split(' ');
    return aboard ? t('hexName.aboard', { units: unitCount(type, n) }) : unitCount(type, n);
  });
}

export function hexName(page, hex, highlight) {
  const view = page.view;
  const hx = page.hexInfo(hex);
  if (!hx) return '';
  const me = page.mySeat;
  const parts = [hx.label, hx.known && hx.terrain ? TERRAIN_NAME[hx.terrain] || hx.terrain : t('selection.unexplored')];
  if (hx.town_owner !== undefined && hx.town_owner >= 0) {
    const owner = { name: page.playerName(hx.town_owner), seat: seatStyle(hx.town_owner).name };
    if (hx.town_owner === me) parts.push(hx.city ? t('hexName.yourCity') : t('hexName.yourTown'));
    else parts.push(hx.city ? t('hexName.cityOf', owner) : t('hexName.townOf', owner));
  }
  const townOwner = hx.town_owner !== undefined && hx.town_owner >= 0 ? view.players[hx.town_owner] : null;
  if (hx.capital_of !== undefined && hx.capital_of >= 0) {
    parts.push(hx.capital_of === me ? t('hexName.yourCapital') : t('selection.capitalOf', { name: page.playerName(hx.capital_of) }));
  }
  if (townOwner && townOwner.ruler >= 0) {
    const ruler = page.playerName(townOwner.ruler);
    parts.push(hx.town_owner === me ? t('hexName.youAreVassalOf', { ruler }) : townOwner.ruler === me ? t('hexName.vassalOfYou') : t('hexName.vassalOf', { ruler }));
  }
  const here = view.units.filter((u) => u.place === 'map' && u.hex === hex);
  const owners = [...new Set(here.map((u) => u.owner))].sort((a, b) => (a === me ? -1 : b === me ? 1 : a - b));
  let text = parts.join(', ');
  owners.forEach((owner, i) => {
    const counts = unitCounts(here.filter((u) => u.owner === owner)).join(', ');
    text += owner === me && i === 0 ? `, ${counts}` : `; ${page.playerName(owner)} (${seatStyle(owner).name}): ${counts}`;
  });
  for (const part of fogHexParts(view, hx, (seat) => `${page.playerName(seat)} (${seatStyle(seat).name})`)) text += `; ${part}`;
  if ((view.pending_battles || []).includes(hex)) text += `; ${t('hexName.battleToFight')}`;
  if (highlight && HIGHLIGHT_STYLE[highlight] && HIGHLIGHT_STYLE[highlight].text) text += `. ${HIGHLIGHT_STYLE[highlight].text}`;
  else if (page.ui.selectedHex === hex) text += `. ${t('hexName.selected')}`;
  return text;
}
