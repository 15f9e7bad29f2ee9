// This browser's contribution to the luck of the games it plays (docs/fair-play.md, "The
// scheme"): when it takes a seat it draws 32 random bytes, keeps them (localStorage, under their
// commitment, which names one seat of one game) and sends only the commitment; when the seats
// are final the server asks every seat to reveal (game.reveal_request) and this module answers
// by itself, after checking that its commitment is among the published ones. Nobody, the host
// included, can then choose the seed alone. Hashing runs in the verifier's worker
// (./fair_worker.js): plain HTTP has no WebCrypto.

import { commitmentInWorker } from './fair_worker.js';
import { loadWitness, newWitness, noteStart, saveWitness } from './witness.js';

const PREFIX = 'viktory.contribution.';
const KEEP_MS = 180 * 24 * 60 * 60 * 1000; // a round waits days at most; then it is litter
const LABEL = new TextEncoder().encode('viktory contribution v1\0');

export const toHex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

function storage() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

// Forgets contributions kept longer than a round can last.
function prune(store) {
  const now = Date.now();
  for (let i = store.length - 1; i >= 0; i -= 1) {
    const key = store.key(i);
    if (!key || !key.startsWith(PREFIX)) continue;
    try {
      const entry = JSON.parse(store.getItem(key));
      if (!entry || !(now - entry.at < KEEP_MS)) store.removeItem(key);
    } catch {
      store.removeItem(key);
    }
  }
}

// The contribution this browser committed to with `commitment`, or null (another device,
// cleared storage).
export function keptContribution(commitment) {
  const store = storage();
  if (!store || typeof commitment !== 'string') return null;
  try {
    const entry = JSON.parse(store.getItem(PREFIX + commitment));
    return entry && typeof entry.contribution === 'string' ? entry.contribution : null;
  } catch {
    return null;
  }
}

async function hashContribution(bytes) {
  try {
    return await commitmentInWorker(bytes);
  } catch (err) {
    // Without the WebAssembly verifier: WebCrypto, where the origin is a secure one.
    if (!(globalThis.crypto && crypto.subtle)) throw err;
    const data = new Uint8Array(LABEL.length + bytes.length);
    data.set(LABEL);
    data.set(bytes, LABEL.length);
    return toHex(new Uint8Array(await crypto.subtle.digest('SHA-256', data)));
  }
}

// Draws a contribution, keeps it and returns its commitment (64 hex digits).
export async function newCommitment() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const commitment = await hashContribution(bytes);
  const store = storage();
  if (store) {
    prune(store);
    store.setItem(PREFIX + commitment, JSON.stringify({ contribution: toHex(bytes), at: Date.now() }));
  }
  return commitment;
}

// game.create and game.join carry the new seat's commitment (a creator who does not play takes
// no seat). Without one (the hashing failed) the server asks again when the seats are final.
export async function withCommitment(type, payload) {
  if ((type !== 'game.create' && type !== 'game.join') || payload.contribution_commitment) return payload;
  if (type === 'game.create' && payload.play === false) return payload;
  try {
    return { ...payload, contribution_commitment: await newCommitment() };
  } catch {
    return payload;
  }
}

// Answers the reveal round's requests on one connection (./net.js calls it with every
// message): game.commit_request with a new commitment, game.reveal_request with the kept
// contribution. Returns nothing; a lost contribution is told as a 'contribution-lost' event on
// the connection ({game_id}).
export function answerRound(conn, msg) {
  if (msg.type === 'game.commit_request') commitAgain(conn, msg);
  else if (msg.type === 'game.reveal_request') reveal(conn, msg);
}

// The games whose last reveal request this browser could not answer, by connection: the
// request may come before the game's page is open (it is sent once, wherever the player is),
// so the page asks here when it opens.
const lostByConnection = new WeakMap();

export function contributionLostFor(conn, gameId) {
  const lost = lostByConnection.get(conn);
  return !!lost && lost.has(Number(gameId));
}

function noteLost(conn, gameId, isLost) {
  let lost = lostByConnection.get(conn);
  if (!lost) lostByConnection.set(conn, (lost = new Set()));
  if (isLost) lost.add(Number(gameId));
  else lost.delete(Number(gameId));
}

const busy = new Set(); // games with an answer under way

async function commitAgain(conn, msg) {
  const key = `c${msg.game_id}`;
  if (busy.has(key)) return;
  noteLost(conn, msg.game_id, false); // a new round: this browser commits afresh
  busy.add(key);
  try {
    const commitment = await newCommitment();
    // already_committed: another tab or device answered first; nothing to do.
    await conn.request('game.commit', { game_id: msg.game_id, contribution_commitment: commitment }).catch(() => {});
  } catch {
    // no hashing at all: the round's deadline will free the seat
  } finally {
    busy.delete(key);
  }
}

async function reveal(conn, msg) {
  const mine = msg.contribution_commitment;
  const key = `r${msg.game_id}:${mine}`;
  if (busy.has(key)) return;
  const list = Array.isArray(msg.contribution_commitments) ? msg.contribution_commitments : [];
  const contribution = keptContribution(mine);
  // Reveal only what the published list binds: our own commitment must be in it.
  if (!contribution || !list.includes(mine)) {
    noteLost(conn, msg.game_id, true);
    conn.dispatchEvent(new CustomEvent('contribution-lost', { detail: { game_id: msg.game_id } }));
    return;
  }
  noteLost(conn, msg.game_id, false);
  busy.add(key);
  keepInWitness(msg.game_id, list, contribution, mine);
  try {
    await conn.request('game.contribute', { game_id: msg.game_id, contribution });
  } catch {
    // refused (already revealed, the round ended): the server's next request says what to do
  } finally {
    busy.delete(key);
  }
}

// The witness (./witness.js) keeps what this client saw at the start: the commitments and its
// own contribution, to be checked against the record once the game is over.
// The list is in seat order, and the seats keep that order when the game starts: our place in
// it is our seat. A computer seat has no commitment (null), which a witness cannot hold: then the
// list is left out and only our own contribution is kept.
function keepInWitness(gameId, commitments, contribution, commitment) {
  const store = storage();
  if (!store) return;
  try {
    const witness = loadWitness(store, gameId) || newWitness({ gameId });
    witness.seat = commitments.indexOf(commitment);
    const complete = commitments.every((c) => typeof c === 'string');
    noteStart(witness, { contributionCommitments: complete ? commitments : undefined, contribution });
    saveWitness(store, witness);
  } catch {
    // storage full or refused: the witness is a help, never required
  }
}
