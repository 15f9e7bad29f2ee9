// The optional rules and the battle view in the browser (issue 9 UI): the create form's victory
// conditions and optional rules [5.0, 15.1–15.6] reach the game and are shown; the preview of
// an attack's dice and odds (game.preview_battle); Luck Averaging [15.4] chosen with the
// keyboard and the mouse; each fire's dice by source with the hits and who chose them [12.3];
// Town Relocation [15.5]; Vassal and Ruler shown [15.61]; the Capital's return, withdrawal and
// reinforcement [15.62]; Exploration Balancing [15.3]. Each from a position written as a
// scenario (lib/harness.js loadPosition). Screenshots: battle.png, average.png, options.png...

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  gameState,
  waitForGameState,
  clickHex,
  loadPosition,
  screenshotPath,
  useTable,
} from './lib/harness.js';

let server;
let browser;
let alice; // seat 0, Red
let bob; // seat 1, Yellow
let carol; // seat 2, Blue (three-player games)

useTable(
  ['Alice', 'Bob', 'Carol'],
  (table) => {
    ({ server, browser } = table);
    [alice, bob, carol] = table.players;
  }, { signedIn: true },
);

const hexOf = (state, label) => state.view.hexes.find((x) => x.label === label).hex;
const seqAbove = (page, n) => waitForGameState(page, (s, k) => s.seq > k, n);

// Alice creates a game from the lobby form with these boxes ticked; Bob joins from his lobby.
async function createGame({ victory = ['standard'], rules = [], seats = 2 } = {}) {
  const joiners = seats === 3 ? [bob, carol] : [bob];
  await alice.page.goto('/#/');
  for (const p of joiners) await p.page.goto('/#/');
  await alice.page.waitForSelector('#create-form');
  await alice.page.selectOption('#seats', String(seats));
  for (const v of ['standard', 'shorter', 'race', 'doomsday', 'subjugation']) {
    await alice.page.setChecked(`#victory-${v}`, victory.includes(v));
  }
  if (rules.length && !(await alice.page.locator('#optional-rules[open]').count())) await alice.page.click('#optional-rules summary');
  for (const r of rules) await alice.page.check(`#rule-${r}`);
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  let listed = '';
  for (const p of joiners) {
    const row = p.page.locator(`#open-games [data-game-id="${gameId}"]`);
    await row.waitFor();
    listed = listed || (await row.textContent());
    await row.locator('button', { hasText: 'Join' }).click();
    await p.page.waitForURL(new RegExp(`#/game/${gameId}$`));
  }
  for (const p of [alice, ...joiners]) await waitForGameState(p.page, (s) => s.view.phase === 'setup');
  return { gameId, listed };
}

async function load(gameId, position) {
  const players = position.options.players === 3 ? [alice, bob, carol] : [alice, bob];
  server = await loadPosition(server, gameId, position, players);
  for (const p of players) await waitForGameState(p.page, (s, t) => s.view.turn === t, position.turn, 30000);
}

// Red's Infantry x2 and Cavalry on E4 next to Yellow's two Infantry in the Forest E5. Every
// die rolled is a 6 (no hits), so the only hits are the averaged pairs [15.4].
const POSITION_LUCK = {
  options: { players: 2, victory: ['standard', 'race'], luck_averaging: true, town_relocation: true, subjugation: true },
  phase: 'movement',
  turn: 3,
  current: 0,
  hexes: {
    E3: { terrain: 'plains', town: 0, capital: 0 },
    C3: { terrain: 'grassland', town: 0, city: true },
    E4: 'plains',
    E5: 'forest',
    E6: 'plains',
    D5: 'plains',
    F5: 'plains',
    D4: 'plains',
    F4: 'plains',
    E7: { terrain: 'plains', town: 1, capital: 1 },
    C6: { terrain: 'plains', town: 1 },
  },
  units: ['0 infantry E4 x2', '0 cavalry E4', '1 infantry E5 x2'],
  dice: [6, 6, 6, 6, 6, 6, 6, 6, 6, 6],
};

