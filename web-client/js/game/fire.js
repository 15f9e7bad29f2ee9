// The battle view: both sides' dice per Battle Round (pre-battle fire, attacker, defender) and
// where each die comes from, from the `fire` breakdown the server puts on every fire's
// `dice_rolled` event (docs/protocol.md, "Battle transparency"), with the hits that followed
// and who chose them [10.1]. Used live (game page), in the replay, and for a preview's dice.
// Nothing here decides a rule: it writes out what the events say.

import { diceRow } from '../board.js';
import { h, seatStyle, UNIT_NAME } from '../util.js';

const FIRE_PURPOSES = new Set(['pre_battle_fire', 'attacker_fire', 'defender_fire']);

export const SOURCE_NAME = {
  infantry: 'Infantry',
  cavalry: 'Cavalry',
  artillery: 'Artillery',
  frigate: 'Frigate',
  naval_support: 'Naval Support [12.32]',
  mountain: 'Mountain [12.3]',
  forest: 'Forest [12.3]',
  city: 'City [12.3]',
  town: 'Town [12.3]',
};

const PURPOSE_NAME = {
  pre_battle_fire: 'Pre-battle fire',
  attacker_fire: 'Attacker',
  defender_fire: 'Defender',
};

// A new, empty record of one Battle.
export function newBattleRecord(hex, attacker, defender) {
  return { hex, attacker, defender, round: 0, fires: [], ended: null };
}

// Adds the events of one action to `record` (or starts a record at battle_started). Returns
// the record the events leave (a new one when a Battle started).
export function absorbBattleEvents(record, events) {
  let rec = record;
  let lastFire = null;
  for (const ev of events || []) {
    if (ev.kind === 'battle_started') {
      rec = newBattleRecord(ev.hex, ev.player, ev.other_player);
      lastFire = null;
      continue;
    }
    if (!rec) continue;
    if (ev.kind === 'dice_rolled' && FIRE_PURPOSES.has(ev.purpose) && ev.hex === rec.hex) {
      advanceRound(rec, ev.purpose);
      lastFire = { round: rec.round, purpose: ev.purpose, player: ev.player, dice: ev.dice || [], fire: ev.fire || null, hits: [], averaged: 0 };
      rec.fires.push(lastFire);
    } else if (ev.kind === 'dice_averaged' && ev.hex === rec.hex) {
      // Pairs not rolled [15.4]: the fire that follows (or none, when every die was averaged).
      const purpose = ev.player === rec.attacker ? 'attacker_fire' : 'defender_fire';
      advanceRound(rec, purpose);
      lastFire = { round: rec.round, purpose, player: ev.player, dice: [], fire: ev.fire || null, hits: [], averaged: ev.value || 0, averagedOnly: true };
      rec.fires.push(lastFire);
    } else if (ev.kind === 'unit_hit' && ev.hex === rec.hex && lastFire) {
      lastFire.hits.push({ owner: ev.player, type: ev.unit_type, byFirer: ev.value === 1 });
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
  if (fire.suppressed) parts.push(`−${fire.suppressed} suppressed [12.31]`);
  if (fire.averaged_pairs) parts.push(`${fire.averaged_pairs} pair${fire.averaged_pairs > 1 ? 's' : ''} averaged [15.4]`);
  return parts.join(' · ');
}

// One fire: who, its dice, where they come from, the hits it caused.
export function fireLine(name, f) {
  const st = seatStyle(f.player);
  const who = h('span', { class: 'who' }, h('span', { class: 'swatch', style: `background:${st.fill};border-color:${st.edge}` }), ` ${PURPOSE_NAME[f.purpose] || f.purpose} (${name(f.player)}):`);
  const row = h('div', { class: 'fire-line', dataset: { purpose: f.purpose, player: f.player } }, h('div', { class: 'fire-head' }, who, f.dice.length ? diceRow(f.dice) : h('span', { class: 'subtle' }, f.averaged ? 'no dice rolled' : 'no dice')));
  const src = sourcesText(f.fire);
  if (src) row.append(h('div', { class: 'fire-sources subtle' }, `${f.fire.entitled} dice: ${src}`));
  if (f.averaged) row.append(h('div', { class: 'fire-averaged' }, `${f.averaged} averaged pair${f.averaged > 1 ? 's' : ''}: ${f.averaged} hit${f.averaged > 1 ? 's' : ''}, the target choosing [15.4]`));
  if (f.hits.length) {
    row.append(
      h(
        'div',
        { class: 'fire-hits' },
        'Hits: ',
        f.hits.map((x, i) => [i ? ', ' : '', `${seatStyle(x.owner).name} ${UNIT_NAME[x.type] || x.type}`, h('span', { class: 'subtle' }, ` (chosen by ${chooser(name, x.byFirer ? f.player : x.owner)}${x.byFirer ? ', a 1' : ''})`)]),
      ),
    );
  }
  return row;
}

// "chosen by you" inside a sentence, "Bob (Yellow)" for others.
function chooser(name, seat) {
  const n = name(seat);
  return n === 'You' ? 'you' : n;
}

// The whole record, round by round.
// `roundOffset` shifts the numbers (a replay step shows only its own fires); null hides them
// (the round is not known).
export function battleTable(record, name, { roundOffset = 0 } = {}) {
  const box = h('div', { class: 'battle-table', id: 'battle-table' });
  const rounds = [...new Set(record.fires.map((f) => f.round))];
  for (const r of rounds) {
    if (roundOffset !== null) box.append(h('h3', { class: 'round-head' }, `Round ${r + roundOffset}`));
    box.append(...record.fires.filter((f) => f.round === r).map((f) => fireLine(name, f)));
  }
  return box;
}
