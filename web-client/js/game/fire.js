// The battle view: both sides' dice per Battle Round (pre-battle fire, attacker, defender) and
// where each die comes from, from the `fire` breakdown the server puts on every fire's
// `dice_rolled` event (docs/protocol.md, "Battle transparency"), with the hits that followed
// and who chose them [10.1]. Used live (game page), in the replay, and for a preview's dice.
// Nothing here decides a rule: it writes out what the events say.

import { diceRow } from '../board.js';
import { h, seatStyle, TERRAIN_NAME, UNIT_NAME } from '../util.js';
import { t } from '../i18n.js';

// The battle view's words (the catalogs' `fire.` entries), as functions other modules use too.
export const FIRE_TEXT = {
  dice: (n) => t('fire.dice', { count: n }),
  fewerDice: (n) => t('fire.fewerDice', { count: n }),
  pairsAveraged: (n) => t('fire.pairsAveraged', { count: n }),
  averagedLine: (n) => t('fire.averagedLine', { count: n }),
  suppressed: (n) => t('fire.suppressed', { n }),
  noDiceRolled: t('fire.noDiceRolled'),
  noDice: t('fire.noDice'),
  hits: t('fire.hits'),
  chosenBy: (who, one) => (one ? t('fire.chosenByOne', { who }) : t('fire.chosenBy', { who })),
  chosenByYou: (one) => (one ? t('fire.chosenByYouOne') : t('fire.chosenByYou')),
  round: (r) => t('fire.round', { round: r }),
};

const FIRE_PURPOSES = new Set(['pre_battle_fire', 'attacker_fire', 'defender_fire', 'defender_pre_fire']);

export const SOURCE_NAME = {
  infantry: UNIT_NAME.infantry,
  cavalry: UNIT_NAME.cavalry,
  artillery: UNIT_NAME.artillery,
  frigate: UNIT_NAME.frigate,
  naval_support: t('fire.navalSupport'),
  mountain: `${TERRAIN_NAME.mountain} [12.3]`,
  forest: `${TERRAIN_NAME.forest} [12.3]`,
  city: t('fire.city'),
  town: t('fire.town'),
};

const PURPOSE_NAME = {
  pre_battle_fire: t('fire.preBattleFire'),
  attacker_fire: t('battle.attacker'),
  defender_fire: t('battle.defender'),
  defender_pre_fire: t('fire.defenderPreFire'), // house rule Defending Artillery Pre-fire
};

// A new, empty record of one Battle.
export function newBattleRecord(hex, attacker, defender) {
  return { hex, attacker, defender, round: 0, fires: [], ended: null };
}

// Adds the events of one action to `record` (or starts a record at battle_started). Returns
// the record the events leave (a new one when a Battle started). A hit belongs to the last fire
// before it, also when it was chosen in a later action (choose_casualty): the fire that caused
// it is then the record's last. `at` (optional) marks the fires and hits these events brought
// (the replay shows a step's own).
export function absorbBattleEvents(record, events, at) {
  let rec = record;
  let lastFire = rec && !rec.ended && rec.fires.length ? rec.fires[rec.fires.length - 1] : null;
  for (const ev of events || []) {
    if (ev.kind === 'battle_started') {
      rec = newBattleRecord(ev.hex, ev.player, ev.other_player);
      lastFire = null;
      continue;
    }
    if (!rec) continue;
    if (ev.kind === 'dice_rolled' && FIRE_PURPOSES.has(ev.purpose) && ev.hex === rec.hex) {
      advanceRound(rec, ev.purpose);
      lastFire = { round: rec.round, purpose: ev.purpose, player: ev.player, dice: ev.dice || [], fire: ev.fire || null, hits: [], averaged: 0, at };
      rec.fires.push(lastFire);
    } else if (ev.kind === 'dice_averaged' && ev.hex === rec.hex) {
      // Pairs not rolled [15.4]: the fire that follows (or none, when every die was averaged).
      const purpose = ev.player === rec.attacker ? 'attacker_fire' : 'defender_fire';
      advanceRound(rec, purpose);
      lastFire = { round: rec.round, purpose, player: ev.player, dice: [], fire: ev.fire || null, hits: [], averaged: ev.value || 0, averagedOnly: true, at };
      rec.fires.push(lastFire);
    } else if (ev.kind === 'unit_hit' && ev.hex === rec.hex && lastFire) {
      // Both pre-battle fires roll before their hits are assigned (house rule Defending
      // Artillery Pre-fire): a hit goes with the last fire of the other side.
      const firing = lastFire.player !== ev.player ? lastFire : [...rec.fires].reverse().find((f) => f.player !== ev.player) || lastFire;
      firing.hits.push({ owner: ev.player, type: ev.unit_type, byFirer: ev.value === 1, at });
    } else if (ev.kind === 'battle_ended' && ev.hex === rec.hex) {
      rec.ended = { winner: ev.player };
    }
  }
  // A fire averaged and then rolled appears twice: fold the averaging into the roll.
  const folded = [];
  for (const f of rec ? rec.fires : []) {
    const prev = folded[folded.length - 1];
    if (prev && prev.averagedOnly && !f.averagedOnly && prev.player === f.player && prev.purpose === f.purpose && prev.round === f.round) {
      folded[folded.length - 1] = { ...f, averaged: prev.averaged, hits: prev.hits.concat(f.hits) };
    } else folded.push(f);
  }
  if (rec) rec.fires = folded;
  return rec;
}

