// The yardstick game for boardgame.io: about the size of a Viktory board (61 hexes for 2 seats,
// 91 for 4), terrain each seat has not seen yet hidden by playerView, eight units per seat that
// move one at a time. It validates next to nothing and persists nothing (in-memory storage):
// docs/performance.md says so beside its figures.
const TERRAINS = ['plains', 'grass', 'forest', 'mountain', 'water'];

function boardHexes(radius) {
  const hexes = [];
  for (let q = -radius; q <= radius; q++) {
    const low = Math.max(-radius, -q - radius);
    const high = Math.min(radius, -q + radius);
    for (let r = low; r <= high; r++) hexes.push({ q, r });
  }
  return hexes;
}

const UNITS_PER_SEAT = 8;

const ToyViktory = {
  name: 'toyviktory',
  minPlayers: 2,
  maxPlayers: 6,
  setup: ({ ctx, random }) => {
    const radius = ctx.numPlayers <= 2 ? 4 : 5;
    const cells = boardHexes(radius);
    const seatCount = ctx.numPlayers;
    // Each seat starts in its own slice of the board and knows only the hexes there.
    const homeOf = (index) => Math.floor((index * seatCount) / cells.length);
    const hexes = cells.map((c, index) => {
      const seen = {};
      for (let s = 0; s < seatCount; s++) seen[s] = homeOf(index) === s && index % 7 === 0;
      return { id: index, q: c.q, r: c.r, terrain: TERRAINS[Math.floor(random.Number() * 5)], seen, units: [] };
    });
    const units = [];
    for (let s = 0; s < seatCount; s++) {
      const first = Math.floor((s * cells.length) / seatCount);
      for (let k = 0; k < UNITS_PER_SEAT; k++) {
        units.push({ id: units.length, owner: String(s), kind: k % 3 ? 'infantry' : 'cavalry', hex: first + k });
      }
    }
    return { hexes, units, moves: 0 };
  },
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    move: ({ G, ctx }, unitId, destination) => {
      const unit = G.units[unitId];
      if (!unit || unit.owner !== ctx.currentPlayer) return;
      unit.hex = ((destination % G.hexes.length) + G.hexes.length) % G.hexes.length;
      G.hexes[unit.hex].seen[ctx.currentPlayer] = true;
      G.moves += 1;
    },
  },
  playerView: ({ G, playerID }) => ({
    ...G,
    hexes: G.hexes.map((h) => (h.seen[playerID] ? h : { ...h, terrain: null })),
  }),
};

module.exports = { ToyViktory };
