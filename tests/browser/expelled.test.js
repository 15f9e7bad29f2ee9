// An absent player skipped, expelled and played for by the computer (issue 20): the create form
// chooses how many skipped turns lead to a vote (1 here) and that the computer takes an expelled
// player's seat; the clock box shows both; the skip and the vote each ask first and say what
// follows; when Bob comes back, "Since your last turn" tells his own seat's story: the skipped
// turn, the vote and the expulsion (the clock's lines about him) and the turn the computer
// played for him. His deadline is made to pass by the server's own restart (a deadline that
// passed while it was down is acted upon at the start). Screenshots at 1366 and 390 px.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, launchBrowser, newPlayer, signIn, gameState, waitForGameState, screenshotPath, sleep } from './lib/harness.js';
import { playUntil } from './lib/bot.js';

let server;
let browser;
let alice; // seat 0, Red
let bob; // seat 1, Yellow
let gameId;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  alice = await newPlayer(browser, server, { viewport: { width: 1366, height: 900 } });
  bob = await newPlayer(browser, server, { viewport: { width: 1366, height: 900 } });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

async function act(page, action) {
  const error = await page.evaluate((a) => window.__viktoryGame.channel.act(a).then(() => null, (e) => e.code || String(e)), action);
  assert.equal(error, null, `action ${JSON.stringify(action)} refused: ${error}`);
}

// Stops the server, moves the running clock's deadline into the past, starts it again: it finds
// the seat over time at once. The pages reconnect.
async function passDeadline() {
  await server.stop({ keepDir: true });
  execFileSync('sqlite3', ['-bail', server.db], {
    input: `UPDATE game_clocks SET state = json_set(state, '$.deadline', 2000, '$.remind_at', 1000), due = 1000 WHERE game_id = ${gameId};`,
  });
  server = await startServer({ port: server.port, dir: server.dir });
  for (const p of [alice, bob]) {
    await p.context.setOffline(true);
    await p.context.setOffline(false);
  }
}

async function noSideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test('the create form chooses the skips before a vote; Bob leaves while his Capital is due', async () => {
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');
  await alice.page.selectOption('#clock_per_move', '120');
  await alice.page.selectOption('#clock_skips', '1');
  assert.equal(await alice.page.locator('#clock_skips option:checked').textContent(), 'after 1 skipped turn');
  await alice.page.selectOption('#clock_expel', 'computer');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await bob.page.locator(`#open-games [data-game-id="${gameId}"] button`).click();
  let state = await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await waitForGameState(bob.page, (s) => s.view.phase === 'setup');
  if (state.view.decider === 0) {
    await act(alice.page, state.legal.find((a) => a.kind === 'place_capital'));
    state = await waitForGameState(alice.page, (s) => s.view.decider === 1);
  }
  await waitForGameState(bob.page, (s, seq) => s.seq === seq, state.seq);
  await bob.page.goto('/#/');
  await bob.page.waitForSelector('#create-form');
  // The clock box says the game's rule for absent players.
  await alice.page.locator('#clock-rules').waitFor();
  assert.equal(await alice.page.textContent('#clock-rules'), "Over time, a player's turn may be skipped; after 1 skipped turn the others may vote to expel him (the computer then plays his seat).");
});

test('skip and vote each ask first and say what follows', async () => {
  await passDeadline();
  const page = alice.page;
  await page.locator('#skip-turn').waitFor({ timeout: 30000 });
  assert.equal(await page.textContent('#skip-turn'), 'Skip the turn of Bob (Yellow)');
  assert.match(await page.textContent('#clock-left'), /^Bob \(Yellow\) is over time$/);
  await page.click('#skip-turn');
  const skip = page.locator('dialog.modal');
  await skip.waitFor();
  assert.equal(await skip.locator('.modal-title').textContent(), 'Skip the turn of Bob (Yellow)?');
  assert.equal(
    await skip.locator('.modal-body').textContent(),
    "Bob (Yellow)'s turn ends now with nothing done: each phase ends, and a decision the rules need from Bob (Yellow) (casualties, a retreat, the Capital) is made by the computer. This is skipped turn 1: after it the other players may vote to expel Bob (Yellow).",
  );
  await page.screenshot({ path: screenshotPath('skip-confirm.png') });
  await skip.locator('.btn-danger').click();

  const vote = page.locator('.vote-expel[data-seat="1"]');
  await vote.waitFor();
  assert.equal(await vote.textContent(), 'Vote to expel Bob (Yellow)');
  assert.equal(await page.textContent('.clock-skips[data-seat="1"]'), 'Bob (Yellow): 1 of 1 skip before a vote');
  await vote.click();
  const ask = page.locator('dialog.modal');
  await ask.waitFor();
  assert.equal(await ask.locator('.modal-title').textContent(), 'Vote to expel Bob (Yellow)?');
  assert.equal(
    await ask.locator('.modal-body').textContent(),
    'Expelled, Bob (Yellow) stays in the game but the computer takes the seat and plays it, until Bob (Yellow) comes back and takes it back. Your vote makes the majority of the 1 other player: the expulsion happens at once.',
  );
  await page.screenshot({ path: screenshotPath('expel-confirm.png') });
  // Cancelled, nothing is sent.
  await ask.locator('.btn-plain').click();
  assert.equal(await page.locator('dialog.modal').count(), 0);
  assert.equal(await page.evaluate(() => window.__viktoryGame.clock.seats[1].expel_votes.length), 0);
  await vote.click();
  await page.locator('dialog.modal .btn-danger').click();
  await page.waitForFunction(() => {
    const seats = window.__viktoryGame.seats;
    return seats && seats.seats.some((x) => x.seat === 1 && x.computer);
  });
});

