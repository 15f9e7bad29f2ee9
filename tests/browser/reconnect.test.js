// Connection loss: the page shows that it is reconnecting, comes back by itself (also after a
// server restart) and catches up on moves it missed.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, signIn, gameState, waitForGameState } from './lib/harness.js';
import { playUntil, pickAction } from './lib/bot.js';
import { withBoard } from '../../web-client/js/board_data.js';

let server;
let browser;
let alice;
let bob;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  alice = await newPlayer(browser, server);
  bob = await newPlayer(browser, server);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

async function recordStatuses(page) {
  await page.evaluate(() => {
    window.__statuses = [];
    window.__viktory.conn.addEventListener('status', (e) => window.__statuses.push(e.detail.status));
  });
}

// One action by whoever decides now, through his page.
async function oneAction() {
  const states = await Promise.all([gameState(alice.page), gameState(bob.page)]);
  const k = states.findIndex((s) => s.view.decider === s.you.seat);
  const action = pickAction(states[k], { avoidBattle: true });
  await [alice, bob][k].page.evaluate((a) => window.__viktoryGame.channel.act(a), action);
  return states[k].seq + 1;
}

async function sameSeq(seq) {
  await waitForGameState(alice.page, (s, n) => s.seq === n, seq);
  await waitForGameState(bob.page, (s, n) => s.seq === n, seq);
}

test('a game to play in', async () => {
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await bob.page.goto(`/#/game/${gameId}`);
  await bob.page.click('#join-game');
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await playUntil([alice, bob], (ss) => ss.every((s) => s && s.view.turn >= 1), { avoidBattle: true });
});

test('a dropped socket reconnects by itself and the indicator shows it', async () => {
  await recordStatuses(alice.page);
  await alice.page.evaluate(() => window.__viktory.conn.ws.close());
  await alice.page.waitForFunction(() => window.__statuses.includes('reconnecting'));
  await alice.page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'online');
  const seq = await oneAction();
  await sameSeq(seq);
});

test('a lost update is noticed by its seq and the page resynchronises', async () => {
  // Bob will act; Alice's page pretends one update never arrived: its seq falls one behind.
  await playUntil([alice, bob], (ss) => ss[1] && ss[1].view.decider === ss[1].you.seat && ss[0].seq === ss[1].seq, { avoidBattle: true });
  await alice.page.evaluate(() => {
    window.__viktoryGame.channel.state.seq -= 1;
  });
  const framesBefore = alice.frames.length;
  const seq = await oneAction();
  await sameSeq(seq);
  const later = alice.frames.slice(framesBefore);
  assert.ok(later.some((f) => f.type === 'game.state' && f.seq === seq), 'a full game.state was fetched after the gap');
  const a = await gameState(alice.page);
  const b = await gameState(bob.page);
  assert.deepEqual(a.view.units, b.view.units, 'both pages show the same pieces again');
});

test('updates carry view deltas, and the views they build equal the server\'s full state', async () => {
  const framesBefore = alice.frames.length;
  for (let i = 0; i < 4; i += 1) {
    const seq = await oneAction();
    await sameSeq(seq);
  }
  const updates = alice.frames.slice(framesBefore).filter((f) => f.type === 'game.update');
  assert.ok(updates.length >= 4, 'the page got the updates');
  for (const u of updates) {
    assert.equal(typeof u.delta, 'object', 'an update carries a delta');
    assert.equal(u.view, undefined, 'not the whole view');
  }
  // A fresh full state from the server: the view the page built from deltas is exactly it.
  const built = await gameState(alice.page);
  const full = await alice.page.evaluate(async (gameId) => {
    const { seen } = await window.__viktory.conn.request('game.watch', { game_id: gameId });
    return seen.filter((m) => m.type === 'game.state').pop();
  }, built.game_id);
  assert.equal(full.seq, built.seq);
  // The server's view leaves out the static board's fields (sent once per connection as
  // game.board); the page's view has them merged back.
  const board = alice.frames.filter((f) => f.type === 'game.board' && f.game_id === built.game_id).pop();
  assert.ok(board, 'the page got the board');
  assert.equal(full.view.hexes[0].label, undefined);
  assert.deepEqual(built.view, withBoard(full.view, board.board));
});

test('the server restarts: pages show "reconnecting…", come back and get the moves', async () => {
  const port = server.port;
  const dir = server.dir;
  const before = (await gameState(alice.page)).seq;
  await server.stop({ keepDir: true });
  await alice.page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'reconnecting');
  const label = await alice.page.textContent('#conn-status');
  assert.match(label, /reconnecting/);
  assert.ok(await alice.page.evaluate(() => document.body.classList.contains('disconnected')));
  server = await startServer({ port, dir });
  for (const p of [alice, bob]) {
    await p.page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'online', null, { timeout: 30000 });
  }
  await sameSeq(before);
  const seq = await oneAction();
  await sameSeq(seq);
});

test('moves made while a page was offline arrive when it is back', async () => {
  await playUntil([alice, bob], (ss) => ss[1] && ss[1].view.decider === ss[1].you.seat && ss[0].seq === ss[1].seq, { avoidBattle: true });
  const before = (await gameState(alice.page)).seq;
  await alice.context.setOffline(true);
  // Make sure the page's socket is really gone (offline emulation may keep it open).
  await alice.page.evaluate(() => window.__viktory.conn.ws && window.__viktory.conn.ws.close());
  await alice.page.waitForFunction(() => document.getElementById('conn-status').dataset.status !== 'online');
  let seq = 0;
  for (let i = 0; i < 3; i += 1) {
    const bobState = await gameState(bob.page);
    if (bobState.view.decider !== bobState.you.seat) break;
    seq = await (async () => {
      const action = pickAction(bobState, { avoidBattle: true });
      await bob.page.evaluate((a) => window.__viktoryGame.channel.act(a), action);
      return bobState.seq + 1;
    })();
  }
  await alice.context.setOffline(false);
  await alice.page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'online', null, { timeout: 30000 });
  const bobSeq = (await gameState(bob.page)).seq;
  assert.ok(seq > before, 'Bob moved while Alice was offline');
  assert.ok(bobSeq >= seq);
  await sameSeq(bobSeq);
  assert.deepEqual(alice.errors, []);
});