test('the create form offers several victory conditions and the optional rules; the game shows them', async () => {
  await alice.page.goto('/#/');
  await alice.page.waitForSelector('#create-form');
  await alice.page.check('#victory-race');
  await alice.page.click('#optional-rules summary');
  // Every optional rule has a box and a one-line explanation with its case number.
  const rules = await alice.page.$$eval('#optional-rules label.check', (els) => els.map((e) => e.textContent));
  assert.equal(rules.length, 6);
  for (const [i, text] of rules.entries()) assert.match(text, new RegExp(`\\[15\\.${i + 1}\\]: \\S.+`));
  // Subjugation Conquest turns the Subjugation rules on; Exploration Balancing and independent
  // exploration exclude each other [15.3].
  await alice.page.check('#victory-subjugation');
  assert.equal(await alice.page.isChecked('#rule-subjugation'), true);
  assert.equal(await alice.page.isDisabled('#rule-subjugation'), true);
  await alice.page.uncheck('#victory-subjugation');
  await alice.page.check('#rule-exploration_balancing');
  await alice.page.check('#independent_exploration');
  assert.equal(await alice.page.isChecked('#rule-exploration_balancing'), false);
  await alice.page.uncheck('#independent_exploration');
  await alice.page.screenshot({ path: screenshotPath('options.png') });
});

let luckGame;
test('a game with Race + Standard and three optional rules: listed, and shown on the game page', async () => {
  const { gameId, listed } = await createGame({ victory: ['standard', 'race'], rules: ['luck_averaging', 'town_relocation', 'subjugation'] });
  luckGame = gameId;
  // One line of options in the lobby, not two.
  assert.match(listed, /2 players · Standard Conquest \+ Race for Dominance · Standard tiles · Luck Averaging \[15\.4\] · Town\/City Relocation \[15\.5\] · Subjugation \[15\.6\]/);
  assert.equal((listed.match(/players/g) || []).length, 1);
  const state = await gameState(alice.page);
  assert.deepEqual(state.view.options.victory, ['standard', 'race']);
  assert.equal(state.view.options.luck_averaging, true);
  assert.equal(state.view.options.exploration_balancing, false);
  assert.match(await alice.page.textContent('#game-options'), /Standard Conquest \+ Race for Dominance · Standard tiles · Luck Averaging \[15\.4\] · Town\/City Relocation \[15\.5\] · Subjugation \[15\.6\]/);
  await load(gameId, POSITION_LUCK);
});

test('pointing at an attack shows both sides’ dice and the odds, from the server’s preview', async () => {
  const state = await gameState(alice.page);
  const e4 = hexOf(state, 'E4');
  const e5 = hexOf(state, 'E5');
  await clickHex(alice.page, e4);
  await waitForGameState(alice.page, () => true);
  assert.notEqual(await alice.page.evaluate(() => window.__viktoryGame.ui.selectedUnit), null);
  const point = await alice.page.evaluate((h) => window.__viktoryGame.board.hexScreenPoint(h), e5);
  await alice.page.mouse.move(point.x, point.y);
  await alice.page.waitForSelector('#battle-preview');
  const reply = alice.frames.filter((f) => f.type === 'battle.preview').pop();
  assert.ok(reply, 'the page asked the server');
  assert.equal(reply.hex, e5);
  const text = await alice.page.textContent('#battle-preview');
  assert.match(text, /Attack E5\? Preview/);
  assert.match(text, /defends with: \d+ dice/);
  assert.match(text, /Forest \[12\.3\]/, 'the defender’s terrain die source is named');
  const pct = (x) => `${Math.round(x * 100)}%`;
  assert.match(await alice.page.textContent('#preview-odds'), new RegExp(`Attacker takes it: ${pct(reply.preview.odds.attacker_wins)} · defender holds: ${pct(reply.preview.odds.defender_holds)}`));
  await alice.page.screenshot({ path: screenshotPath('battle-preview.png') });
});

