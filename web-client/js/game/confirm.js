// Confirmations before actions that cannot be taken back. The server lets a player undo his
// last actions until one of them reveals a tile or rolls a die (docs/protocol.md, Undo); an
// action that does either is asked about first, so that a slip of the mouse costs nothing.
//
// Whether an action rolls dice follows from its kind (bombard [11.0], start_battle [12.3]).
// Whether it reveals tiles is read from the view: the hexes around its target that are still
// face down for this player, within the reach the rules give it (a new Town turns over its
// neighbours, a new City the hexes two away [7.3]; a unit entering a hex its neighbours
// [9.2]). This only chooses the words of a question: the server decides what happens.

import { h, UNIT_NAME } from '../util.js';
import { t } from '../i18n.js';
import { modal } from '../dialogs.js';
import { settings } from '../settings.js';

const REVEAL_REACH = { build_town: 1, upgrade_city: 2, move: 1, disembark: 1, place_reserve: 1 };

function distance(a, b) {
  return (Math.abs(a.q - b.q) + Math.abs(a.r - b.r) + Math.abs(a.q + a.r - b.q - b.r)) / 2;
}

// Face-down hexes (for this viewer) within `reach` of `hex`.
export function faceDownAround(view, hex, reach) {
  const centre = view.hexes.find((x) => x.hex === hex);
  if (!centre) return [];
  return view.hexes.filter((x) => !x.known && x.hex !== hex && distance(x, centre) <= reach).map((x) => x.hex);
}

// {title, text, ok} for an action that seals the turn, or null when it can still be undone.
export function sealingQuestion(page, action) {
  const units = page.unitsById();
  const u = action.unit !== undefined ? units.get(action.unit) : null;
  const name = u ? UNIT_NAME[u.type] : '';
  const at = (hex) => page.label(hex);
  const noUndo = t('confirm.noUndo');
  switch (action.kind) {
    case 'bombard':
      return { sealing: true, title: t('confirm.bombardTitle', { hex: at(action.hex) }), text: `${t('confirm.bombardText', { unit: name, hex: at(action.hex) })} ${noUndo}`, ok: t('confirm.bombard') };
    case 'start_battle':
      return { sealing: true, title: t('confirm.battleTitle', { hex: at(action.hex) }), text: `${t('confirm.battleText')} ${noUndo}`, ok: t('confirm.fight') };
    case 'build_town':
    case 'upgrade_city': {
      const hidden = faceDownAround(page.view, action.hex, REVEAL_REACH[action.kind]);
      if (!hidden.length) return null;
      const what = action.kind === 'build_town' ? t('confirm.buildTitle', { hex: at(action.hex) }) : t('confirm.upgradeTitle', { hex: at(action.hex) });
      return { sealing: true, title: what, text: `${t('confirm.turnsOver', { count: hidden.length })} ${noUndo}`, ok: action.kind === 'build_town' ? t('confirm.build') : t('confirm.upgrade'), reveals: hidden };
    }
    case 'move':
    case 'disembark':
    case 'place_reserve': {
      const hidden = faceDownAround(page.view, action.hex, REVEAL_REACH[action.kind]);
      if (!hidden.length) return null;
      const who = action.kind === 'place_reserve' ? UNIT_NAME[action.unit_type] : name;
      const params = { unit: who, hex: at(action.hex) };
      const title = { move: () => t('confirm.moveTitle', params), disembark: () => t('confirm.landTitle', params), place_reserve: () => t('confirm.placeTitle', params) }[action.kind]();
      const ok = { move: () => t('confirm.move'), disembark: () => t('confirm.land'), place_reserve: () => t('confirm.place') }[action.kind]();
      return { sealing: false, title, text: `${t('confirm.explores', { count: hidden.length })} ${noUndo}`, ok, reveals: hidden };
    }
    default:
      return null;
  }
}

// Asks before a sealing action when the player wants to be asked. Resolves true to go on.
export async function confirmIfSealing(page, action) {
  const q = sealingQuestion(page, action);
  if (!q) return true;
  const setting = q.sealing ? 'confirmSealing' : 'confirmExploring';
  if (!settings.get(setting)) return true;
  page.ui.previewHex = action.hex;
  page.renderBoard();
  // The tiles that would turn over are outlined while the question is open.
  if (q.reveals) page.board.setFlash(q.reveals);
  const stop = h('input', { type: 'checkbox', id: 'confirm-stop-asking' });
  const answer = await modal({
    title: q.title,
    body: [
      h('p', {}, q.text),
      h('label', { class: 'check', for: 'confirm-stop-asking' }, stop, h('span', {}, q.sealing ? t('confirm.stopAskingSealing') : t('confirm.stopAskingExploring'))),
    ],
    buttons: [
      { label: t('dialog.cancel'), value: false, kind: 'plain' },
      { label: q.ok, value: true, kind: 'primary' },
    ],
    className: 'confirm-sealing',
  });
  page.ui.previewHex = null;
  page.board.setFlash(null);
  if (answer === true && stop.checked) settings.set(setting, false);
  if (answer !== true) page.renderBoard();
  return answer === true;
}
