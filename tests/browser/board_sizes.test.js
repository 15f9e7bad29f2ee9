// Board size as a game option and 7-8 players [3.2] (docs/rules-notes.md, "Board sizes and 7-8
// players"): the create form offers both; a 2-player game on the largest board (217 hexes)
// renders whole and legible on a desktop and on a phone (390 px), nothing scrolls sideways, the
// options line names the board; an 8-player game's waiting room lists eight coloured seats and
// its game page eight players.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, signIn, gameState, waitForGameState, screenshotPath } from './lib/harness.js';
import { playUntil } from './lib/bot.js';

const PHONE = { width: 390, height: 844 };

let server;
let browser;
let desk;
let phone;

before(async () => {
  server = await startServer({ args: ['--computer-budget-ms', '20'] });
  browser = await launchBrowser();
  desk = await newPlayer(browser, server);
  phone = await newPlayer(browser, server, { viewport: PHONE, touch: true });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

async function noSideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
}

// The smallest on-screen distance between the centres of two neighbouring hexes, in px.
async function hexPitch(page) {
  return page.evaluate(() => {
    const tiles = [...document.querySelectorAll('.layer-tiles [data-hex]')].slice(0, 40);
    const boxes = tiles.map((el) => el.getBoundingClientRect());
    let best = Infinity;
    for (let i = 0; i < boxes.length; i += 1) {
      for (let j = i + 1; j < boxes.length; j += 1) {
        const dx = boxes[i].x + boxes[i].width / 2 - (boxes[j].x + boxes[j].width / 2);
        const dy = boxes[i].y + boxes[i].height / 2 - (boxes[j].y + boxes[j].height / 2);
        const d = Math.hypot(dx, dy);
        if (d > 1) best = Math.min(best, d);
      }
    }
    return best;
  });
}

test('the create form offers the board size and 7-8 players; 8 players only on 169 or 217 hexes', async () => {
  await signIn(desk, 'Desk');
  const seats = await desk.page.$$eval('#seats option', (os) => os.map((o) => o.value));
  assert.deepEqual(seats, ['2', '3', '4', '5', '6', '7', '8']);
  const boards = await desk.page.$$eval('#board_hexes option', (os) => os.map((o) => [o.value, o.textContent, o.disabled]));
  assert.deepEqual(boards.map((b) => b[0]), ['0', '61', '91', '127', '169', '217']);
  assert.equal(await desk.page.inputValue('#board_hexes'), '0', "the rules' size is the default");
  assert.equal(boards[5][1], '217 hexes');
  await desk.page.selectOption('#board_hexes', '91');
  await desk.page.selectOption('#seats', '8');
  const disabled = await desk.page.$$eval('#board_hexes option', (os) => os.filter((o) => o.disabled).map((o) => o.value));
  assert.deepEqual(disabled, ['61', '91', '127']);
  assert.equal(await desk.page.inputValue('#board_hexes'), '0', 'a board too small for 8 falls back to the default');
  // Eight seat choices: the creator's and seven more, the last two Orange and Purple.
  const seatNames = await desk.page.$$eval('#seat-kinds label span', (ss) => ss.map((s) => s.textContent));
  assert.deepEqual(seatNames.slice(-2), ['Orange', 'Purple']);
  assert.equal(seatNames.length, 7);
  await desk.page.selectOption('#seats', '2');
  assert.deepEqual(await desk.page.$$eval('#board_hexes option', (os) => os.filter((o) => o.disabled).length), 0);
});

test('2 players on the largest board (217 hexes): whole, legible and no sideways scrolling on desktop and phone', async () => {
  await signIn(phone, 'Pocket');
  await desk.page.goto('/');
  await desk.page.waitForSelector('#create-form');
  await desk.page.selectOption('#seats', '2');
  await desk.page.selectOption('#board_hexes', '217');
  await desk.page.check('#private');
  await desk.page.click('#create-game');
  await desk.page.waitForSelector('#waiting .seat-list');
  const summary = await desk.page.textContent('#waiting p.subtle');
  assert.match(summary, /217-hex board/);
  const link = await desk.page.inputValue('#invite-link');
  await phone.page.goto(link);
  await phone.page.waitForSelector('#accept-invite');
  assert.ok(await noSideways(phone.page), 'the invitation does not scroll sideways');
  await phone.page.click('#accept-invite');
  await waitForGameState(desk.page, (s) => s.view.phase === 'setup');
  const start = await gameState(desk.page);
  assert.equal(start.view.radius, 8);
  assert.equal(start.view.hexes.length, 217);
  assert.equal(start.view.options.board_hexes, 217);
  await playUntil([desk, phone], (ss) => ss.every((s) => s && s.view.turn >= 3), { avoidBattle: true });

  for (const [player, name, width] of [
    [desk, 'board-217-desktop.png', 1400],
    [phone, 'board-217-phone.png', PHONE.width],
  ]) {
    const { page } = player;
    const box = await page.locator('svg.board').boundingBox();
    assert.ok(box.width <= width, `${name}: map width ${box.width}`);
    assert.equal(await page.locator('.layer-tiles [data-hex]').count(), 217, `${name}: every hex drawn`);
    assert.ok(await noSideways(page), `${name}: the game page does not scroll sideways`);
    assert.match(await page.textContent('#game-options'), /217-hex board/);
    // Legible: neighbouring hexes at least 20 px apart (a fingertip) on the phone, 40 on a desktop.
    const pitch = await hexPitch(page);
    assert.ok(pitch >= (player === phone ? 20 : 40), `${name}: hexes ${pitch.toFixed(1)} px apart`);
    await page.screenshot({ path: screenshotPath(name) });
  }
  // Zoomed in (the map's own buttons), the phone's big map is as large as a small board's,
  // and still only the map pans: the page does not scroll sideways.
  const whole = await hexPitch(phone.page);
  await phone.page.locator('svg.board').scrollIntoViewIfNeeded();
  await phone.page.getByRole('button', { name: /zoom in/i }).click();
  await phone.page.getByRole('button', { name: /zoom in/i }).click();
  const zoomed = await hexPitch(phone.page);
  assert.ok(zoomed > whole * 1.8, `zoomed: ${zoomed.toFixed(1)} px, whole: ${whole.toFixed(1)} px`);
  assert.ok(await noSideways(phone.page), 'zoomed, the page does not scroll sideways');
  await phone.page.screenshot({ path: screenshotPath('board-217-phone-zoomed.png') });
  assert.deepEqual(desk.errors, []);
  assert.deepEqual(phone.errors, []);
});

test("an 8-player game: the waiting room's eight seats, the lobby's summary and the game's eight players", async () => {
  await desk.page.goto('/');
  await desk.page.waitForSelector('#create-form');
  await desk.page.selectOption('#seats', '8');
  await desk.page.click('#create-game');
  await desk.page.waitForSelector('#waiting .seat-list');
  const seats = await desk.page.$$eval('#waiting .seat-list li', (lis) => lis.map((li) => li.querySelector('b').textContent));
  assert.deepEqual(seats, ['Red', 'Yellow', 'Blue', 'Green', 'White', 'Black', 'Orange', 'Purple']);
  assert.match(await desk.page.textContent('#waiting p.subtle'), /8 seats|8 players/);
  assert.ok(await noSideways(desk.page));
  await desk.page.screenshot({ path: screenshotPath('eight-waiting.png') });
  // The phone finds it among the open games, with eight players named, and sees the seats too.
  await phone.page.goto('/');
  await phone.page.waitForSelector('#open-games');
  await phone.page.waitForFunction(() => /8 players/.test(document.querySelector('#open-games')?.textContent));
  assert.ok(await noSideways(phone.page), 'the lobby does not scroll sideways');
  await desk.page.click('#waiting .button-row button:not(.btn-primary)'); // cancel it

  // Eight players in play: the creator and seven computers, on the 217-hex board by default.
  await desk.page.goto('/');
  await desk.page.waitForSelector('#create-form');
  await desk.page.selectOption('#seats', '8');
  for (let seat = 1; seat < 8; seat += 1) await desk.page.selectOption(`#seat-kind-${seat}`, 'heuristic');
  await desk.page.click('#create-game');
  await waitForGameState(desk.page, (s) => s.view.players.length === 8, undefined, 30000);
  // Desk builds his Capital when his setup step comes; the seven computers theirs [4.0].
  const [state] = await playUntil([desk], ([s]) => s && s.view.turn >= 2, { avoidBattle: true, maxActions: 2000 });
  assert.equal(state.view.radius, 8);
  const panel = await desk.page.textContent('aside.side');
  for (const colour of ['Orange', 'Purple']) assert.match(panel, new RegExp(colour));
  assert.ok(await noSideways(desk.page));
  await desk.page.screenshot({ path: screenshotPath('eight-game.png') });
  assert.deepEqual(desk.errors, []);
});
