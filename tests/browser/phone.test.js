// A phone-sized screen: the map renders whole and scaled, panels stack, taps select units. On a
// touch screen the page says "tap", not "click", and names no keys; a question left open when
// the player goes back to the lobby closes.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import {
  startServer,
  launchBrowser,
  newPlayer,
  signIn,
  gameState,
  waitForGameState,
  screenshotPath,
} from './lib/harness.js';
import { playUntil } from './lib/bot.js';

const PHONE = { width: 390, height: 844 };

let server;
let browser;
let phone;
let desk;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  phone = await newPlayer(browser, server, { viewport: PHONE });
  desk = await newPlayer(browser, server);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

async function noSideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

test('phone: lobby and game fit the screen; the map shows every hex', async () => {
  await signIn(phone, 'Pocket');
  assert.ok(await noSideways(phone.page), 'the lobby does not scroll sideways');
  await signIn(desk, 'Desk');
  // A private game: the other player comes in through the invitation link.
  await phone.page.check('#private');
  await phone.page.click('#create-game');
  await phone.page.waitForSelector('#waiting .seat-list');
  assert.ok(await noSideways(phone.page), 'the waiting room does not scroll sideways');
  const link = await phone.page.inputValue('#invite-link');
  assert.match(link, /#\/join\/\d+\/\w+/);
  const gameId = Number(link.match(/#\/join\/(\d+)\//)[1]);
  // Without the invitation the private game is not listed for others, nor shown.
  await desk.page.waitForSelector('#open-games .empty');
  await desk.page.goto(`/#/game/${gameId}`);
  await desk.page.waitForSelector('#game-error');
  // The invitation page says who invites to what; the seat is taken with its button.
  await desk.page.goto(link);
  await desk.page.waitForSelector('#invite-title');
  assert.equal(await desk.page.textContent('#invite-title'), `Pocket invites you to game ${gameId}`);
  await desk.page.click('#accept-invite');
  await waitForGameState(phone.page, (s) => s.view.phase === 'setup');
  await playUntil([phone, desk], (ss) => ss.every((s) => s && s.view.turn >= 2), { avoidBattle: true });

  const state = await gameState(phone.page);
  const box = await phone.page.locator('svg.board').boundingBox();
  assert.ok(box.width >= PHONE.width - 40 && box.width <= PHONE.width, `map width ${box.width}`);
  assert.ok(box.height > 200, `map height ${box.height}`);
  const hexes = await phone.page.locator('.layer-tiles [data-hex]').count();
  assert.equal(hexes, state.view.hexes.length);
  assert.ok(await noSideways(phone.page), 'the game page does not scroll sideways');
  // Panels stack under the map instead of beside it.
  const side = await phone.page.locator('aside.side').boundingBox();
  assert.ok(side.y > box.y + box.height - 1, 'side panels are below the map');

  await phone.page.screenshot({ path: screenshotPath('phone.png') });
  assert.deepEqual(phone.errors, []);
});

test('a touch screen is told to tap; a question closes when the player goes back', async () => {
  const thumb = await newPlayer(browser, server, { viewport: PHONE, touch: true });
  await signIn(thumb, 'Thumb');
  await thumb.page.selectOption('#seat-kind-1', 'random');
  await thumb.page.click('#create-game');
  const state = await waitForGameState(thumb.page, (s) => s.view.phase === 'setup' && s.view.decider === s.you.seat && s.legal.some((a) => a.kind === 'place_capital'));
  assert.equal(await thumb.page.textContent('#prompt-title'), 'Place your Capital');
  assert.equal(await thumb.page.textContent('#prompt .prompt-text'), 'Tap one of the highlighted hexes (★).');
  assert.equal(await thumb.page.textContent('#hover-info'), 'Tap a hex to see what is there.');
  // The page itself says nothing of clicking or of keys (screen-reader help aside).
  const said = await thumb.page.evaluate(() => [...document.querySelectorAll('#prompt, #hover-info, #selection, #catch-up')].map((e) => e.textContent).join(' '));
  assert.doesNotMatch(said, /\b[Cc]lick|\bTab\b/);

  // A question open over the map, then Back: it goes with the page it belonged to.
  const hex = state.legal.find((a) => a.kind === 'place_capital').hex;
  await thumb.page.evaluate((h) => {
    window.__viktoryGame.onHexClick(h); // asks first: not awaited
  }, hex);
  await thumb.page.waitForSelector('dialog.modal');
  await thumb.page.goBack();
  await thumb.page.waitForSelector('#create-form');
  assert.equal(await thumb.page.locator('dialog').count(), 0, 'no dialog over the lobby');
  assert.deepEqual(thumb.errors, []);
});
