// Issue 12's lobby and game-over extras: running public games listed to watch (lobby.running),
// and a rematch at game over: same options, a new private game, its invitation passed on in
// the finished game's chat and taken from there by the other player.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gameState, waitForGameState, screenshotPath, useTable } from './lib/harness.js';

let server;
let browser;
let alice;
let bob;
let carol;
let gameId;

useTable(
  ['Alice', 'Bob', 'Carol'],
  (table) => {
    ({ server, browser } = table);
    [alice, bob, carol] = table.players;
  }, { signedIn: true },
);

test('a running public game is listed under "Games to watch" and opens as a spectator', async () => {
  await alice.page.check('#victory-doomsday');
  await alice.page.click('#optional-rules summary');
  await alice.page.check('#rule-terrain_leveling');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  // Open, not running yet: not listed to watch.
  await carol.page.reload();
  await carol.page.waitForSelector('#running-games .empty');
  const row = bob.page.locator(`#open-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  await row.locator('button', { hasText: 'Join' }).click();
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await carol.page.reload();
  const watch = carol.page.locator(`#running-games [data-game-id="${gameId}"]`);
  await watch.waitFor();
  assert.match(await watch.textContent(), /Alice vs Bob/);
  assert.match(await watch.textContent(), /Standard Conquest \+ Doomsday Clock · Standard tiles · Terrain Leveling \[15\.1\]/);
  await carol.page.screenshot({ path: screenshotPath('lobby-running.png') });
  await watch.click();
  await waitForGameState(carol.page, (s) => s.view.phase === 'setup');
  assert.equal((await gameState(carol.page)).you.seat, null, 'Carol watches without a seat');
});

test('rematch at game over: same options, a new game, the invitation taken from the chat', async () => {
  await bob.page.click('#concede');
  await bob.page.click('dialog.modal .btn-danger');
  await waitForGameState(alice.page, (s) => s.view.phase === 'game_over');
  const over = alice.page.locator('dialog.game-over');
  await over.waitFor();
  await alice.page.screenshot({ path: screenshotPath('game-over-rematch.png') });
  await over.locator('button:has-text("Rematch")').click();
  await alice.page.waitForURL((url) => /#\/game\/(\d+)$/.test(url.hash) && Number(url.hash.match(/(\d+)$/)[1]) !== gameId);
  const rematchId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await alice.page.waitForSelector('#waiting .seat-list');
  // Bob's page of the finished game shows the invitation in the chat, as a button.
  const join = bob.page.locator(`#chat [data-join-game="${rematchId}"]`);
  await join.waitFor();
  await bob.page.keyboard.press('Escape'); // his own game-over box
  await join.click();
  await bob.page.click('#accept-invite');
  await waitForGameState(bob.page, (s) => s.view.phase === 'setup');
  const state = await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  assert.notEqual(rematchId, gameId);
  assert.deepEqual(state.view.options.victory, ['standard', 'doomsday']);
  assert.equal(state.view.options.terrain_leveling, true);
  assert.equal((await gameState(bob.page)).you.seat, 1);
  // A spectator does not see the players' rematch button.
  assert.equal(await carol.page.locator('#rematch').count(), 0);
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
