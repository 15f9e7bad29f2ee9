// What the page remembers from the events of each update: move trails of the turn under way,
// the last moves of the other players (kept until dismissed), the last dice, and which Town or
// City each player lost last (so the page can say "City" when a City fell).

import { playSound } from '../sounds.js';
import { absorbBattleEvents } from './fire.js';
import { noteDoomsdayRolls } from './victory.js';

const TRAIL_KINDS = new Set(['unit_moved', 'unit_retreated', 'unit_disembarked', 'unit_embarked']);
const BATTLE_ROLLS = new Set(['bombard', 'pre_battle_fire', 'attacker_fire', 'defender_fire', 'defender_pre_fire']);
const MAX_TRAILS = 40;

export function absorbEvents(page, events, full) {
  if (full) return;
  noteDoomsdayRolls(page, events, page.state.seq);
  let rolled = false;
  page.battleRecord = absorbBattleEvents(page.battleRecord, events);
  for (const ev of events) {
    if (ev.kind === 'turn_started') {
      endTurnTrails(page, ev.player);
      if (page.battleRecord && page.battleRecord.ended) page.battleRecord = null;
    }
    const trail = trailOf(page, ev);
    if (trail) {
      page.trails.push(trail);
      if (page.trails.length > MAX_TRAILS) page.trails.shift();
    }
    if (ev.kind === 'dice_rolled' && Array.isArray(ev.dice)) {
      page.lastRoll = { player: ev.player, hex: ev.hex, dice: ev.dice, purpose: ev.purpose, seq: page.state.seq };
      if (BATTLE_ROLLS.has(ev.purpose)) rolled = true;
    }
    if (ev.kind === 'town_captured' && ev.other_player >= 0) {
      page.lostSettlement.set(ev.other_player, { hex: ev.hex, city: ev.value === 1, seq: page.state.seq });
    }
  }
  if (rolled) playSound('battle');
  saveLastMoves(page);
}

// The hex of a unit in the view the update brought (a Frigate stays where it was when cargo
// boards or lands).
function unitHex(page, id) {
  const u = page.view.units.find((x) => x.id === id);
  return u && u.place === 'map' ? u.hex : -1;
}

function trailOf(page, ev) {
  // Boarding names where the unit came from, landing where it goes: the Frigate is the other end.
  const from = ev.kind === 'unit_disembarked' ? unitHex(page, ev.other_unit) : ev.from_hex;
  const to = ev.kind === 'unit_embarked' ? unitHex(page, ev.other_unit) : ev.hex;
  if (TRAIL_KINDS.has(ev.kind) && from >= 0 && to >= 0 && from !== to) {
    return { from, to, owner: ev.player };
  }
  if (ev.kind === 'bombarded' && ev.from_hex >= 0 && ev.hex >= 0) {
    return { from: ev.from_hex, to: ev.hex, owner: ev.player, kind: 'bombard' };
  }
  return null;
}

// A new Player Turn begins: the trails of the turn that ended become that player's "last
// moves" (unless they were ours: we know what we did), and the new player's older last moves
// give way to the ones he is about to make.
function endTurnTrails(page, nextPlayer) {
  const ended = page.trails;
  page.trails = [];
  const byOwner = new Map();
  for (const t of ended) {
    if (t.owner === page.mySeat) continue;
    if (!byOwner.has(t.owner)) byOwner.set(t.owner, []);
    byOwner.get(t.owner).push(t);
  }
  for (const [owner, moves] of byOwner) page.lastMoves.set(owner, moves);
  page.lastMoves.delete(nextPlayer);
}

export function dismissLastMoves(page) {
  page.lastMoves.clear();
  saveLastMoves(page);
}

// Everything drawn as a trail: the last moves of others, then the turn under way.
export function sceneMoves(page) {
  const out = [];
  for (const moves of page.lastMoves.values()) for (const m of moves) out.push({ ...m, last: true });
  return out.concat(page.trails);
}

// The last moves survive a reload of the page as long as nothing happened in between.
function storageKey(page) {
  return `viktory.lastmoves.${page.gameId}`;
}

function saveLastMoves(page) {
  try {
    const entries = [...page.lastMoves];
    if (!entries.length) localStorage.removeItem(storageKey(page));
    else localStorage.setItem(storageKey(page), JSON.stringify({ seq: page.state.seq, moves: entries }));
  } catch {
    // Storage full or blocked: they are just not kept over a reload.
  }
}

export function restoreLastMoves(page) {
  try {
    const saved = JSON.parse(localStorage.getItem(storageKey(page)) || 'null');
    if (saved && saved.seq === page.state.seq && Array.isArray(saved.moves)) page.lastMoves = new Map(saved.moves);
  } catch {
    // A broken entry is ignored.
  }
}
