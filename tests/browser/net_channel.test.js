// The client's game channel (web-client/js/net.js) with live view deltas, without a browser:
// a delta is applied to the view of the seq before; a gap, or a delta that does not fit the
// view held, makes it ask for a full state (game.watch) and keep what it had meanwhile.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GameChannel } from '../../web-client/js/net.js';

// A connection that records the requests the channel makes.
function fakeConnection() {
  return {
    requests: [],
    request(type, payload) {
      this.requests.push({ type, ...payload });
      return new Promise(() => {}); // the answer arrives as messages, like the real one
    },
  };
}

const hex = (i, extra = {}) => ({ hex: i, q: i, r: -i, known: false, ...extra });
const fullState = (seq) => ({
  type: 'game.state',
  game_id: 7,
  seq,
  you: { seat: 0 },
  view: { viewer: 0, turn: 1, phase: 'setup', decider: 0, hexes: [hex(0), hex(1), hex(2)], units: [], players: [{ index: 0 }, { index: 1 }] },
  legal: [{ kind: 'end_phase' }],
  can_undo: false,
  log: [],
  chat: [],
});
const update = (seq, delta) => ({ type: 'game.update', game_id: 7, seq, delta, legal: [], can_undo: false, events: [], log: [{ seq, text: `line ${seq}` }] });

test('a delta changes the view of the seq before, and nothing else', () => {
  const conn = fakeConnection();
  const channel = new GameChannel(conn, 7);
  const seen = [];
  channel.addEventListener('state', (e) => seen.push(e.detail));
  channel.handle(fullState(4));
  const before = channel.state.view;
  channel.handle(update(5, { set: { turn: 2, decider: 1 }, hexes: [hex(1, { known: true, terrain: 'forest' })], units: [{ id: 3, owner: 0, place: 'map', hex: 1 }] }));
  assert.equal(channel.state.seq, 5);
  assert.equal(channel.state.view.turn, 2);
  assert.equal(channel.state.view.decider, 1);
  assert.deepEqual(channel.state.view.hexes[1], hex(1, { known: true, terrain: 'forest' }));
  assert.deepEqual(channel.state.view.hexes[0], hex(0));
  assert.deepEqual(channel.state.view.units, [{ id: 3, owner: 0, place: 'map', hex: 1 }]);
  assert.equal(before.turn, 1, 'the earlier view object is left as it was');
  assert.deepEqual(channel.state.log.map((l) => l.seq), [5]);
  assert.equal(seen.length, 2);
  assert.deepEqual(conn.requests, [], 'no full state was needed');
});

test('a delta that does not fit the view held asks for a full state and keeps the last good one', () => {
  const conn = fakeConnection();
  const channel = new GameChannel(conn, 7);
  channel.handle(fullState(4));
  channel.handle(update(5, { hexes: [hex(9, { known: true })] })); // no hex 9 on this board
  assert.equal(channel.state.seq, 4, 'the update was not taken');
  assert.equal(channel.state.view.hexes.length, 3);
  assert.deepEqual(conn.requests.map((r) => r.type), ['game.watch']);
  // Updates that arrive before the full state are dropped: the state will include them.
  channel.handle(update(6, { set: { turn: 5 } }));
  assert.equal(channel.state.seq, 4);
  channel.handle(fullState(6));
  assert.equal(channel.state.seq, 6);
  channel.handle(update(7, { set: { turn: 3 } }));
  assert.equal(channel.state.view.turn, 3);
});

test('a gap in the seqs asks for a full state instead of applying a delta to the wrong view', () => {
  const conn = fakeConnection();
  const channel = new GameChannel(conn, 7);
  channel.handle(fullState(4));
  channel.handle(update(6, { set: { turn: 9 } })); // seq 5 was lost
  assert.equal(channel.state.seq, 4);
  assert.equal(channel.state.view.turn, 1);
  assert.deepEqual(conn.requests.map((r) => r.type), ['game.watch']);
});

test('an update with a whole view replaces the view', () => {
  const conn = fakeConnection();
  const channel = new GameChannel(conn, 7);
  channel.handle(fullState(4));
  const view = { ...fullState(5).view, turn: 8 };
  channel.handle({ ...update(5, undefined), delta: undefined, view });
  assert.equal(channel.state.seq, 5);
  assert.deepEqual(channel.state.view, view);
  assert.deepEqual(conn.requests, []);
});
