// Before an attack: each side's dice and the odds, asked of the server (game.preview_battle,
// answered from this seat's own view: docs/protocol.md). Shown in the battle panel while the
// player points at (or focuses) a hex where his selected unit would fight, or a Fight button.

import { h } from '../util.js';
import { FIRE_TEXT, sourcesText } from './fire.js';

const DEBOUNCE_MS = 120;

// Asks for the preview of an attack on `hex` by `units` (ids; the player's units already on
// the hex join them on the server). Answers are kept per position, so pointing back and forth
// costs nothing.
export function wantPreview(page, hex, units = []) {
  if (page.mySeat === null || !page.state) return;
  const key = `${page.state.seq}|${hex}|${units.slice().sort((a, b) => a - b).join(',')}`;
  page.previews = page.previews || new Map();
  if (page.previewWanted === key) return;
  page.previewWanted = key;
  clearTimeout(page.previewTimer);
  if (page.previews.has(key)) {
    page.preview = page.previews.get(key);
    page.renderBattlePanel();
    return;
  }
  page.previewTimer = setTimeout(async () => {
    try {
      const { seen } = await page.ctx.conn.request('game.preview_battle', { game_id: page.gameId, hex, units });
      const reply = seen.filter((m) => m.type === 'battle.preview' && m.game_id === page.gameId).pop();
      if (!reply) return;
      const entry = { key, hex, preview: reply.preview };
      page.previews.set(key, entry);
      if (page.previewWanted === key) {
        page.preview = entry;
        page.renderBattlePanel();
      }
    } catch {
      // No preview (nothing to attack there, offline...): the panel simply shows none.
    }
  }, DEBOUNCE_MS);
}

export function dropPreview(page) {
  clearTimeout(page.previewTimer);
  page.previewWanted = null;
  if (page.preview) {
    page.preview = null;
    page.renderBattlePanel();
  }
}

const pct = (x) => `${Math.round(x * 100)}%`;

// The preview's panel section.
export function previewSection(page, entry) {
  const p = entry.preview;
  const odds = p.odds || {};
  const side = (label, seat, fire) =>
    fire && fire.entitled > 0 ? h('div', { class: 'fire-line' }, h('div', { class: 'fire-head' }, page.who(seat), ` ${label}: ${FIRE_TEXT.dice(fire.entitled)}`), h('div', { class: 'fire-sources subtle' }, sourcesText(fire))) : null;
  return h(
    'section',
    { class: 'battle-preview', id: 'battle-preview', dataset: { hex: p.hex } },
    h('h2', {}, `Attack ${page.label(p.hex)}? Preview`),
    side('pre-battle fire', p.attacker, p.pre_battle_fire),
    side('attacks with', p.attacker, p.attacker_fire),
    side('defends with', p.defender, p.defender_fire),
    h(
      'p',
      { class: 'odds', id: 'preview-odds' },
      h('b', {}, `Attacker takes it: ${pct(odds.attacker_wins || 0)}`),
      ` · defender holds: ${pct(odds.defender_holds || 0)}`,
      odds.undecided ? ` · undecided: ${pct(odds.undecided)}` : '',
      odds.average_rounds ? ` · about ${odds.average_rounds.toFixed(1)} rounds` : '',
    ),
    h('p', { class: 'subtle legend' }, `${p.terrain_known ? '' : 'You do not know the terrain there: no terrain dice counted. '}First round, before Suppression [12.31]; odds from ${odds.trials || 0} simulated battles fought to the end, every die rolled.`),
  );
}
