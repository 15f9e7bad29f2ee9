// Battles fought against a player stay listed in live play (issue 20): Bob watches while Alice
// attacks his two units on E6; he chooses his casualty (a hit chosen in a later action than the
// die that caused it); when her turn ends, "Since your last turn" opens by itself on his page
// with the battle and its whole battle view (the hit he chose included), and stays through his
// own actions and a reload until he dismisses it; the replay shows that hit with the fire that
// caused it. Screenshots at desktop and phone width.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, signIn, gameState, waitForGameState, loadPosition, screenshotPath, sleep } from './lib/harness.js';

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

// Red's Infantry on E5 attacks Yellow's Infantry and Cavalry on E6. Round 1: Red's 2 hits and
// Yellow chooses which unit (a 2, not a 1 [10.1]); Yellow's two 6s miss. Round 2: Red's 2 hits
// the last unit, Yellow's 6 misses: Red takes E6.
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
    // A Grassland City supports a Cavalry besides its Infantry [8.2].
    C5: { terrain: 'grassland', town: 1, city: true },
  },
  units: ['0 infantry E3', '0 infantry E5', '1 infantry E6', '1 cavalry E6', '1 infantry E7'],
  dice: [2, 6, 6, 2, 6, 6, 6, 6, 6, 6],
};

const hexOf = (state, label) => state.view.hexes.find((x) => x.label === label).hex;

async function act(page, action) {
  const error = await page.evaluate((a) => window.__viktoryGame.channel.act(a).then(() => null, (e) => e.code || String(e)), action);
  assert.equal(error, null, `action ${JSON.stringify(action)} refused: ${error}`);
}

async function noSideways(page) {
  return page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
}

test('Alice attacks Bob while he watches; he chooses his casualty', async () => {
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

  let state = await gameState(alice.page);
  const e5 = state.view.units.find((u) => u.hex === hexOf(state, 'E5')).id;
  await act(alice.page, { kind: 'move', unit: e5, hex: hexOf(state, 'E6') });
  state = await waitForGameState(alice.page, (s) => s.legal.some((a) => a.kind === 'start_battle'));
  await act(alice.page, { kind: 'start_battle', hex: hexOf(state, 'E6') });
  // Bob's decision: which of his units takes the hit.
  const bobs = await waitForGameState(bob.page, (s) => s.legal.some((a) => a.kind === 'choose_casualty'));
  const cavalry = bobs.view.units.find((u) => u.owner === 1 && u.type === 'cavalry').id;
  await act(bob.page, { kind: 'choose_casualty', unit: cavalry });
  // Then whatever else the battle asks of Alice, and the end of her turn.
  for (let i = 0; i < 20; i += 1) {
    state = await gameState(alice.page);
    if (state.view.current === 1) break;
    if (state.view.decider !== 0) {
      await waitForGameState(alice.page, (s, seq) => s.seq > seq || s.view.decider === 0, state.seq);
      continue;
    }
    const next = ['continue_battle', 'choose_casualty', 'end_phase'].map((k) => state.legal.find((a) => a.kind === k)).find(Boolean);
    assert.ok(next, `Alice has something to do: ${JSON.stringify(state.legal)}`);
    await act(alice.page, next);
    await waitForGameState(alice.page, (s, seq) => s.seq > seq, state.seq);
  }
  assert.equal((await gameState(alice.page)).view.current, 1, "Alice's turn is over");
});

