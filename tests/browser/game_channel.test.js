// The client's GameChannel (web-client/js/net.js) in Node, fed the frames a server sends: a
// game.state that waits for its board must not lose the updates that come after it.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { GameChannel } from '../../web-client/js/net.js';

// A connection that answers every request and remembers what was asked.
function fakeConnection() {
  return {
    asked: [],
    request(type, payload) {
      this.asked.push({ type, payload });
      return Promise.resolve({});
    },
  };
}

const board = { id: 7, hexes: [{ hex: 0, q: 0, r: 0, label: 'A1', perimeter: false }, { hex: 1, q: 1, r: 0, label: 'B1', perimeter: true }] };
const bare = (turn) => ({ turn, hexes: [{ hex: 0 }, { hex: 1 }] });

test('updates that arrive while a game.state waits for its board are applied after it, in order', () => {
  const conn = fakeConnection();
  const channel = new GameChannel(conn, 5);
  channel.handle({ type: 'game.state', game_id: 5, seq: 0, board: 7, view: bare(1), legal: [] });
  assert.equal(channel.state, null, 'the view is held until its board is there');
  assert.deepEqual(conn.asked.map((a) => a.type), ['game.board']);
  channel.handle({ type: 'game.update', game_id: 5, seq: 1, delta: { set: { turn: 2 } }, legal: [{ kind: 'end_phase' }] });
  channel.handle({ type: 'game.update', game_id: 5, seq: 2, delta: { set: { turn: 3 } }, legal: [] });
  channel.handle({ type: 'game.board', game_id: 5, board });
  assert.equal(channel.seq, 2);
  assert.equal(channel.state.view.turn, 3);
  assert.equal(channel.state.view.hexes[1].label, 'B1');
  assert.deepEqual(conn.asked.map((a) => a.type), ['game.board'], 'no resync was needed');
});

test('a new game.state replaces the held one and the updates before it', () => {
  const conn = fakeConnection();
  const channel = new GameChannel(conn, 5);
  channel.handle({ type: 'game.state', game_id: 5, seq: 0, board: 7, view: bare(1), legal: [] });
  channel.handle({ type: 'game.update', game_id: 5, seq: 1, delta: { set: { turn: 2 } }, legal: [] });
  channel.handle({ type: 'game.state', game_id: 5, seq: 4, board: 7, view: bare(9), legal: [] });
  channel.handle({ type: 'game.board', game_id: 5, board });
  assert.equal(channel.seq, 4);
  assert.equal(channel.state.view.turn, 9);
});
