// The guided first game (issue 21): "Learn to play" on the welcome page starts it, and a player
// who only follows the coach's highlights (the glowing hexes and buttons) plays it to its end,
// a real win [5.1]. Leaving and coming back continues at the step reached; "Play it again"
// starts a new game. A German browser gets the coach in German.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, gameState, waitForGameState, clickHex, screenshotPath, sleep } from './lib/harness.js';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

async function coachStep(page) {
  return page.getAttribute('#coach', 'data-step');
}

async function hexIndex(page, label) {
  const state = await gameState(page);
  const found = state.view.hexes.find((x) => x.label === label);
  assert.ok(found, `hex ${label}`);
  return found.hex;
}

// Does what the coach's current step shows: its Next button, its glowing button, its glowing
// hexes in the order given. Returns the step it acted on.
async function followCoach(page) {
  const step = await coachStep(page);
  if (await page.locator('#coach-next').count()) {
    await page.click('#coach-next');
    return step;
  }
  const buttons = page.locator('.coach-target:not(g)');
  if (await buttons.count()) {
    await buttons.first().click();
    // End Build phase without building asks first.
    if (await page.locator('dialog.modal[open] .btn-primary').count()) await page.click('dialog.modal[open] .btn-primary');
  }
  const labels = ((await page.getAttribute('#coach', 'data-hexes')) || '').split(' ').filter(Boolean);
  for (const label of labels) {
    await clickHex(page, await hexIndex(page, label));
    await sleep(150);
    // Placing the Capital asks first.
    if (await page.locator('dialog.modal[open] .btn-primary').count()) await page.click('dialog.modal[open] .btn-primary');
  }
  return step;
}

// Follows the coach until `until(step)`, waiting while the computer plays.
// `texts`: a Map that collects the coach's text at each step.
async function playGuided(page, until, { shots = {}, texts = null } = {}) {
  const deadline = Date.now() + 90000;
  let last = null;
  let same = 0;
  for (;;) {
    const step = await coachStep(page);
    if (texts && step && !texts.has(step)) texts.set(step, await page.textContent('#coach'));
    if (until(step)) return step;
    assert.ok(Date.now() < deadline, `the guided game got stuck at step ${step}`);
    if (shots[step] && !shots[step].taken) {
      await page.screenshot({ path: screenshotPath(shots[step].file) });
      shots[step].taken = true;
    }
    same = step === last ? same + 1 : 0;
    last = step;
    const waiting = await page.locator('#coach .coach-wait').count();
    if (!waiting && same < 40) await followCoach(page);
    await sleep(250);
  }
}

test('"Learn to play" starts the guided game; following the coach plays it to a win [5.1]', async () => {
  const ada = await newPlayer(browser, server, { viewport: { width: 1366, height: 800 } });
  const { page } = ada;
  await page.goto('/');
  await page.fill('#name', 'Ada');
  await page.screenshot({ path: screenshotPath('tutorial-welcome.png') });
  await page.click('#learn-to-play');
  await page.waitForSelector('#coach[data-step="intro"]');
  const start = await waitForGameState(page, (s) => s.view.phase === 'setup');
  // A private game against the passive computer, from the scenario: Red chooses his Capital.
  assert.equal(start.you.seat, 0);
  assert.deepEqual(start.view.capital_choices.map((h) => start.view.hexes[h].label), ['D2']);
  assert.match(await page.textContent('#coach'), /You are Red/);
  await page.screenshot({ path: screenshotPath('tutorial-desktop-intro.png') });
  await page.click('#coach-next');
  await page.waitForSelector('#coach[data-step="capital"]');
  // The Capital's hex glows, and only it.
  assert.deepEqual(await page.$$eval('svg.board g.hex.coach-target', (els) => els.map((e) => e.dataset.label)), ['D2']);
  await page.screenshot({ path: screenshotPath('tutorial-desktop-capital.png') });
  await playGuided(page, (step) => step === 'explore');
  // Leave mid-game and come back from the lobby: the same game, the same step.
  const gameId = (await gameState(page)).game_id ?? Number(page.url().match(/game\/(\d+)/)[1]);
  await page.goto('/#/');
  await page.waitForSelector('#lobby-learn');
  await page.click('#lobby-learn');
  await page.waitForSelector('#coach[data-step="explore"]');
  assert.equal(Number(page.url().match(/game\/(\d+)/)[1]), gameId);
  const shots = { battle: { file: 'tutorial-desktop-battle.png' }, reserve: { file: 'tutorial-desktop-reserve.png' } };
  await playGuided(page, (step) => step === 'battle', { shots });
  // The battle's odds: pointing at the Fight button asks the server for a preview.
  const c4 = await hexIndex(page, 'C4');
  await page.hover(`[data-battle-hex="${c4}"]`);
  await sleep(600);
  await page.screenshot({ path: screenshotPath('tutorial-desktop-odds.png') });
  await playGuided(page, (step) => step === 'won');
  const end = await gameState(page);
  assert.equal(end.view.phase, 'game_over');
  assert.deepEqual(end.view.winners, [0]);
  assert.match(await page.textContent('#coach'), /You won!/);
  assert.match(await page.textContent('#coach .coach-after'), /captured C4/);
  await page.screenshot({ path: screenshotPath('tutorial-desktop-won.png') });
  // Play it again (after closing the game's own "Victory!"): a new game from the start.
  await page.click('dialog.modal[open] button:has-text("Close")');
  await page.click('#coach-again');
  await page.waitForSelector('#coach[data-step="intro"]');
  await waitForGameState(page, (s) => s.view.phase === 'setup');
  assert.notEqual(Number(page.url().match(/game\/(\d+)/)[1]), gameId);
  assert.deepEqual(ada.errors, []);
  await ada.context.close();
});