test('the computer plays a turn for Bob', async () => {
  // Alice's page is sampled between her actions, so the computer's whole turn can come and go
  // unseen. A later turn of Alice's says it happened too; otherwise the bot played on for
  // hundreds of steps, and Bob's catch-up (the latest 200 steps) lost the clock's lines.
  let sawBob = false;
  let aliceFirstTurn = null;
  await playUntil([alice], async ([s]) => {
    if (s.view.phase === 'setup') return false;
    if (s.view.current === 1) sawBob = true;
    if (s.view.current === 0 && aliceFirstTurn === null) aliceFirstTurn = s.view.turn;
    const bobPlayed = sawBob || (aliceFirstTurn !== null && s.view.turn > aliceFirstTurn);
    return bobPlayed && s.view.current === 0 && s.view.decider === 0;
  });
});

test('coming back, Bob reads his own seat: the skip, the vote, the expulsion, the computer\'s turn', async () => {
  const page = bob.page;
  bob.frames.length = 0;
  await page.goto(`/#/game/${gameId}`);
  const panel = page.locator('#catch-up');
  await panel.waitFor();
  // Playwright hands the page's WebSocket frames to this process on its own time: under load
  // the panel can be drawn before the frame it was drawn from reaches bob.frames.
  for (let i = 0; i < 100 && !bob.frames.some((m) => m.type === 'game.since'); ++i) await sleep(100);
  await panel.locator('.catch-up-own li').nth(3).waitFor();
  const reply = bob.frames.filter((m) => m.type === 'game.since').pop();
  assert.ok(reply, 'a game.since reply reached the page');
  assert.ok(reply.steps.some((st) => st.player === 1 && st.by === 'computer'), 'the computer\'s steps for his seat');
  assert.ok(reply.steps.some((st) => st.player === 1 && st.by === 'clock'), 'the skipped turn\'s step');
  assert.ok(reply.clock.every((l) => l.seat === 1));

  const own = (await panel.locator('.catch-up-own li').allTextContents()).map((l) => l.trim());
  const text = own.join(' | ');
  assert.ok(own.some((l) => /^Bob \(Yellow\) is over time/.test(l)), text);
  assert.ok(own.some((l) => /^Alice \(Red\) skipped the turn of Bob \(Yellow\): 1 skipped turn\. The other players may now vote to expel Bob \(Yellow\)\.$/.test(l)), text);
  assert.ok(own.some((l) => /^Alice \(Red\) votes to expel Bob \(Yellow\): 1 of 1 players so far\.$/.test(l)), text);
  assert.ok(own.some((l) => /^Bob \(Yellow\) is expelled: the computer takes the seat\.$/.test(l)), text);
  assert.match(await panel.textContent(), /The computer plays your seat until you take it back/);
  const mine = await panel.locator('h3.catch-up-mine').allTextContents();
  assert.ok(mine.some((t) => /^You · turn \d+ · played by the computer$/.test(t)), mine.join(' | '));

  // The seat can be taken back; nothing scrolls sideways on a laptop or a phone.
  await page.locator('#take-back').waitFor();
  await sleep(300);
  assert.ok(await noSideways(page), 'no sideways scrolling at 1366 px with "Take my seat back"');
  await page.screenshot({ path: screenshotPath('expelled-catch-up.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await sleep(300);
  assert.ok(await noSideways(page), 'no sideways scrolling at 390 px');
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('expelled-catch-up-phone.png') });
  await page.locator('#take-back').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('expelled-take-back-phone.png') });
  await page.setViewportSize({ width: 1366, height: 900 });
});

test('no script errors on either page', () => {
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
