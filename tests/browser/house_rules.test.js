// GamesByEmail's two house rules in the browser (docs/rules-notes.md, "House rules"): the create
// form's boxes, named as house rules apart from the rulebook's optional rules; the game's line
// of options and the rules help; Redeployment in the Reserve phase by selecting a unit on the
// board and clicking where it goes [13.0]; the battle view showing the defender's pre-battle
// fire [12.3 step 0]. Positions are scenarios (lib/harness.js loadPosition). Screenshots:
// house-rules-form.png, redeploy.png, defender-prefire.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gameState, waitForGameState, clickHex, loadPosition, screenshotPath, useTable } from './lib/harness.js';

let server;
let alice; // seat 0, Red
let bob; // seat 1, Yellow

useTable(
  ['Alice', 'Bob'],
  (table) => {
    ({ server } = table);
    [alice, bob] = table.players;
  },
  { signedIn: true },
);

const hexOf = (state, label) => state.view.hexes.find((x) => x.label === label).hex;

async function createGame(houseRules) {
  await alice.page.goto('/#/');
  await bob.page.goto('/#/');
  await alice.page.waitForSelector('#create-form');
  await alice.page.selectOption('#seats', '2');
  await alice.page.click('#house-rules summary');
  for (const r of houseRules) await alice.page.check(`#rule-${r}`);
  await alice.page.screenshot({ path: screenshotPath('house-rules-form.png') });
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  const row = bob.page.locator(`#open-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  const listed = await row.textContent();
  await row.locator('button', { hasText: 'Join' }).click();
  await bob.page.waitForURL(new RegExp(`#/game/${gameId}$`));
  for (const p of [alice, bob]) await waitForGameState(p.page, (s) => s.view.phase === 'setup');
  return { gameId, listed };
}

async function load(gameId, position) {
  server = await loadPosition(server, gameId, position, [alice, bob]);
  for (const p of [alice, bob]) await waitForGameState(p.page, (s, t) => s.view.turn === t, position.turn, 30000);
}

// Red's Reserve Placement Phase: an Infantry that stayed put on D4, another in his Capital E3, a
// Town C3 and a Town G3 whose Infantry waits in the Reserve; Yellow far away.
const POSITION_REDEPLOY = {
  options: { players: 2, defender_prefire: true, redeployment: true },
  phase: 'reserve',
  turn: 3,
  current: 0,
  hexes: {
    E3: { terrain: 'plains', town: 0, capital: 0 },
    C3: { terrain: 'plains', town: 0 },
    G3: { terrain: 'plains', town: 0 },
    D4: 'plains',
    E4: 'plains',
    E7: { terrain: 'plains', town: 1, capital: 1 },
    C6: { terrain: 'plains', town: 1 },
  },
  units: ['0 infantry D4', '0 infantry E3', '0 infantry reserve', '1 infantry reserve x2'],
};

// Red's Infantry on E4 attacks Yellow's Artillery and Infantry on E5: the Artillery answers in
// the Pre-Battle Fire. Dice: Yellow's pre-fire 2 (a hit, Red's only unit picks itself).
const POSITION_PREFIRE = {
  options: { players: 2, defender_prefire: true, redeployment: true },
  phase: 'movement',
  turn: 3,
  current: 0,
  hexes: {
    E3: { terrain: 'plains', town: 0, capital: 0 },
    C3: { terrain: 'mountain', town: 0, city: true },
    E4: 'plains',
    E5: 'plains',
    E7: { terrain: 'plains', town: 1, capital: 1 },
    G4: { terrain: 'mountain', town: 1, city: true },
  },
  units: ['0 infantry E4', '0 infantry reserve', '0 artillery reserve', '1 artillery E5', '1 infantry E5', '1 infantry reserve'],
  dice: [2],
};

let gameId;
test('the create form offers the two house rules apart from the rulebook’s; the game shows them', async () => {
  const created = await createGame(['defender_prefire', 'redeployment']);
  gameId = created.gameId;
  // Not among the optional rules [15.x], and named as house rules.
  assert.equal(await alice.page.locator('#optional-rules #rule-redeployment').count(), 0);
  assert.match(created.listed, /Defending Artillery Pre-fire \(house rule\) · Redeployment \(house rule\)/);
  const state = await gameState(alice.page);
  assert.equal(state.view.options.defender_prefire, true);
  assert.equal(state.view.options.redeployment, true);
  // The rules help explains each.
  if (!(await alice.page.locator('#help[open]').count())) await alice.page.click('#help summary');
  const rules = await alice.page.$$eval('#help-game .help-rules li', (els) => els.map((e) => [e.dataset.rule, e.textContent]));
  assert.deepEqual(rules.map((r) => r[0]), ['defender_prefire', 'redeployment']);
  assert.match(rules[0][1], /house rule\): the defender's Artillery also fires/);
  assert.match(rules[1][1], /house rule\): in the Reserve Placement Phase/);
  await alice.page.click('#help summary');
});

