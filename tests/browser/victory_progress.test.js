// The rules where they apply (issue 21): the Rules help's "This game" part names exactly the
// victory conditions [5.0] and optional rules [15.0] of the game, and the players panel shows
// the progress toward each chosen condition: the Race's points out of 20 [5.4], the Doomsday
// Clock's coins and last roll [5.5], who is whose Vassal [5.2, 15.66]. The figures are checked
// against the frames the server sent the page (never against numbers written here). Positions
// written as scenarios (lib/harness.js loadPosition). Screenshots: victory-desktop.png,
// victory-phone.png, victory-subjugation.png.
// victory-shorter.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gameState, waitForGameState, loadPosition, screenshotPath, useTable } from './lib/harness.js';

let server;
let alice; // seat 0, Red
let bob; // seat 1, Yellow
let carol; // seat 2, Blue

useTable(
  ['Alice', 'Bob', 'Carol'],
  (table) => {
    ({ server } = table);
    [alice, bob, carol] = table.players;
  }, { signedIn: true },
);

// Alice creates a three-player game from the lobby form; Bob and Carol join.
async function createGame({ victory, rules = [] }) {
  await alice.page.goto('/#/');
  for (const p of [bob, carol]) await p.page.goto('/#/');
  await alice.page.waitForSelector('#create-form');
  await alice.page.selectOption('#seats', '3');
  for (const v of ['shorter', 'race', 'doomsday', 'subjugation', 'standard']) {
    await alice.page.setChecked(`#victory-${v}`, victory.includes(v));
  }
  if (rules.length && !(await alice.page.locator('#optional-rules[open]').count())) await alice.page.click('#optional-rules summary');
  for (const r of rules) await alice.page.check(`#rule-${r}`);
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  for (const p of [bob, carol]) {
    const row = p.page.locator(`#open-games [data-game-id="${gameId}"]`);
    await row.waitFor();
    await row.locator('button', { hasText: 'Join' }).click();
    await p.page.waitForURL(new RegExp(`#/game/${gameId}$`));
  }
  for (const p of [alice, bob, carol]) await waitForGameState(p.page, (s) => s.view.phase === 'setup');
  return gameId;
}

async function load(gameId, position) {
  server = await loadPosition(server, gameId, position, [alice, bob, carol]);
  for (const p of [alice, bob, carol]) await waitForGameState(p.page, (s, t) => s.view.turn === t, position.turn, 30000);
}

async function act(page, action) {
  const error = await page.evaluate((a) => window.__viktoryGame.channel.act(a).then(() => null, (e) => e.code || String(e)), action);
  assert.equal(error, null, `action ${JSON.stringify(action)} refused: ${error}`);
}

// The last whole view the server sent this player for the game (game.state), and the events
// of the game.updates after it.
function lastWholeView(player, gameId) {
  const frame = player.frames.filter((m) => m.type === 'game.state' && m.game_id === gameId).pop();
  assert.ok(frame, 'a game.state frame');
  return frame.state ? frame.state.view : frame.view;
}
function updateEvents(player, gameId) {
  return player.frames.filter((m) => m.type === 'game.update' && m.game_id === gameId).flatMap((m) => m.events || []);
}

async function helpItems(page) {
  if (!(await page.locator('#help[open]').count())) await page.click('#help summary');
  return {
    conditions: await page.$$eval('#help-game .help-conditions li', (els) => els.map((e) => e.dataset.condition)),
    rules: await page.$$eval('#help-game .help-rules li', (els) => els.map((e) => e.dataset.rule)),
    text: await page.textContent('#help-game'),
  };
}