test('when her turn ends, the battle against him stays listed with its battle view', async () => {
  const page = bob.page;
  await waitForGameState(page, (s) => s.view.current === 1);
  const panel = page.locator('#catch-up');
  await panel.waitFor();
  assert.equal(await panel.locator('h2').textContent(), 'Since your last turn');
  const lines = await panel.locator('.catch-up-lines').first().locator(':scope > li').allTextContents();
  assert.ok(lines.some((l) => /Battle at E6: Alice \(Red\) attacks You: Alice \(Red\) took it/.test(l)), lines.join(' | '));
  assert.ok(lines.some((l) => /Lost: 1 Yellow Cavalry, 1 Yellow Infantry|Lost: 1 Yellow Infantry, 1 Yellow Cavalry/.test(l)), lines.join(' | '));
  // The whole battle view: both rounds, both sides, and the hit he chose after Red's die.
  await panel.locator('.catch-up-dice summary').click();
  const table = panel.locator('.catch-up-dice');
  assert.equal(await table.locator('.fire-line').count(), 4);
  assert.deepEqual(await table.locator('.round-head').allTextContents(), ['Round 1', 'Round 2']);
  const first = await table.locator('.fire-line').first().textContent();
  assert.match(first, /Attacker \(Alice \(Red\)\)/);
  assert.match(first, /Hits: Yellow Cavalry \(chosen by you\)/);
  assert.match(first, /1 die: Infantry 1/);
  // Drawn on the map until dismissed.
  assert.equal(await page.locator(`.catch-up-battle[data-hex="${hexOf(await gameState(page), 'E6')}"]`).count(), 1);
  assert.ok(await noSideways(page), 'no sideways scrolling at 1366 px');
  await page.screenshot({ path: screenshotPath('live-battles.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await sleep(200);
  assert.ok(await noSideways(page), 'no sideways scrolling at 390 px');
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('live-battles-phone.png') });
  await page.setViewportSize({ width: 1366, height: 900 });
});

test('his own actions and a reload do not make it go; Dismiss does', async () => {
  const page = bob.page;
  // An action of his own turn, through the page like a click.
  const before = await gameState(page);
  page.evaluate(() => window.__viktoryGame.send({ kind: 'end_phase' }));
  const ask = page.locator('dialog.modal .btn-primary');
  await Promise.race([ask.waitFor({ timeout: 3000 }).then(() => ask.click()), waitForGameState(page, (s, seq) => s.seq > seq, before.seq)]).catch(() => {});
  await waitForGameState(page, (s, seq) => s.seq > seq, before.seq);
  assert.ok(await page.locator('#catch-up').isVisible(), 'still listed after his own action');

  await page.reload();
  await page.locator('#catch-up').waitFor();
  const lines = await page.locator('#catch-up .catch-up-lines').first().locator(':scope > li').allTextContents();
  assert.ok(lines.some((l) => /Battle at E6: Alice \(Red\) attacks You/.test(l)), lines.join(' | '));

  await page.click('#catch-up-dismiss');
  assert.ok(await page.locator('#catch-up').isHidden());
  await page.reload();
  await waitForGameState(page, (s) => s.seq > 0);
  await sleep(500);
  assert.ok(await page.locator('#catch-up').isHidden(), 'dismissed for good');
});

test('the replay shows the hit he chose with the fire that caused it', async () => {
  await act(bob.page, { kind: 'concede' });
  await waitForGameState(bob.page, (s) => s.view.phase === 'game_over');
  const page = bob.page;
  await page.goto(`/#/replay/${gameId}`);
  await page.waitForSelector('#replay-counter');
  // The step of his choice: the hit on his Cavalry, then Yellow's fire.
  const step = await page.evaluate(async () => {
    const r = window.__viktoryReplay;
    for (let i = 1; i <= r.lastSeq; i += 1) {
      await r.fetchPage(r.pageFrom(i));
      const st = r.stepAt(i);
      if (st && st.events.some((ev) => ev.kind === 'unit_hit' && ev.unit_type === 'cavalry')) return i;
    }
    return null;
  });
  assert.ok(step, 'the step with his casualty');
  await page.evaluate((i) => window.__viktoryReplay.go(i), step);
  await page.waitForFunction((i) => document.getElementById('replay-counter')?.textContent?.startsWith(`step ${i} `), step);
  const fires = await page.locator('.battle-panel .fire-line').allTextContents();
  assert.equal(fires.length, 2, fires.join(' | '));
  assert.match(fires[0], /^ Attacker \(Alice \(Red\)\):.*1 die: Infantry 1.*Hits: Yellow Cavalry \(chosen by Bob \(Yellow\)\)/);
  assert.match(fires[1], /^ Defender \(Bob \(Yellow\)\):/);
  assert.deepEqual(await page.locator('.battle-panel .round-head').allTextContents(), ['Round 1']);
  await page.screenshot({ path: screenshotPath('replay-battle.png') });
});

test('no script errors on either page', () => {
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
