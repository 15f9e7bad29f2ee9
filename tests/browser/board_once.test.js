// The static board (hex coordinates, labels, perimeter) is sent once per game and connection
// ("game.board", docs/protocol.md) and the client merges it into every view: a page reloaded
// mid-game draws the whole map, a client that lost the board asks for it, and the replay page
// (whose pages carry the board) draws the map too.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useTable, gameState, waitForGameState } from './lib/harness.js';
import { playUntil } from './lib/bot.js';

let alice;
let bob;
let gameId;
useTable(['Alice', 'Bob'], ({ players }) => ([alice, bob] = players), { signedIn: true });

// Every frame of the game's type the page receives (and sends), from now on.
function recordFrames(page) {
  const frames = { received: [], sent: [] };
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => {
      try {
        frames.received.push(JSON.parse(f.payload));
      } catch {
        // not JSON: not ours
      }
    });
    ws.on('framesent', (f) => {
      try {
        frames.sent.push(JSON.parse(f.payload));
      } catch {
        // not JSON
      }
    });
  });
  return frames;
}

// What the map shows: one <g data-hex> per hex, with its label and the corners of its tile
// (NaN there when a hex had no coordinates).
async function drawnMap(page) {
  return page.evaluate(() =>
    [...document.querySelectorAll('svg.board g.hex[data-hex]')].map((g) => ({
      hex: Number(g.dataset.hex),
      label: g.dataset.label,
      points: (g.querySelector('polygon') || { getAttribute: () => '' }).getAttribute('points'),
    })),
  );
}

function assertWholeHexes(view) {
  assert.ok(view.hexes.length > 30);
  for (const h of view.hexes) {
    assert.ok(Number.isInteger(h.q) && Number.isInteger(h.r), `hex ${h.hex} has coordinates`);
    assert.equal(typeof h.label, 'string');
    assert.equal(typeof h.perimeter, 'boolean');
  }
}

test('a game under way', async () => {
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await bob.page.goto(`/#/game/${gameId}`);
  await bob.page.click('#join-game');
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await playUntil([alice, bob], (ss) => ss.every((s) => s && s.view.turn >= 1), { avoidBattle: true });
});

test('a page reloaded mid-game gets the board once, before the view, and draws the whole map', async () => {
  const before = await gameState(alice.page);
  const frames = recordFrames(alice.page);
  await alice.page.reload();
  const state = await waitForGameState(alice.page, (s, n) => s.seq === n, before.seq);
  const mine = frames.received.filter((m) => m.game_id === gameId);
  const boards = mine.filter((m) => m.type === 'game.board');
  assert.equal(boards.length, 1, 'the board once on the new connection');
  const firstView = mine.findIndex((m) => m.type === 'game.state');
  assert.ok(mine.indexOf(boards[0]) < firstView, 'the board before the first view');
  // The wire view leaves the board's fields out; the page's view has them back.
  assert.equal(mine[firstView].view.hexes[0].label, undefined);
  assert.equal(mine[firstView].board, boards[0].board.id);
  assertWholeHexes(state.view);
  assert.deepEqual(state.view, before.view, 'the same view as before the reload');
  const map = await drawnMap(alice.page);
  assert.equal(map.length, state.view.hexes.length);
  for (const g of map) {
    assert.equal(g.label, boards[0].board.hexes[g.hex].label);
    assert.ok(g.points.length > 0 && !/NaN/.test(g.points), `hex ${g.hex} is drawn`);
  }
  // Moves after the reload: deltas (without the board's fields) merged into whole hexes.
  await playUntil([alice, bob], (ss) => ss.every((s) => s && s.seq >= state.seq + 6), { avoidBattle: true });
  assertWholeHexes((await gameState(alice.page)).view);
  assert.equal(frames.received.filter((m) => m.type === 'game.board').length, 1, 'not sent again');
});

test('a client without the board asks for it (game.board) and shows the view with it', async () => {
  const frames = recordFrames(bob.page);
  await bob.page.reload();
  await waitForGameState(bob.page, (s) => s.view.hexes.length > 0);
  // Lose the board, then ask for a full state: the server does not send the board again on
  // this connection, so the client asks for it before it shows the view.
  const seq = (await gameState(bob.page)).seq;
  await bob.page.evaluate(() => {
    const channel = window.__viktoryGame.channel;
    channel.board = null;
    channel.state = null;
    channel.resync();
  });
  // The channel holds a state again once the board it asked for came and the held view was
  // merged with it.
  await bob.page.waitForFunction(() => window.__viktoryGame.channel.state !== null);
  const state = await bob.page.evaluate(() => window.__viktoryGame.channel.state);
  assert.ok(state.seq >= seq);
  assertWholeHexes(state.view);
  assert.ok(frames.sent.some((m) => m.type === 'game.board' && m.game_id === gameId), 'it asked');
  assert.equal(frames.received.filter((m) => m.type === 'game.board').length, 2);
  assert.deepEqual((await gameState(bob.page)).view, state.view, 'the page shows that view');
  assert.equal((await drawnMap(bob.page)).length, state.view.hexes.length);
});

test('the replay page, loaded on its own, draws the map from the board its pages carry', async () => {
  await bob.page.evaluate((id) => window.__viktory.conn.games.get(id).act({ kind: 'concede' }), gameId);
  await waitForGameState(alice.page, (s) => s.view.phase === 'game_over');
  const live = (await gameState(alice.page)).view;
  await alice.page.goto(`/#/replay/${gameId}`);
  await alice.page.reload();
  await alice.page.waitForSelector('#replay-counter');
  const first = await alice.page.evaluate(() => window.__viktoryReplay.currentView());
  assertWholeHexes(first);
  const map = await drawnMap(alice.page);
  assert.equal(map.length, first.hexes.length);
  assert.ok(map.every((g) => g.label === first.hexes[g.hex].label && g.points.length > 0 && !/NaN/.test(g.points)));
  const total = Number((await alice.page.textContent('#replay-counter')).match(/of (\d+)/)[1]);
  const last = await alice.page.evaluate(async (n) => {
    await window.__viktoryReplay.go(n);
    return window.__viktoryReplay.currentView();
  }, total);
  assertWholeHexes(last);
  assert.deepEqual(last, live, 'the replay ends with the view Alice saw live');
});

test('no script errors on either page', () => {
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