// The replay's battle view of step `steps[steps.length - 1]`: the Battle it belongs to, built
// from its start (so that hits chosen in a later step go with the fire that caused them, and
// rounds count from the start), and the fires the step rolled or assigned hits of. `steps`:
// the steps up to this one, each {seq, events}; null when the Battle's start is not among them.
export function stepBattle(steps) {
  const last = steps[steps.length - 1];
  if (!last) return null;
  let start = steps.length - 1;
  // A Battle is fought within one Player Turn: look back to its start, not past the turn's.
  for (; start >= 0; start -= 1) {
    const kinds = (steps[start].events || []).map((ev) => ev.kind);
    if (kinds.includes('battle_started')) break;
    if (kinds.includes('turn_started') && start < steps.length - 1) return null;
  }
  if (start < 0) return null;
  let record = null;
  for (let k = start; k < steps.length; k += 1) record = absorbBattleEvents(record, steps[k].events, steps[k].seq);
  if (!record) return null;
  const fires = record.fires.filter((f) => f.at === last.seq || f.hits.some((x) => x.at === last.seq));
  return fires.length ? { record, fires } : null;
}

// A round is the attacker's fire and the defender's answer [12.3]: another attacker fire (not
// the averaging just before it) opens the next round.
function advanceRound(rec, purpose) {
  if (rec.round === 0) rec.round = 1;
  else if (purpose === 'attacker_fire' && rec.fires.some((f) => f.purpose === 'attacker_fire' && f.round === rec.round && !f.averagedOnly)) rec.round += 1;
}

// "Infantry 1 · Cavalry 2 · Mountain [12.3] 2 · −1 suppressed [12.31]"
export function sourcesText(fire) {
  if (!fire) return '';
  const parts = (fire.sources || []).map((s) => `${SOURCE_NAME[s.source] || s.source} ${s.dice}`);
  if (fire.suppressed) parts.push(FIRE_TEXT.suppressed(fire.suppressed));
  if (fire.averaged_pairs) parts.push(FIRE_TEXT.pairsAveraged(fire.averaged_pairs));
  return parts.join(' · ');
}

// One fire: who, its dice, where they come from, the hits it caused.
export function fireLine(name, f, you = null) {
  const st = seatStyle(f.player);
  const who = h('span', { class: 'who' }, h('span', { class: 'swatch', style: `background:${st.fill};border-color:${st.edge}` }), ` ${t('fire.who', { purpose: PURPOSE_NAME[f.purpose] || f.purpose, who: name(f.player) })}`);
  const row = h('div', { class: 'fire-line', dataset: { purpose: f.purpose, player: f.player } }, h('div', { class: 'fire-head' }, who, f.dice.length ? diceRow(f.dice) : h('span', { class: 'subtle' }, f.averaged ? FIRE_TEXT.noDiceRolled : FIRE_TEXT.noDice)));
  const src = sourcesText(f.fire);
  if (src) row.append(h('div', { class: 'fire-sources subtle' }, t('fire.entitled', { dice: FIRE_TEXT.dice(f.fire.entitled), sources: src })));
  if (f.averaged) row.append(h('div', { class: 'fire-averaged' }, FIRE_TEXT.averagedLine(f.averaged)));
  if (f.hits.length) {
    row.append(
      h(
        'div',
        { class: 'fire-hits' },
        FIRE_TEXT.hits,
        f.hits.map((x, i) => [i ? ', ' : '', t('fire.hitUnit', { seat: seatStyle(x.owner).name, unit: UNIT_NAME[x.type] || x.type }), h('span', { class: 'subtle' }, chosenBy(name, x.byFirer ? f.player : x.owner, x.byFirer, you))]),
      ),
    );
  }
  return row;
}

// " (chosen by you)" for the viewer's own seat (`you`), " (chosen by Bob (Yellow))" for others.
function chosenBy(name, seat, one, you) {
  return seat === you ? FIRE_TEXT.chosenByYou(one) : FIRE_TEXT.chosenBy(name(seat), one);
}

// The whole record, round by round.
// `roundOffset` shifts the numbers (a replay step shows only its own fires); null hides them
// (the round is not known). `you`: the viewer's seat, if he plays.
export function battleTable(record, name, { roundOffset = 0, you = null } = {}) {
  const box = h('div', { class: 'battle-table', id: 'battle-table' });
  const rounds = [...new Set(record.fires.map((f) => f.round))];
  for (const r of rounds) {
    if (roundOffset !== null) box.append(h('h3', { class: 'round-head' }, FIRE_TEXT.round(r + roundOffset)));
    box.append(...record.fires.filter((f) => f.round === r).map((f) => fireLine(name, f, you)));
  }
  return box;
}
