// A game against a computer from the lobby's form: the seat is marked with its level, the
// computer plays its own moves (the server decides for it), and the player plays on.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, signIn, gameState, waitForGameState, screenshotPath } from './lib/harness.js';
import { playUntil } from './lib/bot.js';

let server;
let browser;
let alice;
let clockedGame;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  alice = await newPlayer(browser, server);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

// docs/ai.md, "Levels by rating": each level's choice names its rating on the ladder's scale, as
// the server computes it; a player with no two-player rating gets no chances, and is told so.
test('the create form names each computer level with its rating', async () => {
  await alice.page.goto('/');
  await signIn(alice, 'Alice');
  const help = alice.page.locator('#computer-levels-help');
  await help.waitFor();
  const levels = await alice.page.evaluate(async () => (await fetch('/api/computer-levels')).json());
  const byLevel = Object.fromEntries(levels.levels.map((l) => [l.level, l]));
  const options = await alice.page.$$eval('#seat-kind-1 option', (os) => Object.fromEntries(os.map((o) => [o.value, o.textContent])));
  assert.equal(options.heuristic, `Computer (fast) · rating ≈ ${Math.round(byLevel.heuristic.rating)}`);
  assert.equal(options.search, `Computer (strong) · rating ≈ ${Math.round(byLevel.search.rating)}`);
  assert.equal(options.random, `Computer (random moves) · rating under ${Math.ceil(byLevel.random.rating)}`);
  assert.equal(options.human, 'A person (invite or lobby)');
  assert.ok(byLevel.random.rating < byLevel.heuristic.rating && byLevel.heuristic.rating < byLevel.search.rating);
  assert.match(await help.textContent(), /ladder's scale.*an estimate.*You have no two-player rating yet\.$/);
  await alice.page.screenshot({ path: screenshotPath('create-computer-levels.png') });
});

// The same in German on a phone: the words from the catalog, the numbers the server's, and the
// long line below the choices wraps instead of widening the page.
test('a German phone names the levels with their ratings and does not scroll sideways', async () => {
  const phone = await newPlayer(browser, server, { viewport: { width: 390, height: 844 }, touch: true, locale: 'de-DE' });
  await phone.page.goto('/');
  await signIn(phone, 'Greta');
  const help = phone.page.locator('#computer-levels-help');
  await help.waitFor();
  const levels = await phone.page.evaluate(async () => (await fetch('/api/computer-levels')).json());
  const search = levels.levels.find((l) => l.level === 'search');
  const options = await phone.page.$$eval('#seat-kind-1 option', (os) => Object.fromEntries(os.map((o) => [o.value, o.textContent])));
  assert.equal(options.search, `Computer (stark) · Wertung ≈ ${Math.round(search.rating)}`);
  assert.match(await help.textContent(), /Skala der Rangliste.*Du hast noch keine Wertung zu zweit\.$/);
  const { scroll, width } = await phone.page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }));
  assert.ok(scroll <= width, `the page scrolls sideways: ${scroll} > ${width}`);
  await phone.page.locator('#seat-kinds').screenshot({ path: screenshotPath('create-computer-levels-de-phone.png') });
  assert.deepEqual(phone.errors, [], 'no script errors');
  await phone.context.close();
});

test('the lobby creates a game against a computer, which plays its own moves', async () => {
  await alice.page.goto('/');
  await alice.page.waitForSelector('#create-form');
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
  // The computer placed its own Capital [4.0] and played its turns (turn 3 is Alice's again
  // only after the computer's turn 2).
  assert.ok(state.view.players[1].capital_hex >= 0, 'the computer placed its Capital');
  assert.ok(state.view.turn >= 3);
});