test('Redeployment [13.0]: select a unit on the board, click where it goes', async () => {
  await load(gameId, POSITION_REDEPLOY);
  let state = await gameState(alice.page);
  const d4 = hexOf(state, 'D4');
  const c3 = hexOf(state, 'C3');
  const offered = state.legal.filter((a) => a.kind === 'redeploy');
  assert.ok(offered.some((a) => a.hex === c3), 'the server offers the Town');
  assert.match(await alice.page.textContent('#prompt'), /redeploy it \(house rule\)/);
  await clickHex(alice.page, d4);
  await alice.page.waitForFunction(() => window.__viktoryGame.ui.selectedUnit !== null);
  assert.match(await alice.page.textContent('#selection'), /redeploy \(house rule\)/);
  await alice.page.screenshot({ path: screenshotPath('redeploy.png') });
  await clickHex(alice.page, c3);
  state = await waitForGameState(alice.page, (s) => s.view.units.some((u) => u.owner === 0 && u.hex === c3));
  assert.ok(!state.view.units.some((u) => u.hex === d4), 'the unit left D4');
  assert.ok(!state.legal.some((a) => a.kind === 'redeploy' && a.hex === c3), 'the Town took its Infantry [13.11]');
  await alice.page.locator('#log li', { hasText: 'is redeployed from D4 to C3' }).waitFor();
  await bob.page.locator('#log li', { hasText: 'is redeployed from D4 to C3' }).waitFor();
  // The Capital takes a Reserve unit and holds one that may redeploy: the page asks which.
  await clickHex(alice.page, hexOf(state, 'E3'));
  const dialog = alice.page.locator('dialog.modal.choice');
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /Select one of your units here/);
  await dialog.locator('button', { hasText: 'Select one of your units here' }).click();
  await alice.page.waitForFunction(() => window.__viktoryGame.ui.selectedUnit !== null);
  assert.match(await alice.page.textContent('#selection'), /redeploy \(house rule\)/);
});

test('Defending Artillery Pre-fire: the battle view shows the defender’s answer', async () => {
  const second = await createGame(['defender_prefire', 'redeployment']);
  await load(second.gameId, POSITION_PREFIRE);
  const state = await gameState(alice.page);
  const e4 = hexOf(state, 'E4');
  const e5 = hexOf(state, 'E5');
  await clickHex(alice.page, e4);
  await clickHex(alice.page, e5);
  await waitForGameState(alice.page, (s) => s.legal.some((a) => a.kind === 'start_battle'));
  const fight = alice.page.locator(`[data-battle-hex="${e5}"]`);
  await fight.hover();
  await alice.page.waitForSelector('#battle-preview');
  assert.match(await alice.page.textContent('#battle-preview'), /pre-battle fire back: 1 die/);
  await fight.click();
  await alice.page.click('dialog.modal .btn-primary');
  await waitForGameState(alice.page, (s) => !s.view.battle && s.view.units.every((u) => u.owner !== 0 || u.place !== 'map' || u.hex !== e5));
  await alice.page.waitForSelector('#battle-table .fire-line[data-purpose="defender_pre_fire"]');
  const line = await alice.page.textContent('#battle-table .fire-line[data-purpose="defender_pre_fire"]');
  assert.match(line, /Defender's pre-battle fire/);
  assert.match(line, /Artillery 1/);
  assert.match(line, /Hits: Red Infantry/);
  await alice.page.screenshot({ path: screenshotPath('defender-prefire.png') });
});
