// "Since your last turn" (game/catch_up.js, game.since): Bob leaves the game page; Alice moves
// and wins a battle with scripted dice and ends her turn; when Bob opens the game again the
// panel lists her turn (the move, the battle with its dice and result), her moves are drawn
// on the map as numbered arrows with a battle marker until he dismisses them, and pointing at
// or focusing a line (of the panel or of the log) outlines its hexes. Screenshots at desktop
// and phone width.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, signIn, gameState, waitForGameState, loadPosition, screenshotPath } from './lib/harness.js';

let server;
let browser;
let alice; // seat 0, Red
let bob; // seat 1, Yellow
let gameId;

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

// Red's Infantry in his Capital E3 and his Infantry on E5, next to Yellow's Infantry on E6
// (each Town supports one unit [8.2]). Red's die hits (2), Yellow's misses (6s).
const POSITION = {
  options: { players: 2 },
  phase: 'movement',
  turn: 3,
  current: 0,
  hexes: {
    E3: { terrain: 'plains', town: 0, capital: 0 },
    C3: { terrain: 'plains', town: 0 },
    E4: 'plains',
    E5: 'plains',
    E6: 'grassland',
    E7: { terrain: 'plains', town: 1, capital: 1 },
    C5: { terrain: 'plains', town: 1 },
  },
  units: ['0 infantry E3', '0 infantry E5', '1 infantry E6', '1 infantry E7'],
  dice: [2, 6, 6, 6, 6, 6, 6, 6],
};

const hexOf = (state, label) => state.view.hexes.find((x) => x.label === label).hex;
const sorted = (xs) => [...xs].sort((a, b) => a - b);

async function act(page, action) {
  const error = await page.evaluate((a) => window.__viktoryGame.channel.act(a).then(() => null, (e) => e.code || String(e)), action);
  assert.equal(error, null, `action ${JSON.stringify(action)} refused: ${error}`);
}

async function flashed(page) {
  return sorted(await page.$$eval('.flash-hex', (els) => els.map((e) => Number(e.dataset.flashHex))));
}

test('a game in the position, Bob away while Alice plays her turn with a battle', async () => {
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await bob.page.locator(`#open-games [data-game-id="${gameId}"] button`).click();
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await waitForGameState(bob.page, (s) => s.view.phase === 'setup');
  server = await loadPosition(server, gameId, POSITION, [alice, bob]);
  await waitForGameState(alice.page, (s) => s.view.phase === 'movement', undefined, 30000);
  await waitForGameState(bob.page, (s) => s.view.phase === 'movement', undefined, 30000);
  // Bob saw the position (seq 0), then leaves the game for the lobby.
  await bob.page.goto('/#/');
  await bob.page.waitForSelector('#create-form');

  let state = await gameState(alice.page);
  const unitAt = (label, type) => state.view.units.find((u) => u.hex === hexOf(state, label) && u.type === type).id;
  await act(alice.page, { kind: 'move', unit: unitAt('E3', 'infantry'), hex: hexOf(state, 'E4') });
  state = await waitForGameState(alice.page, (s) => s.seq === 1);
  await act(alice.page, { kind: 'move', unit: unitAt('E5', 'infantry'), hex: hexOf(state, 'E6') });
  state = await waitForGameState(alice.page, (s) => s.seq === 2 && s.legal.some((a) => a.kind === 'start_battle'));
  await act(alice.page, { kind: 'start_battle', hex: hexOf(state, 'E6') });
  // Then whatever the battle asks of Alice, and the end of her turn.
  for (let i = 0; i < 20; i += 1) {
    state = await gameState(alice.page);
    if (state.view.current === 1) break;
    if (state.view.decider !== 0) {
      state = await waitForGameState(alice.page, (s, seq) => s.seq > seq || s.view.decider === 0, state.seq);
      continue;
    }
    const next = ['continue_battle', 'choose_casualty', 'end_phase'].map((k) => state.legal.find((a) => a.kind === k)).find(Boolean);
    assert.ok(next, `Alice has something to do: ${JSON.stringify(state.legal)}`);
    await act(alice.page, next);
    await waitForGameState(alice.page, (s, seq) => s.seq > seq, state.seq);
  }
  state = await gameState(alice.page);
  assert.equal(state.view.current, 1, "Alice's turn is over");
});

