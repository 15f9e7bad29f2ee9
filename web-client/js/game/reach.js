// A selected unit's whole reach this turn: the hexes it can get to by several moves, asked of
// the server (game.reach, worked out from the engine's legal moves: docs/protocol.md). The
// page lights the next steps from `legal` as before; the hexes further away get a faint mark,
// and a hex whose move turns tiles over is as far as the answer goes.

export function wantReach(page, unit) {
  if (page.mySeat === null || !page.state || unit === null) return;
  const key = `${page.state.seq}|${unit}`;
  if (page.reach && page.reach.key === key) return;
  if (page.reachWanted === key) return;
  page.reachWanted = key;
  page.ctx.conn.request('game.reach', { game_id: page.gameId, unit }).then(
    ({ seen }) => {
      const reply = seen.filter((m) => m.type === 'game.reach' && m.game_id === page.gameId && m.unit === unit).pop();
      if (!reply || page.reachWanted !== key) return;
      page.reach = { key, unit, hexes: reply.hexes || [] };
      if (page.state && page.ui.selectedUnit === unit) page.renderBoard();
    },
    () => {
      // No reach (offline...): the next steps from `legal` are still lit.
    },
  );
}

// The hexes beyond the next step, for the selected unit at this position: hex -> moves.
export function furtherReach(page) {
  const r = page.reach;
  if (!r || !page.state || r.key !== `${page.state.seq}|${page.ui.selectedUnit}`) return new Map();
  return new Map(r.hexes.filter((x) => x.moves > 1).map((x) => [x.hex, x]));
}
