// The server's list of legal actions, sorted by how a player reaches them on the page. Nothing
// here decides a rule: it only groups what the server sent.

// redeploy: the house rule Redeployment, in the Reserve phase: select the unit, then its place.
const UNIT_ACTION_KINDS = new Set(['move', 'embark', 'disembark', 'bombard', 'withdraw', 'redeploy']);
// remove_town / rebuild_town [15.5] and replace_water [15.3] are chosen on the map, too.
const HEX_ACTION_KINDS = new Set(['place_capital', 'build_town', 'upgrade_city', 'start_battle', 'remove_town', 'rebuild_town', 'replace_water']);

// Splits the legal actions by how the player reaches them in the UI.
export function classifyLegal(legal) {
  const c = {
    unit: new Map(), // unit id -> [move/embark/disembark/bombard]
    hex: new Map(), // hex -> [place_capital/build_town/upgrade_city/start_battle]
    place: new Map(), // unit type -> [place_reserve]
    casualty: [],
    retreat: [],
    eliminate: [],
    continueBattle: null,
    withdraw: [], // [15.62], also reachable through the unit
    replaceWater: [], // [15.3], also on the map
    keepWater: null, // [15.3]
    average: [], // [15.4] average_dice, one per number of pairs
    rebuild: [], // [15.5] rebuild_town, also on the map
    endPhase: null,
    concede: null,
    count: 0,
  };
  const push = (map, key, a) => {
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(a);
  };
  for (const a of legal || []) {
    if (UNIT_ACTION_KINDS.has(a.kind)) push(c.unit, a.unit, a);
    else if (HEX_ACTION_KINDS.has(a.kind)) push(c.hex, a.hex, a);
    else if (a.kind === 'place_reserve') push(c.place, a.unit_type, a);
    else if (a.kind === 'choose_casualty') c.casualty.push(a);
    else if (a.kind === 'retreat') c.retreat.push(a);
    else if (a.kind === 'eliminate_unit') c.eliminate.push(a);
    else if (a.kind === 'continue_battle') c.continueBattle = a;
    else if (a.kind === 'keep_water') c.keepWater = a;
    else if (a.kind === 'average_dice') c.average.push(a);
    if (a.kind === 'withdraw') c.withdraw.push(a);
    if (a.kind === 'replace_water') c.replaceWater.push(a);
    if (a.kind === 'rebuild_town') c.rebuild.push(a);
    else if (a.kind === 'end_phase') c.endPhase = a;
    else if (a.kind === 'concede') c.concede = a;
    if (a.kind !== 'concede') c.count += 1;
  }
  return c;
}

// The kinds of the hex actions on offer (place_capital, build_town, ...).
export function hexActionKinds(c) {
  return new Set([...c.hex.values()].flat().map((a) => a.kind));
}

// Legal actions grouped by the unit they name (units that look the same in the UI share a
// button; the first action of a group is the one sent).
export function groupUnits(actions, units, keyOf) {
  const groups = new Map();
  for (const a of actions) {
    const u = units.get(a.unit);
    if (!u) continue;
    const key = keyOf(u, a);
    if (!groups.has(key)) groups.set(key, { unit: u, actions: [] });
    groups.get(key).actions.push(a);
  }
  return [...groups.values()];
}