test('coming back: the panel lists her turn, her moves are drawn, lines point out their hexes', async () => {
  const page = bob.page;
  await page.goto(`/#/game/${gameId}`);
  const panel = page.locator('#catch-up');
  await panel.waitFor();
  const state = await gameState(page);
  const [e3, e4, e5, e6] = ['E3', 'E4', 'E5', 'E6'].map((l) => hexOf(state, l));
  // The server's reply: every step since what this browser saw (seq 0), with Bob's events.
  const reply = bob.frames.filter((m) => m.type === 'game.since').pop();
  assert.equal(reply.since, 0);
  assert.equal(reply.to, state.seq);
  assert.equal(reply.steps.length, state.seq);

  assert.equal(await panel.locator('h2').textContent(), 'Since your last turn');
  assert.match(await panel.locator('h3').first().textContent(), /Alice \(Red\)/);
  const lines = await panel.locator('.catch-up-lines').first().locator(':scope > li').allTextContents();
  assert.ok(lines.some((l) => l.includes('1. Infantry moves: E3 → E4')), lines.join(' | '));
  assert.ok(lines.some((l) => l.includes('2. Infantry moves: E5 → E6')), lines.join(' | '));
  assert.ok(lines.some((l) => /Battle at E6: Alice \(Red\) attacks You: Alice \(Red\) took it/.test(l)), lines.join(' | '));
  assert.ok(lines.some((l) => /Lost: 1 Yellow Infantry/.test(l)), lines.join(' | '));
  // The battle's dice, in the battle view.
  await panel.locator('.catch-up-dice summary').click();
  const fires = await panel.locator('.catch-up-dice .fire-line').count();
  assert.ok(fires >= 1, 'the dice of the battle are listed');
  assert.match(await panel.locator('.catch-up-dice').textContent(), /Attacker \(Alice \(Red\)\)/);

  // Drawn on the map: numbered arrows and the battle.
  const arrows = await page.$$eval('.catch-up-move', (els) => els.map((e) => `${e.dataset.n}:${e.dataset.from}>${e.dataset.to}`));
  assert.deepEqual(arrows, [`1:${e3}>${e4}`, `2:${e5}>${e6}`]);
  assert.equal(await page.locator(`.catch-up-battle[data-hex="${e6}"]`).count(), 1);
  assert.match(await page.textContent('#catch-up-under-map'), /Since your last turn: 2 moves, 1 battle drawn on the map/);

  // Pointing at a line outlines its hexes; so does the keyboard focus.
  await panel.locator('li', { hasText: '1. Infantry moves' }).hover();
  assert.deepEqual(await flashed(page), sorted([e3, e4]));
  await page.mouse.move(5, 5);
  await panel.locator('li', { hasText: 'Battle at E6: Alice' }).focus();
  assert.deepEqual(await flashed(page), [e6]);
  await page.screenshot({ path: screenshotPath('since-last-turn.png') });

  // Log lines carry their hexes from the server and outline them.
  const logLine = page.locator('#log li', { hasText: 'moves from E5 to E6' });
  assert.equal(await logLine.getAttribute('data-hexes'), `${e5},${e6}`);
  await logLine.hover();
  assert.deepEqual(await flashed(page), sorted([e5, e6]));
  const fromServer = reply.steps.flatMap((s) => s.log).find((l) => l.text.includes('moves from E5 to E6'));
  assert.deepEqual(fromServer.hexes, [e5, e6]);
  await page.mouse.move(5, 5);

  // At phone width: no sideways scrolling, the line under the map says what is drawn.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(200);
  const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(scrollWidth <= 390, `no sideways scrolling (${scrollWidth})`);
  await page.locator('#catch-up-under-map').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('since-last-turn-phone-map.png') });
  await page.click('#catch-up-under-map button:has-text("List")');
  await page.waitForTimeout(400);
  await page.screenshot({ path: screenshotPath('since-last-turn-phone.png') });
  await page.setViewportSize({ width: 1400, height: 900 });

  // Dismissing removes the panel and the arrows; a reload does not bring them back.
  await page.click('#catch-up-dismiss');
  assert.equal(await page.locator('.catch-up-move').count(), 0);
  assert.equal(await page.locator('.catch-up-battle').count(), 0);
  assert.ok(await panel.isHidden());
  await page.reload();
  await waitForGameState(page, (s) => s.seq > 0);
  await page.waitForTimeout(500);
  assert.ok(await page.locator('#catch-up').isHidden(), 'nothing new since he last saw the game');
});

test('on another device (nothing remembered) it starts after his own last action', async () => {
  const page = bob.page;
  await page.evaluate((id) => localStorage.removeItem(`viktory.seen.${id}`), gameId);
  bob.frames.length = 0;
  await page.reload();
  await page.locator('#catch-up').waitFor();
  const reply = bob.frames.filter((m) => m.type === 'game.since').pop();
  assert.equal(reply.since, 0, 'Bob has not acted in this game');
  assert.ok(reply.steps.length > 0);
  await page.keyboard.press('Tab');
  await page.click('#catch-up-dismiss-map');
  assert.ok(await page.locator('#catch-up').isHidden());
});

test('no script errors on either page', () => {
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
