// View deltas (docs/protocol.md, "View deltas"; the server's protocol/view_delta.h): the change
// from one view of a game to the next. The replay sends the first view whole and then one
// delta per step; applying them in order gives every view exactly as the server made it.
//
//   {set: {field: value}, unset: [field], head: {...},      top-level fields
//    hexes: [hex], hex_count: n,                             changed hexes, whole, by .hex
//    units: [unit], units_removed: [id],                     units, whole, sorted by .id
//    players: [player], player_count: n}                     changed players, by .index

const COLLECTIONS = ['hexes', 'units', 'players'];

function fail(message) {
  throw new Error(`view delta: ${message}`);
}

function resized(list, count) {
  if (!Number.isInteger(count) || count < 0) fail('a count must be a non-negative integer');
  const out = list.slice(0, count);
  while (out.length < count) out.push(null);
  return out;
}

function putIndexed(list, entries, key) {
  for (const entry of entries) {
    const index = entry && entry[key];
    if (!Number.isInteger(index) || index < 0 || index >= list.length) fail(`'${key}' out of range`);
    list[index] = entry;
  }
}

// Returns the view after `delta`; `view` itself is left as it was.
export function applyViewDelta(view, delta) {
  if (!view || typeof view !== 'object') fail('the view must be an object');
  if (!delta || typeof delta !== 'object' || Array.isArray(delta)) fail('a delta must be an object');
  let next = { ...view };
  if (delta.head) {
    next = {};
    for (const key of COLLECTIONS) if (key in view) next[key] = view[key];
    for (const [key, value] of Object.entries(delta.head)) {
      if (COLLECTIONS.includes(key)) fail(`'head' may not hold ${key}`);
      next[key] = value;
    }
  }
  for (const [key, value] of Object.entries(delta.set || {})) {
    if (COLLECTIONS.includes(key)) fail(`'set' may not hold ${key}`);
    next[key] = value;
  }
  for (const key of delta.unset || []) delete next[key];

  if (delta.hex_count !== undefined || delta.hexes) {
    const hexes = delta.hex_count !== undefined ? resized(view.hexes, delta.hex_count) : view.hexes.slice();
    putIndexed(hexes, delta.hexes || [], 'hex');
    if (hexes.includes(null)) fail('the map grew without its new hexes');
    next.hexes = hexes;
  }
  if (delta.player_count !== undefined || delta.players) {
    const players = delta.player_count !== undefined ? resized(view.players, delta.player_count) : view.players.slice();
    putIndexed(players, delta.players || [], 'index');
    if (players.includes(null)) fail('the players grew without the new ones');
    next.players = players;
  }
  if (delta.units_removed || delta.units) {
    const removed = new Set(delta.units_removed || []);
    const units = view.units.filter((u) => !removed.has(u.id));
    if (units.length !== view.units.length - removed.size) fail('a removed unit is not in the view');
    for (const unit of delta.units || []) {
      if (!unit || !Number.isInteger(unit.id)) fail('a unit needs an id');
      // Units stay sorted by id: replace the one with this id, or insert it in its place.
      let i = 0;
      while (i < units.length && units[i].id < unit.id) i += 1;
      if (i < units.length && units[i].id === unit.id) units[i] = unit;
      else units.splice(i, 0, unit);
    }
    next.units = units;
  }
  return next;
}
