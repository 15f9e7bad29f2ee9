// A game against a computer from the lobby's form: the seat is marked with its level, the
// computer plays its own moves (the server decides for it), and the player plays on.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, signIn, gameState, waitForGameState } from './lib/harness.js';
import { playUntil } from './lib/bot.js';

let server;
let browser;
let alice;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  alice = await newPlayer(browser, server);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('the lobby creates a game against a computer, which plays its own moves', async () => {
  await alice.page.goto('/');
  await signIn(alice, 'Alice');
  // Seat 2 of a 2-player game: a computer of the fast level.
  await alice.page.selectOption('#seat-kind-1', 'heuristic');
  // Changing the number of seats keeps the choices made and adds the new seats.
  await alice.page.selectOption('#seats', '3');
  assert.equal(await alice.page.inputValue('#seat-kind-1'), 'heuristic');
  assert.equal(await alice.page.inputValue('#seat-kind-2'), 'human');
  await alice.page.selectOption('#seats', '2');
  assert.equal(await alice.page.locator('#seat-kind-2').count(), 0);
  await alice.page.click('#create-game');
  // Every other seat is a computer's: the game starts at once.
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  const start = await gameState(alice.page);
  assert.equal(start.you.seat, 0);
  const tag = alice.page.locator('.player[data-seat="1"] .tag-computer');
  await tag.waitFor();
  assert.match(await tag.textContent(), /computer · fast/);
  assert.equal(await alice.page.locator('.player[data-seat="0"] .tag-computer').count(), 0);
  // Alice plays through her page; the computer answers by itself, up to the second turn.
  const [state] = await playUntil([alice], ([s]) => s && s.view.turn >= 3, { maxActions: 400 });
  assert.ok(state.seq > start.seq);
  const replay = await alice.page.evaluate(async (id) => {
    const session = JSON.parse(localStorage.getItem('viktory.session'));
    const r = await fetch(`/api/games/${id}/replay?seat=0`, { headers: { Authorization: `Bearer ${session.token}` } });
    return r.json();
  }, Number(alice.page.url().match(/#\/game\/(\d+)/)[1]));
  const bySeat = new Set(replay.steps.map((s) => s.action.player));
  assert.ok(bySeat.has(1), 'the computer took actions of its own');
});