test('on a phone the coach fits under the map and the guided game plays the same', async () => {
  const bea = await newPlayer(browser, server, { viewport: { width: 390, height: 844 }, touch: true });
  const { page } = bea;
  await page.goto('/');
  await page.fill('#name', 'Bea');
  await page.click('#learn-to-play');
  await page.waitForSelector('#coach[data-step="intro"]');
  await waitForGameState(page, (s) => s.view.phase === 'setup');
  await page.screenshot({ path: screenshotPath('tutorial-phone-intro.png') });
  const box = await page.locator('#coach').boundingBox();
  assert.ok(box.x >= 0 && box.x + box.width <= 390, 'the coach fits the phone');
  const shots = { upgrade: { file: 'tutorial-phone-upgrade.png' }, battle: { file: 'tutorial-phone-battle.png' } };
  const texts = new Map();
  await playGuided(page, (step) => step === 'battle', { shots, texts });
  await page.locator('#coach').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('tutorial-phone-coach-battle.png') });
  // The odds on a touch screen, as the coach says: tapping Fight asks first, and the preview
  // is in the panel below the map; Cancel, and it is there to read.
  const c4 = await hexIndex(page, 'C4');
  await page.tap(`[data-battle-hex="${c4}"]`);
  await page.waitForSelector('dialog.modal[open]');
  await page.waitForSelector('#battle-preview');
  await page.click('dialog.modal[open] button:has-text("Cancel")');
  await sleep(500);
  await page.waitForSelector('#battle-preview');
  await page.evaluate(() => document.getElementById('battle-preview').scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: screenshotPath('tutorial-phone-odds.png') });
  await playGuided(page, (step) => step === 'won', { shots, texts });
  texts.set('won', await page.textContent('#coach'));
  await page.screenshot({ path: screenshotPath('tutorial-phone-won.png') });
  assert.deepEqual((await gameState(page)).view.winners, [0]);
  // A touch screen is never told to click (the steps' words fit mouse and finger).
  assert.ok(texts.size >= 10, `the coach's steps seen: ${[...texts.keys()]}`);
  for (const [step, text] of texts) assert.doesNotMatch(text, /click/i, `step ${step}: ${text}`);
  // A guided game has no record: the fair-play panel says so and offers no download or check.
  await page.click('dialog.modal[open] button:has-text("Close")');
  await page.click('#coach-toggle'); // the coach lies over the page's foot on a phone
  await page.click('#fair-play summary');
  assert.match(await page.textContent('#fair-no-record'), /A guided game has no game record/);
  assert.equal(await page.locator('#download-record').count(), 0);
  assert.equal(await page.locator('#fair-play a[href^="#/replay/"]').count(), 0);
  await page.evaluate(() => document.getElementById('fair-no-record').scrollIntoView({ block: 'center' }));
  await page.screenshot({ path: screenshotPath('tutorial-phone-fair-play.png') });
  assert.deepEqual(bea.errors, []);
  await bea.context.close();
});

test('a German browser gets "Spielen lernen" and the coach in German', async () => {
  const carl = await newPlayer(browser, server, { locale: 'de-DE', viewport: { width: 1366, height: 800 } });
  const { page } = carl;
  await page.goto('/');
  assert.equal((await page.textContent('#learn-to-play')).trim(), 'Spielen lernen');
  await page.fill('#name', 'Carl');
  await page.click('#learn-to-play');
  await page.waitForSelector('#coach[data-step="intro"]');
  assert.match(await page.textContent('#coach'), /Du bist Rot/);
  await page.click('#coach-next');
  await page.waitForSelector('#coach[data-step="capital"]');
  assert.match(await page.textContent('#coach .coach-text'), /Hauptstadt/);
  await playGuided(page, (step) => step === 'upgrade');
  assert.match(await page.textContent('#coach .coach-after'), /Gelbs Spielzug/);
  assert.doesNotMatch(await page.textContent('#coach'), /klick/i);
  await page.screenshot({ path: screenshotPath('tutorial-german-upgrade.png') });
  assert.deepEqual(carl.errors, []);
  await carl.context.close();
});
