// Before an attack: each side's dice and the odds, asked of the server (game.preview_battle,
// answered from this seat's own view: docs/protocol.md). Shown in the battle panel while the
// player points at (or focuses) a hex where his selected unit would fight, or a Fight button.

import { fillIn, h } from '../util.js';
import { LANG, t } from '../i18n.js';
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

const percent = new Intl.NumberFormat(LANG, { style: 'percent' });
const oneDecimal = new Intl.NumberFormat(LANG, { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const pct = (x) => percent.format(x);

// The preview's panel section.
export function previewSection(page, entry) {
  const p = entry.preview;
  const odds = p.odds || {};
  const side = (label, seat, fire) =>
    fire && fire.entitled > 0 ? h('div', { class: 'fire-line' }, h('div', { class: 'fire-head' }, fillIn(label, { who: page.who(seat), dice: FIRE_TEXT.dice(fire.entitled) })), h('div', { class: 'fire-sources subtle' }, sourcesText(fire))) : null;
  return h(
    'section',
    { class: 'battle-preview', id: 'battle-preview', dataset: { hex: p.hex } },
    h('h2', {}, t('preview.title', { hex: page.label(p.hex) })),
    side(t('preview.preBattleFire'), p.attacker, p.pre_battle_fire),
    side(t('preview.defenderPreFire'), p.defender, p.defender_pre_battle_fire), // house rule
    side(t('preview.attacksWith'), p.attacker, p.attacker_fire),
    side(t('preview.defendsWith'), p.defender, p.defender_fire),
    h(
      'p',
      { class: 'odds', id: 'preview-odds' },
      h('b', {}, t('preview.attackerTakesIt', { pct: pct(odds.attacker_wins || 0) })),
      ` · ${t('preview.defenderHolds', { pct: pct(odds.defender_holds || 0) })}`,
      odds.undecided ? ` · ${t('preview.undecided', { pct: pct(odds.undecided) })}` : '',
      odds.average_rounds ? ` · ${t('preview.aboutRounds', { n: oneDecimal.format(odds.average_rounds) })}` : '',
    ),
    h('p', { class: 'subtle legend' }, `${p.terrain_known ? '' : `${t('preview.terrainUnknown')} `}${t('preview.legend', { count: odds.trials || 0 })}`),
  );
}
