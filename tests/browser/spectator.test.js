// Spectators and invitations in the browser: a spectator writes to the spectators' chat, which
// the players' pages never receive; the creator of a private game makes a new invitation link,
// after which the old one leads nowhere.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitForGameState, useTable } from './lib/harness.js';

let server;
let browser;
let alice;
let bob;
let carol;

useTable(
  ['Alice', 'Bob', 'Carol'],
  (table) => {
    ({ server, browser } = table);
    [alice, bob, carol] = table.players;
  }, { signedIn: true },
);

const chatTexts = (player) => player.frames.filter((f) => f.type === 'chat').map((f) => f.text);

test('a spectator writes to the spectators; the players never get it', async () => {
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  const row = bob.page.locator(`#open-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  await row.locator('button', { hasText: 'Join' }).click();
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');

  await carol.page.goto(`/#/game/${gameId}`);
  await waitForGameState(carol.page, (s) => s.you.seat === null);
  assert.match(await carol.page.textContent('#chat-title'), /spectators/);
  assert.equal(await alice.page.textContent('#chat-title'), 'Chat');

  const tip = 'Bob, her capital is empty!';
  await carol.page.fill('#chat-input', tip);
  await carol.page.press('#chat-input', 'Enter');
  await carol.page.waitForFunction((t) => [...document.querySelectorAll('#chat .chat-text')].some((e) => e.textContent === t), tip);
  assert.match(await carol.page.textContent('#chat li.chat-spectator'), /\(spectator\)/);
  // A players' line after it: once the players have it, they would have had the tip too.
  await alice.page.fill('#chat-input', 'good luck');
  await alice.page.press('#chat-input', 'Enter');
  await bob.page.waitForFunction(() => [...document.querySelectorAll('#chat .chat-text')].some((e) => e.textContent === 'good luck'));
  await carol.page.waitForFunction(() => [...document.querySelectorAll('#chat .chat-text')].some((e) => e.textContent === 'good luck'));
  for (const player of [alice, bob]) {
    assert.ok(!chatTexts(player).includes(tip), 'a player received the spectators\' chat');
    assert.ok(!player.rawFrames.some((f) => f.includes(tip)));
  }
});

test('the creator of a private game makes a new invitation link; the old one stops working', async () => {
  await alice.page.goto('/');
  await alice.page.waitForSelector('#create-form');
  await alice.page.check('#private');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#invite-link');
  const oldLink = await alice.page.inputValue('#invite-link');
  await alice.page.click('#new-invite');
  await alice.page.click('dialog.modal .btn-primary');
  await alice.page.waitForFunction((old) => document.getElementById('invite-link').value !== old, oldLink);
  const newLink = await alice.page.inputValue('#invite-link');
  assert.match(newLink, /#\/join\/\d+\/[0-9a-f]{32}$/);

  // The invitation page: the old code is refused like a game that does not exist; the new
  // one shows the game, and Take a seat joins it.
  await carol.page.goto(oldLink);
  await carol.page.waitForSelector('#invite-error');
  assert.match(await carol.page.textContent('#invite-error'), /invitation is not valid/);
  await bob.page.goto(newLink);
  await bob.page.click('#accept-invite');
  await waitForGameState(bob.page, (s) => s.you.seat === 1);
});

test('no script errors on any page', () => {
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
  assert.deepEqual(carol.errors, []);
});
