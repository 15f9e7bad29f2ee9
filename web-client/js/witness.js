// What this client saw of a game, kept so that the game's record can be checked against it
// once the game is over (docs/fair-play.md, "The witness"): the commitments seen at the start,
// the player's own contribution, and the dice and tiles of every game.update it received.
// A host could otherwise publish a record that is consistent in itself but is not the game
// that was played. Pure functions over plain objects in the witness's JSON form.

export const WITNESS_FORMAT = 'viktory-witness';
export const WITNESS_VERSION = 1;

// A new witness for game `gameId`, seen from `seat` (null for a spectator).
export function newWitness({ gameId = null, seat = null } = {}) {
  const witness = { format: WITNESS_FORMAT, version: WITNESS_VERSION, seat, seen: [] };
  if (gameId !== null) witness.game_id = gameId;
  return witness;
}

// What the client learnt when the game started: the server's commitment, every seat's
// contribution commitment (in seat order), its own contribution (hex strings) and the first
// player. Absent values are left out.
export function noteStart(witness, { commitment, contributionCommitments, contribution, firstPlayer } = {}) {
  if (commitment) witness.commitment = commitment;
  if (contributionCommitments) witness.contribution_commitments = [...contributionCommitments];
  if (contribution) witness.contribution = contribution;
  if (Number.isInteger(firstPlayer)) witness.first_player = firstPlayer;
  return witness;
}

// The dice and the tiles among a game.update's events (as the server filtered them for this
// client: a tile whose terrain it was not shown is left out).
export function outcomesOf(events) {
  const dice = [];
  const tiles = [];
  for (const e of events || []) {
    if (e.kind === 'dice_rolled') dice.push({ player: e.player, purpose: e.purpose, hex: e.hex, dice: [...e.dice] });
    if (e.kind === 'tile_revealed' && typeof e.terrain === 'string') tiles.push({ hex: e.hex, terrain: e.terrain, by: e.player });
  }
  return { dice, tiles };
}

// Notes a game.update message ({seq, events}). Returns true when it carried dice or tiles. A seq
// seen twice (an update received again after a resync) keeps what was seen first.
export function noteUpdate(witness, message) {
  const { dice, tiles } = outcomesOf(message.events);
  if (dice.length === 0 && tiles.length === 0) return false;
  if (witness.seen.some((entry) => entry.seq === message.seq)) return false;
  const entry = { seq: message.seq };
  if (dice.length) entry.dice = dice;
  if (tiles.length) entry.tiles = tiles;
  witness.seen.push(entry);
  witness.seen.sort((a, b) => a.seq - b.seq);
  return true;
}

// Kept per game in the browser's storage (localStorage), to outlive reloads.
const keyFor = (gameId) => `viktory.witness.${gameId}`;

export function saveWitness(storage, witness) {
  storage.setItem(keyFor(witness.game_id), JSON.stringify(witness));
}

export function loadWitness(storage, gameId) {
  const text = storage.getItem(keyFor(gameId));
  if (!text) return null;
  try {
    const witness = JSON.parse(text);
    return witness && witness.format === WITNESS_FORMAT ? witness : null;
  } catch {
    return null;
  }
}