// Nothing of the page's own plumbing shows as text (a null given to replaceChildren once did).
async function assertNoPlumbing(page) {
  const text = await page.innerText('#help-game');
  assert.doesNotMatch(text, /\b(null|undefined|NaN)\b|\[object /, text);
  assert.doesNotMatch(await page.innerText('#victory-progress'), /\b(null|undefined|NaN)\b|\[object /);
}

// No element wider than the page, and no sideways scrolling.
async function assertFits(page) {
  const { scroll, client, wide } = await page.evaluate(() => {
    const root = document.documentElement;
    const wide = [...document.querySelectorAll('#victory-progress, #victory-progress *, #help-game, #help-game *')]
      .filter((e) => e.getBoundingClientRect().right > root.clientWidth + 1)
      .map((e) => `${e.tagName}.${e.className}`);
    return { scroll: root.scrollWidth, client: root.clientWidth, wide };
  });
  assert.ok(scroll <= client, `no sideways scrolling (${scroll} > ${client})`);
  assert.deepEqual(wide, []);
}

// Three empires of different sizes; the Doomsday Clock runs (a City fell earlier) and Carol
// already has her coin. Alice's Movement phase: when her turn ends, Bob rolls the Doomsday
// die before his Building Phase [5.5]; the scripted die is a 1, so his coin follows.
const POSITION_DOOMSDAY = {
  options: { players: 3, victory: ['standard', 'race', 'doomsday'], terrain_leveling: true, town_relocation: true },
  phase: 'movement',
  turn: 7,
  current: 0,
  hexes: {
    C3: { terrain: 'plains', town: 0, capital: 0, city: true },
    C5: { terrain: 'plains', town: 0, city: true },
    C7: { terrain: 'plains', town: 0 },
    F8: { terrain: 'plains', town: 1, capital: 1 },
    H3: { terrain: 'plains', town: 2, capital: 2, city: true },
    H5: { terrain: 'plains', town: 2 },
  },
  units: ['0 infantry C3 x2', '0 infantry C5 x2', '0 infantry C7', '1 infantry F8', '2 infantry H3 x2', '2 infantry H5'],
  players: [{}, {}, { doomsday_coin: true }],
  doomsday_started: true,
  dice: [1],
};

test('Race for Dominance + Doomsday Clock [5.4, 5.5]: the help names them; points, coins and the last roll as the server sent them', async () => {
  const gameId = await createGame({ victory: ['standard', 'race', 'doomsday'], rules: ['terrain_leveling', 'town_relocation'] });
  await load(gameId, POSITION_DOOMSDAY);
  const page = alice.page;
  await page.waitForSelector('#victory-progress li[data-condition="doomsday"]');

  // "This game": exactly the game's conditions and optional rules, with their case numbers.
  const view = lastWholeView(alice, gameId);
  const help = await helpItems(page);
  await assertNoPlumbing(page);
  assert.deepEqual(help.conditions, view.options.victory);
  assert.deepEqual(help.rules, ['terrain_leveling', 'town_relocation']);
  for (const rule of ['[5.1]', '[5.4]', '[5.5]', '[15.1]', '[15.5]']) assert.ok(help.text.includes(rule), rule);
  assert.ok(!help.text.includes('[5.3]') && !help.text.includes('[15.4]'), 'nothing the game does not use');

  // Race [5.4]: each empire's points are the view's victory_points, out of 20.
  const shown = await page.$$eval('#victory-progress li[data-condition="race"] .progress-figure', (els) => els.map((e) => [Number(e.dataset.seat), Number(e.dataset.points), e.textContent]));
  assert.equal(shown.length, view.players.length);
  for (const [seat, points, text] of shown) {
    assert.equal(points, view.players[seat].victory_points, `seat ${seat}'s points`);
    assert.ok(text.endsWith(`${view.players[seat].victory_points} / 20`), text);
  }
  assert.ok(new Set(shown.map((s) => s[1])).size > 1, 'the position gives the empires different points');
  const badges = await page.$$eval('#players .player .vp', (els) => els.map((e) => e.textContent));
  assert.ok(badges.every((t) => / \/ 20 VP$/.test(t)), badges.join());

  // Doomsday Clock [5.5]: running, with the coins of the view; no roll seen yet.
  const coinsOf = (v) => v.players.filter((p) => p.doomsday_coin).length;
  assert.equal(view.doomsday_started, true);
  assert.equal(Number(await page.getAttribute('#victory-progress .doomsday-coins', 'data-coins')), coinsOf(view));
  assert.match(await page.textContent('#victory-progress li[data-condition="doomsday"]'), /running.*Coins next to 1 of 3 Capitals: Carol \(Blue\)\. It ends the game when every Capital has a coin/);
  assert.equal(await page.locator('#victory-progress .doomsday-roll').count(), 0);

  // Alice ends her turn; Bob's turn starts with his Doomsday roll.
  for (let i = 0; i < 4; i += 1) {
    const state = await gameState(page);
    if (state.view.current !== 0) break;
    const end = state.legal.find((a) => a.kind === 'end_phase');
    assert.ok(end, `Alice can end the phase: ${JSON.stringify(state.legal)}`);
    await act(page, end);
    await waitForGameState(page, (s, seq) => s.seq > seq, state.seq);
  }
  const after = await waitForGameState(page, (s) => s.view.current === 1);
  for (const p of [alice, bob, carol]) {
    const roll = updateEvents(p, gameId).filter((e) => e.kind === 'dice_rolled' && e.purpose === 'doomsday').pop();
    assert.ok(roll, 'the server sent a Doomsday roll');
    const spot = p.page.locator('#victory-progress .doomsday-roll');
    await spot.waitFor();
    assert.equal(Number(await spot.getAttribute('data-player')), roll.player);
    assert.equal(Number(await spot.getAttribute('data-die')), roll.dice[0]);
    await p.page.waitForFunction((n) => document.querySelector('#victory-progress .doomsday-coins').dataset.coins === String(n), coinsOf((await gameState(p.page)).view));
  }
  assert.equal(coinsOf(after.view), coinsOf(view) + 1, 'the scripted 1 put Bob\'s coin down');
  assert.match(await bob.page.textContent('#victory-progress .doomsday-roll'), /You rolled 1 \(a coin\)/);
  // A page opened later (no roll seen live) shows each player's last roll from the view [5.5].
  await carol.page.reload();
  const rolls = carol.page.locator('#victory-progress .doomsday-rolls');
  await rolls.waitFor();
  assert.equal(await carol.page.locator('#victory-progress .doomsday-roll').count(), 0);
  assert.equal(await rolls.locator('[data-seat="1"]').getAttribute('data-die'), '1');
  assert.match(await rolls.textContent(), /^Last rolls: Bob 1/);

  await page.setViewportSize({ width: 1366, height: 900 });
  await page.locator('#players').scrollIntoViewIfNeeded();
  await assertFits(page);
  await page.screenshot({ path: screenshotPath('victory-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.locator('#players').scrollIntoViewIfNeeded();
  await assertFits(page);
  await page.screenshot({ path: screenshotPath('victory-phone.png') });
  await page.setViewportSize({ width: 1400, height: 900 });
  for (const p of [alice, bob, carol]) assert.deepEqual(p.errors, []);
});

// Subjugation Conquest [5.2]: Bob is Alice's Vassal [15.61]; Carol is free.
const POSITION_VASSAL = {
  options: { players: 3, victory: 'subjugation', subjugation: true },
  phase: 'movement',
  turn: 6,
  current: 2,
  hexes: {
    C3: { terrain: 'plains', town: 0, capital: 0 },
    F8: { terrain: 'plains', town: 1, capital: 1 },
    H3: { terrain: 'plains', town: 2, capital: 2 },
  },
  units: ['0 infantry C3', '1 infantry F8', '2 infantry H3'],
  players: [{}, { ruler: 0 }, {}],
};

test('Subjugation Conquest [5.2]: who is whose Vassal and how many Vassals each player has, as the view says', async () => {
  const gameId = await createGame({ victory: ['subjugation'] });
  await load(gameId, POSITION_VASSAL);
  const page = carol.page;
  await page.waitForSelector('#victory-progress li[data-condition="subjugation"]');
  const view = lastWholeView(carol, gameId);
  const help = await helpItems(page);
  await assertNoPlumbing(page);
  assert.deepEqual(help.conditions, ['subjugation']);
  assert.deepEqual(help.rules, ['subjugation']);
  // No Race or Clock in this game.
  assert.deepEqual(await page.$$eval('#victory-progress li', (els) => els.map((e) => e.dataset.condition)), ['subjugation', 'standard']);
  const figures = await page.$$eval('#victory-progress li[data-condition="subjugation"] .progress-figure', (els) => els.map((e) => ({ ...e.dataset })));
  assert.equal(figures.length, view.players.length);
  for (const f of figures) {
    const p = view.players[Number(f.seat)];
    if (p.ruler >= 0) {
      assert.equal(Number(f.ruler), p.ruler);
    } else {
      assert.equal(Number(f.vassals), p.vassals.length, `seat ${f.seat}'s Vassals`);
      assert.equal(Number(f.of), view.players.length - 1);
    }
  }
  assert.ok(figures.some((f) => Number(f.vassals) > 0), 'someone has a Vassal');
  assert.match(await page.textContent('#victory-progress'), /Alice 1 \/ 2 Vassals.*Bob Vassal of Alice.*Carol 0 \/ 2 Vassals/);
  await page.locator('#victory-progress').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('victory-subjugation.png') });
});

// Shorter Conquest + Doomsday Clock: no City has fallen, so the Clock does not run; every
// Capital still stands [5.3, 5.5].
const POSITION_SHORTER = {
  options: { players: 3, victory: ['shorter', 'doomsday'] },
  phase: 'build',
  turn: 4,
  current: 1,
  hexes: {
    C3: { terrain: 'plains', town: 0, capital: 0 },
    F8: { terrain: 'plains', town: 1, capital: 1 },
    H3: { terrain: 'plains', town: 2, capital: 2 },
  },
  units: ['0 infantry C3', '1 infantry F8', '2 infantry H3'],
};

test('Shorter Conquest + Doomsday Clock [5.3, 5.5]: the Capitals standing and a Clock not yet running, as the view says', async () => {
  const gameId = await createGame({ victory: ['shorter', 'doomsday'] });
  await load(gameId, POSITION_SHORTER);
  const page = bob.page;
  await page.waitForSelector('#victory-progress li[data-condition="shorter"]');
  const view = lastWholeView(bob, gameId);
  const help = await helpItems(page);
  await assertNoPlumbing(page);
  assert.deepEqual(help.conditions, view.options.victory);
  assert.deepEqual(help.rules, []);
  assert.match(help.text, /Standard Conquest \[5\.1\] applies as well/);
  assert.deepEqual(await page.$$eval('#victory-progress li', (els) => els.map((e) => e.dataset.condition)), ['shorter', 'doomsday', 'standard']);
  assert.equal(view.doomsday_started, false);
  assert.match(await page.textContent('#victory-progress li[data-condition="doomsday"]'), /not running: it starts when the first City is captured/);
  assert.equal(await page.locator('#victory-progress .doomsday-coins').count(), 0);
  const standing = await page.$$eval('#victory-progress li[data-condition="shorter"] .progress-figure', (els) => els.map((e) => Number(e.dataset.seat)));
  assert.deepEqual(standing, view.players.flatMap((p, seat) => (p.capital_hex >= 0 && p.holds_capital ? [seat] : [])));
  assert.equal(standing.length, 3);
  await page.locator('#victory-progress').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('victory-shorter.png') });
});