test('Luck Averaging [15.4]: the attacker averages with the keyboard, the defender rolls with the mouse; the battle view names every die', async () => {
  let state = await gameState(alice.page);
  const e4 = hexOf(state, 'E4');
  const e5 = hexOf(state, 'E5');
  for (let i = 0; i < 3; i += 1) {
    await clickHex(alice.page, e4);
    await clickHex(alice.page, e5);
    state = await seqAbove(alice.page, state.seq);
  }
  // The Fight button previews too, then starts the Battle after the question.
  const fight = alice.page.locator(`[data-battle-hex="${e5}"]`);
  await fight.hover();
  await alice.page.waitForSelector('#battle-preview');
  assert.match(await alice.page.textContent('#battle-preview'), /attacks with: 3 dice/);
  await fight.click();
  await alice.page.click('dialog.modal .btn-primary');
  const card = alice.page.locator('.decision-card[data-decision="average_dice"]');
  await card.waitFor();
  assert.match(await card.textContent(), /You may fire 3 dice/);
  assert.equal(await card.locator('button[data-pairs]').count(), 2, 'roll all, or average one pair');
  await alice.page.screenshot({ path: screenshotPath('average.png') });
  state = await gameState(alice.page);
  await card.locator('button[data-pairs="1"]').focus();
  await alice.page.keyboard.press('Enter');
  // The defender decides out of turn.
  const bobCard = bob.page.locator('.decision-card[data-decision="average_dice"]');
  await bobCard.waitFor();
  // The defender's card at phone width: it fits, its buttons are in reach.
  await bob.page.setViewportSize({ width: 390, height: 844 });
  assert.ok(await bob.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scrolling');
  await bob.page.screenshot({ path: screenshotPath('average-phone.png') });
  await bobCard.locator('button[data-pairs="0"]').click();
  await bob.page.setViewportSize({ width: 1400, height: 900 });
  await waitForGameState(alice.page, (s) => s.view.battle && s.view.battle.stage === 'retreat_option');
  const events = alice.frames.filter((f) => f.type === 'game.update').flatMap((f) => f.events);
  const attack = events.find((e) => e.kind === 'dice_rolled' && e.purpose === 'attacker_fire');
  const defence = events.find((e) => e.kind === 'dice_rolled' && e.purpose === 'defender_fire');
  assert.ok(attack && attack.fire && defence && defence.fire);
  await alice.page.waitForSelector('#battle-table');
  const lines = await alice.page.$$eval('#battle-table .fire-line', (els) => els.map((e) => e.textContent));
  assert.equal(lines.length, 2);
  assert.match(await alice.page.textContent('#battle-table .round-head'), /Round 1/);
  assert.match(lines[0], /^.*Attacker \(You\)/);
  assert.match(lines[0], /3 dice: Infantry 1 · Cavalry 2 · 1 pair averaged \[15\.4\]/);
  assert.match(lines[0], /1 averaged pair: 1 hit, the target choosing \[15\.4\]/);
  assert.match(lines[0], /Hits: Yellow Infantry \(chosen by Bob \(Yellow\)\)/);
  const defenceSources = defence.fire.sources.map((s) => `${{ infantry: 'Infantry', forest: 'Forest \\[12\\.3\\]' }[s.source] || s.source} ${s.dice}`).join(' · ');
  assert.match(lines[1], /Defender \(Bob \(Yellow\)\)/);
  assert.match(lines[1], new RegExp(`${defence.fire.entitled} dice: ${defenceSources}`));
  assert.equal(await alice.page.locator('#battle-table .fire-line[data-purpose="defender_fire"] .die').count(), defence.dice.length);
  await alice.page.screenshot({ path: screenshotPath('battle.png') });
  // The defender's page shows the same Battle from his side.
  await bob.page.waitForSelector('#battle-table');
  assert.match(await bob.page.textContent('#battle-table'), /Attacker \(Alice \(Red\)\)/);
  // At phone width the battle view fits the screen (no sideways scrolling).
  await bob.page.setViewportSize({ width: 390, height: 844 });
  await bob.page.locator('#battle-table').scrollIntoViewIfNeeded();
  assert.ok(await bob.page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no sideways scrolling');
  await bob.page.screenshot({ path: screenshotPath('battle-phone.png') });
  await bob.page.setViewportSize({ width: 1400, height: 900 });
});

// Build phase, Red with a Town at C3 to relocate [15.5].
const POSITION_RELOCATE = {
  options: { players: 2, town_relocation: true },
  phase: 'build',
  turn: 3,
  current: 0,
  hexes: {
    E3: { terrain: 'plains', town: 0, capital: 0 },
    C3: { terrain: 'grassland', town: 0 },
    B3: 'plains',
    B4: 'plains',
    C4: 'plains',
    D3: 'plains',
    C2: 'plains',
    B2: 'plains',
    D2: 'plains',
    E7: { terrain: 'plains', town: 1, capital: 1 },
  },
  units: ['0 infantry E3', '0 infantry C3', '1 infantry E7'],
};

test('Town Relocation [15.5]: only through its button; the rebuild is chosen on the map or in the card', async () => {
  const { gameId } = await createGame({ rules: ['town_relocation'] });
  await load(gameId, POSITION_RELOCATE);
  let state = await gameState(alice.page);
  const c3 = hexOf(state, 'C3');
  assert.ok(state.legal.some((a) => a.kind === 'remove_town' && a.hex === c3));
  // A plain click on the Town offers its upgrade, never a relocation.
  await clickHex(alice.page, c3);
  const asked = alice.page.locator('dialog.confirm-sealing');
  await asked.waitFor();
  assert.match(await asked.textContent(), /Upgrade the Town at C3/);
  await asked.locator('button:has-text("Cancel")').click();
  assert.equal((await gameState(alice.page)).seq, state.seq);
  await alice.page.click('.action-bar button:has-text("Relocate a Town/City")');
  assert.equal(await alice.page.locator(`.target-relocate[data-target="${c3}"]`).count(), 1);
  await clickHex(alice.page, c3);
  state = await seqAbove(alice.page, state.seq);
  assert.ok(state.view.relocation, 'the Town is being moved');
  // First the unit it supported goes back to stock, chosen by its owner [10.2].
  const stock = alice.page.locator('.decision-card[data-decision="eliminate_unit"]');
  await stock.waitFor();
  assert.match(await stock.textContent(), /Relocating your Town \[15\.5\]/);
  await stock.locator('button').last().click();
  state = await seqAbove(alice.page, state.seq);
  const card = alice.page.locator('.decision-card[data-decision="rebuild_town"]');
  await card.waitFor();
  const rebuilds = state.legal.filter((a) => a.kind === 'rebuild_town');
  assert.equal(await card.locator('button[data-rebuild-hex]').count(), rebuilds.length);
  await alice.page.mouse.move(5, 5); // pointing at a card button marks its hex instead
  const litRebuilds = await alice.page.$$eval('.target-rebuild', (els) => els.map((e) => Number(e.dataset.target)));
  assert.deepEqual(litRebuilds.sort((x, y) => x - y), rebuilds.map((a) => a.hex).sort((x, y) => x - y), 'every legal rebuild hex is lit');
  await alice.page.screenshot({ path: screenshotPath('relocate.png') });
  const target = rebuilds[0].hex;
  await card.locator(`button[data-rebuild-hex="${target}"]`).click();
  // Rebuilding reveals tiles: the page may ask first.
  const confirm = alice.page.locator('dialog.modal .btn-primary');
  if (await confirm.count()) await confirm.click();
  state = await seqAbove(alice.page, state.seq);
  assert.equal(state.view.relocation, undefined);
  assert.equal(state.view.hexes.find((x) => x.hex === target).town_owner, 0);
  assert.equal(state.view.hexes.find((x) => x.hex === c3).town_owner, undefined);
});

// Three players (a Vassal of the only other player would end the game [15.66]). Red's two
// Infantry stand on Yellow's Capital F8, just taken: Yellow became Red's Vassal and Red now
// withdraws them one by one; then Yellow reinforces [15.62].
const POSITION_RETURN = {
  options: { players: 3, subjugation: true },
  phase: 'movement',
  turn: 4,
  current: 0,
  hexes: {
    C3: { terrain: 'plains', town: 0, capital: 0 },
    C5: { terrain: 'plains', town: 0 },
    F8: { terrain: 'plains', town: 1, capital: 1 },
    H3: { terrain: 'plains', town: 2, capital: 2 },
    F9: 'plains',
    F7: 'plains',
    G8: 'plains',
    E7: 'plains',
    E8: 'plains',
    G7: 'plains',
  },
  units: ['0 infantry F8 x2'],
  reserves: [{}, { infantry: 1 }, { infantry: 1 }],
  players: [{}, { ruler: 0 }, {}],
  capital_return: { hex: 'F8', ruler: 0, vassal: 1, stage: 'withdraw' },
};

test('Subjugation [15.61]: Vassal and Ruler in the player list and on the Vassal’s Capital', async () => {
  const { gameId } = await createGame({ rules: ['subjugation'], seats: 3 });
  await load(gameId, POSITION_RETURN);
  for (const p of [alice, bob, carol]) {
    await p.page.waitForSelector('#players .tag-vassal');
    assert.match(await p.page.textContent('#players li[data-seat="1"] .tag-vassal'), /Vassal of Alice \(Red\)/);
    assert.match(await p.page.textContent('#players li[data-seat="0"] .tag-ruler'), /Ruler of Bob \(Yellow\)/);
    assert.equal(await p.page.locator('.vassal-badge[data-ruler="0"]').count(), 1);
  }
  const state = await gameState(alice.page);
  const name = await alice.page.getAttribute(`[data-hit-hex="${hexOf(state, 'F8')}"]`, 'aria-label');
  assert.match(name, /Bob's Capital, a Vassal of you \[15\.61\]/);
});

test('the Capital’s return [15.62]: the Ruler withdraws by mouse and keyboard, the Vassal reinforces out of turn', async () => {
  let state = await gameState(alice.page);
  const card = alice.page.locator('.decision-card[data-decision="withdraw"]');
  await card.waitFor();
  assert.match(await card.textContent(), /Return the Capital at F8 \[15\.62\]/);
  assert.match(await alice.page.textContent('#prompt-title'), /Return the Capital/);
  // With the mouse: select a unit on the Capital, the withdrawal hexes light up.
  const f8 = hexOf(state, 'F8');
  await clickHex(alice.page, f8);
  const lit = await alice.page.$$eval('.target-withdraw', (els) => els.map((e) => Number(e.dataset.target)));
  const legal = [...new Set(state.legal.filter((a) => a.kind === 'withdraw').map((a) => a.hex))].sort((a, b) => a - b);
  assert.deepEqual(lit.sort((a, b) => a - b), legal);
  await alice.page.screenshot({ path: screenshotPath('withdraw.png') });
  await clickHex(alice.page, legal[0]);
  state = await seqAbove(alice.page, state.seq);
  // With the keyboard: the card's button.
  await card.locator('button[data-choice="withdraw"]').first().focus();
  await alice.page.keyboard.press('Enter');
  await waitForGameState(bob.page, (s) => s.view.capital_return && s.view.capital_return.stage === 'reinforce');
  // The Vassal places his Reserve on his Capital, out of turn, then is done.
  await bob.page.waitForSelector('#end-phase:has-text("Done reinforcing")');
  assert.match(await bob.page.textContent('#prompt-title'), /Reinforce your Capital/);
  assert.match(await carol.page.textContent('#prompt'), /Bob \(Yellow\) reinforces his returned Capital/);
  state = await gameState(bob.page);
  await clickHex(bob.page, f8);
  state = await seqAbove(bob.page, state.seq);
  assert.ok(state.view.units.some((u) => u.owner === 1 && u.place === 'map' && u.hex === f8));
  await bob.page.screenshot({ path: screenshotPath('reinforce.png') });
  if (state.view.capital_return) {
    await bob.page.click('#end-phase');
    await waitForGameState(bob.page, (s) => !s.view.capital_return);
  }
});

// Red's move turned up D4 and D5, both water; a Mountain tile was drawn [15.3].
const POSITION_BALANCE = {
  options: { players: 2, exploration_balancing: true },
  phase: 'movement',
  turn: 3,
  current: 0,
  hexes: {
    E3: { terrain: 'plains', town: 0, capital: 0 },
    E4: 'plains',
    D4: 'water',
    D5: 'water',
    E5: 'plains',
    E7: { terrain: 'plains', town: 1, capital: 1 },
  },
  units: ['0 infantry E4'],
  reserves: [{}, { infantry: 1 }],
  balance: { player: 0, water: ['D4', 'D5'], land: 'mountain' },
};

test('Exploration Balancing [15.3]: the land tile is laid by clicking a lit water hex', async () => {
  const { gameId } = await createGame({ rules: ['exploration_balancing'] });
  await load(gameId, POSITION_BALANCE);
  let state = await gameState(alice.page);
  const card = alice.page.locator('.decision-card[data-decision="exploration_choice"]');
  await card.waitFor();
  assert.match(await card.textContent(), /A Mountain tile was drawn/);
  assert.equal(await card.locator('button[data-replace-hex]').count(), 2);
  assert.equal(await card.locator('button[data-choice="keep_water"]').count(), 1);
  assert.equal(await alice.page.locator('.target-replace_water').count(), 2);
  await alice.page.screenshot({ path: screenshotPath('balance.png') });
  // Bob waits and is told why.
  assert.match(await bob.page.textContent('#prompt'), /chooses whether to lay a land tile/);
  const d5 = hexOf(state, 'D5');
  await clickHex(alice.page, d5);
  state = await seqAbove(alice.page, state.seq);
  assert.equal(state.view.hexes.find((x) => x.hex === d5).terrain, 'mountain');
  assert.equal(state.view.exploration_choice, undefined);
});

// No Exploration [15.2]: the whole map is face up, so a unit's reach goes as far as its
// Movement Points (a Cavalry: 3 [9.11]); the hexes round E4 are laid as Plains.
const POSITION_REACH = {
  options: { players: 2, no_exploration: true },
  phase: 'movement',
  turn: 3,
  current: 0,
  hexes: {
    C3: { terrain: 'grassland', town: 0, city: true, capital: 0 },
    E3: 'plains',
    E4: 'plains',
    E5: 'plains',
    E6: 'plains',
    D4: 'plains',
    D5: 'plains',
    F4: 'plains',
    F5: 'plains',
    E7: { terrain: 'plains', town: 1, capital: 1 },
  },
  units: ['0 cavalry E4'],
  reserves: [{ infantry: 1 }, { infantry: 1 }],
};

test('a selected unit shows its whole reach this turn: next moves lit, further hexes marked faintly', async () => {
  const { gameId } = await createGame({ rules: ['no_exploration'] });
  await load(gameId, POSITION_REACH);
  const state = await gameState(alice.page);
  const e4 = hexOf(state, 'E4');
  const unit = state.view.units.find((u) => u.owner === 0 && u.hex === e4 && u.place === 'map');
  await clickHex(alice.page, e4);
  await alice.page.waitForSelector('.target-reach');
  const reply = alice.frames.filter((f) => f.type === 'game.reach' && f.unit === unit.id).pop();
  assert.ok(reply, 'the page asked the server for the reach');
  const next = new Set(state.legal.filter((a) => a.kind === 'move' && a.unit === unit.id).map((a) => a.hex));
  const further = reply.hexes.filter((x) => x.moves > 1 && !next.has(x.hex)).map((x) => x.hex).sort((a, b) => a - b);
  assert.ok(further.length > 0);
  const marked = await alice.page.$$eval('.target-reach', (els) => els.map((e) => Number(e.dataset.target)));
  assert.deepEqual(marked.sort((a, b) => a - b), further);
  // The next steps are still exactly the legal moves.
  const lit = await alice.page.$$eval('.target-move', (els) => els.map((e) => Number(e.dataset.target)));
  assert.deepEqual(lit.sort((a, b) => a - b), [...next].sort((a, b) => a - b));
  await alice.page.mouse.move(5, 5);
  await alice.page.screenshot({ path: screenshotPath('reach.png') });
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
