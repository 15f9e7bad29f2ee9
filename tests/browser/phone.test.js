// A phone-sized screen: the map renders whole and scaled, panels stack, taps select units.

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
