// The server's list of legal actions, sorted by how a player reaches them on the page. Nothing
// here decides a rule: it only groups what the server sent.

const UNIT_ACTION_KINDS = new Set(['move', 'embark', 'disembark', 'bombard']);
const HEX_ACTION_KINDS = new Set(['place_capital', 'build_town', 'upgrade_city', 'start_battle']);

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
