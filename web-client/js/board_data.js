// The static board of a game (docs/protocol.md, "The board, sent once"): per hex its index,
// axial q/r, label and whether it is on the perimeter. The server sends it once per game and
// connection ("game.board", and in every replay page) and leaves those fields out of the hexes
// of views and view deltas; the client puts them back here, so that every module reading
// hex.q, hex.r, hex.label or hex.perimeter works with whole hexes.
//
//   board = {id: "<16 hex digits>", hexes: [{hex, q, r, label, perimeter}, ...]}

import { t } from './i18n.js';

// A board that does not fit the view (a bug, or a mix of versions): said in the page's language.
function fail(message) {
  throw new Error(t('boardData.error', { message }));
}

// Whether some hex of the view lacks the board's fields (so the board is needed to show it).
export function needsBoard(view) {
  return !!view && Array.isArray(view.hexes) && view.hexes.some((h) => h && h.label === undefined);
}

// The view with the board's fields in each hex. Hexes that have them already (merged before,
// e.g. unchanged by the last delta) are kept as they are, so this costs little per update.
// `view` is left as it was. Throws when the board does not fit the view.
export function withBoard(view, board) {
  if (!view || !Array.isArray(view.hexes)) fail(t('boardData.noHexes'));
  if (!needsBoard(view)) return view;
  if (!board || !Array.isArray(board.hexes)) fail(t('boardData.noBoard'));
  if (board.hexes.length !== view.hexes.length) fail(t('boardData.otherCount'));
  const hexes = view.hexes.map((h) => {
    if (h.label !== undefined) return h;
    const cell = board.hexes[h.hex];
    if (!cell || cell.hex !== h.hex) fail(t('boardData.notOnBoard', { hex: h.hex }));
    return { ...h, q: cell.q, r: cell.r, label: cell.label, perimeter: cell.perimeter };
  });
  return { ...view, hexes };
}
