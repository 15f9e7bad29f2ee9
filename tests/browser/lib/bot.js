// A simple bot that plays from the server's legal list, to bring a browser game quickly to the
// situations a test needs (a battle, explored terrain). It only chooses among legal actions;
// the heuristics (march toward the enemy, build toward him) are for speed, not strength.

import { gameState } from './harness.js';

function distance(a, b) {
  return (Math.abs(a.q - b.q) + Math.abs(a.r - b.r) + Math.abs(a.q + a.r - b.q - b.r)) / 2;
}

// Distance from a hex to the nearest enemy Town or unit on the map.
function enemyDistance(view, me, hex) {
  const coord = view.hexes[hex];
  let best = Infinity;
  for (const hx of view.hexes) {
    if (hx.town_owner !== undefined && hx.town_owner !== me) best = Math.min(best, distance(coord, hx));
  }
  for (const u of view.units) {
    if (u.place === 'map' && u.owner !== me && u.hex >= 0) best = Math.min(best, distance(coord, view.hexes[u.hex]));
  }
  return best;
}

// Picks the next action for the player of `state`, or null when he has nothing to decide.
// options.fight: start battles and fight on; options.avoidBattle: never move into enemies.
export function pickAction(state, { avoidBattle = false } = {}) {
  const legal = (state.legal || []).filter((a) => a.kind !== 'concede');
  if (!legal.length) return null;
  const view = state.view;
  const me = state.you.seat;
  const of = (kind) => legal.filter((a) => a.kind === kind);
  for (const kind of ['choose_casualty', 'eliminate_unit', 'place_capital']) {
    if (of(kind).length) return of(kind)[0];
  }
  if (of('continue_battle').length) return of('continue_battle')[0];
  if (of('retreat').length) return of('retreat')[0];
  if (!avoidBattle && of('start_battle').length) return of('start_battle')[0];
  if (of('build_town').length) {
    return of('build_town').sort((a, b) => enemyDistance(view, me, a.hex) - enemyDistance(view, me, b.hex))[0];
  }
  if (of('upgrade_city').length) return of('upgrade_city')[0];
  if (of('place_reserve').length) return of('place_reserve')[0];
  const units = new Map(view.units.map((u) => [u.id, u]));
  let bestMove = null;
  let bestGain = 0;
  for (const a of of('move')) {
    const u = units.get(a.unit);
    if (!u || u.type === 'frigate') continue;
    const enemyThere = view.units.some((x) => x.place === 'map' && x.hex === a.hex && x.owner !== me) ||
      (view.hexes[a.hex].town_owner !== undefined && view.hexes[a.hex].town_owner !== me);
    if (avoidBattle && enemyThere) continue;
    // Keep one unit home in the Capital so the bot does not give it away for free.
    const home = view.players[me].capital_hex;
    if (u.hex === home && view.units.filter((x) => x.place === 'map' && x.owner === me && x.hex === home).length <= 1) continue;
    const gain = enemyDistance(view, me, u.hex) - enemyDistance(view, me, a.hex) + (enemyThere ? 5 : 0);
    if (gain > bestGain) {
      bestGain = gain;
      bestMove = a;
    }
  }
  if (bestMove) return bestMove;
  if (of('end_phase').length) return of('end_phase')[0];
  return null;
}

// Plays with the pages of all players until `until(states)` is true (checked before each
// action) or maxActions were taken. Acts through the deciding player's own page, so every page
// learns of the action the normal way (game.update frames). Only actions taken count toward
// maxActions: waiting for a page to catch up does not (under load a page may lag for seconds),
// but 30 s without a single action is a failure.
export async function playUntil(players, until, { maxActions = 600, avoidBattle = false } = {}) {
  const stallLimitMs = 30_000;
  let taken = 0;
  let lastProgress = Date.now();
  for (;;) {
    const states = await Promise.all(players.map((p) => gameState(p.page)));
    if (await until(states)) return states;
    if (taken >= maxActions) break;
    if (states.every((s) => s && s.view.phase === 'game_over')) {
      throw new Error('playUntil: the game ended before the condition was reached');
    }
    let acted = false;
    for (let k = 0; k < players.length; k += 1) {
      const st = states[k];
      if (!st || st.view.phase === 'game_over' || st.view.decider !== st.you.seat) continue;
      const action = pickAction(st, { avoidBattle });
      if (!action) continue;
      const error = await players[k].page.evaluate((a) => window.__viktoryGame.channel.act(a).then(() => null, (e) => e.code || String(e)), action);
      // "stale": this page had not seen the newest update yet; look again.
      if (error && error !== 'stale') throw new Error(`action ${JSON.stringify(action)} refused: ${error}`);
      acted = !error;
      break;
    }
    if (acted) {
      taken += 1;
      lastProgress = Date.now();
    } else {
      if (Date.now() - lastProgress > stallLimitMs) {
        // Say what each page saw, so a stall in CI can be understood from its log alone.
        const seen = states.map((s) => (s ? `seat ${s.you.seat}: seq ${s.seq}, phase ${s.view.phase}, decider ${s.view.decider}, legal [${(s.legal || []).map((a) => a.kind).join(' ')}]` : 'no state'));
        throw new Error(`playUntil: no action could be taken for ${stallLimitMs / 1000} s (after ${taken} actions); ${seen.join('; ')}`);
      }
      // The decider's page may not have the newest state yet: wait a little for it.
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`playUntil: condition not reached after ${maxActions} actions`);
}
