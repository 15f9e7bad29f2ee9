// Chat comforts (issue 22): Alice writes in the players' chat; Bob (on a phone, 390x844) sees
// an unread mark on the game in his lobby's "Your games", and it goes away once the chat has
// been on his screen. Bob mutes Alice from her name in the chat: her lines vanish, and new
// ones never come; unmuting her on the account page brings them back.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, signIn, waitForGameState, screenshotPath, sleep } from './lib/harness.js';

let server;
let browser;
let alice;
let bob;
let gameId;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  alice = await newPlayer(browser, server);
  bob = await newPlayer(browser, server, { viewport: { width: 390, height: 844 }, touch: true });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

async function say(player, text) {
  await player.page.fill('#chat-input', text);
  await player.page.press('#chat-input', 'Enter');
  await player.page.waitForFunction((t) => [...document.querySelectorAll('#chat .chat-text')].some((e) => e.textContent === t), text);
}

// The unread tag of the game in Bob's "Your games", after the lobby is loaded afresh.
async function bobsUnreadTag() {
  await bob.page.goto('/#/');
  await bob.page.reload();
  await bob.page.waitForSelector(`.game-row[data-game-id="${gameId}"]`);
  return bob.page.evaluate((id) => document.querySelector(`.game-row[data-game-id="${id}"] .tag-chat`)?.textContent ?? null, gameId);
}

const chatTexts = (page) => page.evaluate(() => [...document.querySelectorAll('#chat .chat-text')].map((e) => e.textContent));

test('a game between Alice and Bob', async () => {
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await bob.page.goto(`/#/game/${gameId}`);
  await bob.page.click('#join-game');
  await waitForGameState(bob.page, (s) => s.view.phase === 'setup');
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await bob.page.goto('/#/');
  assert.equal(await bobsUnreadTag(), null);
});

test('Alice\'s lines are unread for Bob until the chat is on his screen', async () => {
  await say(alice, 'Hello Bob');
  await say(alice, 'Good luck');
  assert.equal(await bobsUnreadTag(), '2 new messages');
  await bob.page.locator(`.game-row[data-game-id="${gameId}"]`).scrollIntoViewIfNeeded();
  await bob.page.screenshot({ path: screenshotPath('chat-unread-lobby-phone.png') });
  await alice.page.screenshot({ path: screenshotPath('chat-alice-desktop.png') });
  // On the phone the chat sits below the map: opening the game is not reading it yet.
  await bob.page.goto(`/#/game/${gameId}`);
  await waitForGameState(bob.page, (s) => s.chat.length === 2);
  await sleep(500);
  assert.equal(await bobsUnreadTag(), '2 new messages');
  await bob.page.goto(`/#/game/${gameId}`);
  await waitForGameState(bob.page, (s) => s.chat.length === 2);
  await bob.page.locator('#chat').scrollIntoViewIfNeeded();
  await sleep(500);
  assert.equal(await bobsUnreadTag(), null);
  // Bob's own lines are never unread for him.
  await bob.page.goto(`/#/game/${gameId}`);
  await waitForGameState(bob.page, (s) => s.chat.length === 2);
  await bob.page.locator('#chat-input').scrollIntoViewIfNeeded();
  await say(bob, 'Thanks');
  await sleep(300);
  assert.equal(await bobsUnreadTag(), null);
});

test('Bob mutes Alice from her name: her lines vanish and new ones never come', async () => {
  await bob.page.goto(`/#/game/${gameId}`);
  await waitForGameState(bob.page, (s) => s.chat.length === 3);
  await bob.page.locator('#chat').scrollIntoViewIfNeeded();
  await bob.page.locator('#chat .chat-name').first().click();
  await bob.page.waitForSelector('#chat .chat-mute:visible');
  await bob.page.screenshot({ path: screenshotPath('chat-mute-menu-phone.png') });
  await bob.page.locator('#chat .chat-mute:visible').first().click();
  await bob.page.waitForFunction(() => ![...document.querySelectorAll('#chat .chat-text')].some((e) => e.textContent === 'Hello Bob'));
  assert.deepEqual(await chatTexts(bob.page), ['Thanks']);
  await say(alice, 'Are you there?');
  await sleep(700);
  assert.deepEqual(await chatTexts(bob.page), ['Thanks']);
  assert.equal(await bobsUnreadTag(), null, 'a muted player\'s lines are not unread');
  // Also after a reload: the server filtered them.
  await bob.page.goto(`/#/game/${gameId}`);
  await waitForGameState(bob.page, (s) => s.chat.length === 1);
  assert.deepEqual(await chatTexts(bob.page), ['Thanks']);
  assert.equal((await chatTexts(alice.page)).length, 4);
});

test('unmute on the account page brings her lines back', async () => {
  await bob.page.goto('/#/account');
  await bob.page.waitForSelector('#muted-players li');
  await bob.page.locator('#muted-players').scrollIntoViewIfNeeded();
  assert.match(await bob.page.textContent('#muted-players li'), /Alice/);
  await bob.page.screenshot({ path: screenshotPath('chat-muted-account-phone.png') });
  await bob.page.click('#muted-players .unmute');
  await bob.page.waitForSelector('#muted-players li', { state: 'detached' });
  await bob.page.goto(`/#/game/${gameId}`);
  await waitForGameState(bob.page, (s) => s.chat.length === 4);
  assert.deepEqual(await chatTexts(bob.page), ['Hello Bob', 'Good luck', 'Thanks', 'Are you there?']);
});