test('a game with a clock shows the time left on the game page and in the lobby', async () => {
  await alice.page.goto('/');
  await alice.page.waitForSelector('#create-form');
  await alice.page.selectOption('#seat-kind-1', 'heuristic');
  await alice.page.selectOption('#clock_per_move', '300');
  assert.equal(await alice.page.isVisible('#clock_bank'), true, 'the clock details appear');
  await alice.page.selectOption('#clock_bank', '600');
  await alice.page.click('#create-game');
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  // Whoever places a Capital first, Alice's clock runs when it is her decision.
  await waitForGameState(alice.page, (s) => s.view.decider === s.you.seat);
  const left = alice.page.locator('#clock-left');
  await left.waitFor();
  // Players are named as everywhere on the page, never by colour alone.
  assert.match(await left.textContent(), /^You: 1[45] min( \d+ s)? left$/);
  // The players list: her time left, ticking; the computer's seat has no clock but its level.
  const mine = alice.page.locator('.player[data-seat="0"] .seat-clock');
  await mine.waitFor();
  assert.match(await mine.textContent(), /^1[45] min( \d+ s)? left/);
  assert.equal(await alice.page.locator('.player[data-seat="1"] .seat-clock').count(), 0);
  assert.match(await alice.page.locator('.player[data-seat="1"] .tag-computer').textContent(), /computer · fast/);
  // Named as the create form names it, not by the server's level word ("heuristic").
  assert.equal(await alice.page.locator('.player[data-seat="1"] .who b').textContent(), 'Computer (fast)');
  await alice.page.screenshot({ path: screenshotPath('game-clock-computer.png') });
  clockedGame = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await alice.page.goto('/');
  const tag = alice.page.locator(`#my-games [data-game-id="${clockedGame}"] .clock-left`);
  await tag.waitFor();
  assert.match(await tag.textContent(), /^1[45] min( \d+ s)? left$/);
  // "Your move" games come first.
  const first = alice.page.locator('#my-games .game-row').first();
  assert.match(await first.getAttribute('class'), /your-turn/);
  await alice.page.screenshot({ path: screenshotPath('lobby-clocks.png') });
});

test('a rematch keeps the computer seats and the clock', async () => {
  await alice.page.goto(`/#/game/${clockedGame}`);
  const state = await waitForGameState(alice.page, (s) => s.view.phase !== undefined);
  // Her Capital on the map first: conceding takes it off with her pieces.
  const capital = state.legal.find((a) => a.kind === 'place_capital');
  if (capital) {
    const refused = await alice.page.evaluate((a) => window.__viktoryGame.channel.act(a).then(() => null, (e) => e.code), capital);
    assert.equal(refused, null);
    await waitForGameState(alice.page, (s) => s.view.players[0].capital_hex >= 0);
  }
  await alice.page.click('#concede');
  await alice.page.click('dialog.modal .btn-danger');
  await waitForGameState(alice.page, (s) => s.view.phase === 'game_over');
  // Out of the game, her Capital is no "capital lost".
  await alice.page.locator('.player[data-seat="0"] .tag-out').waitFor();
  assert.equal(await alice.page.locator('.player[data-seat="0"] .tag-warn', { hasText: 'capital lost' }).count(), 0);
  const over = alice.page.locator('dialog.game-over');
  await over.waitFor();
  await over.locator('button:has-text("Rematch")').click();
  await alice.page.waitForURL((url) => /#\/game\/(\d+)$/.test(url.hash) && Number(url.hash.match(/(\d+)$/)[1]) !== clockedGame);
  // The computer fills the other seat again: the new game starts at once, with its clock.
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  const tag = alice.page.locator('.player[data-seat="1"] .tag-computer');
  await tag.waitFor();
  assert.match(await tag.textContent(), /computer · fast/);
  await alice.page.locator('#clock').waitFor();
  const options = await alice.page.evaluate(() => window.__viktoryGame.clock.options);
  assert.equal(options.per_move_seconds, 300);
  assert.equal(options.bank_seconds, 600);
});

test('a player declares vacation: his seat says until when, the game log says so too', async () => {
  await alice.page.goto('/');
  await alice.page.waitForSelector('#create-form');
  await alice.page.selectOption('#seat-kind-1', 'heuristic');
  await alice.page.selectOption('#clock_per_move', String(86400));
  await alice.page.selectOption('#clock_vacation', '3');
  await alice.page.click('#create-game');
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await alice.page.locator('#declare-vacation').waitFor();
  assert.match(await alice.page.locator('#declare-vacation').textContent(), /3 days left/);
  await alice.page.selectOption('#vacation-days', '2');
  await alice.page.click('#declare-vacation');
  await alice.page.locator('#my-vacation').waitFor();
  const note = alice.page.locator('.player[data-seat="0"] .vacation-note');
  assert.equal(await alice.page.locator('.player[data-seat="1"] .vacation-note').count(), 0);
  await note.waitFor();
  assert.match(await note.textContent(), /on vacation until/);
  const line = alice.page.locator('#log li.log-clock', { hasText: 'on vacation for 2 days' });
  await line.waitFor();
  assert.match(await line.textContent(), /^Clock: Alice \(Red\) is on vacation for 2 days, until [A-Z][a-z]{2} \d{1,2}, \d{4}, \d\d:\d\d [AP]M [\w+:-]+\.$/, 'the moment in the reader\'s own time zone');
  await alice.page.screenshot({ path: screenshotPath('game-vacation.png') });
});
