// Standing orders in the browser (docs/client.md): Bob sets an order on his account page; in a
// day-clock game he is away (in the lobby) when Alice's attack leaves him the choice of his
// losses [10.1]: his order decides at once and both logs say "(standing order)"; back in the
// game he finds this game's orders beside the map and changes one for this game only.
// Screenshots at 1366 and 390 px: standing-orders-account*.png, standing-orders-game*.png,
// and the create form's grace period: standing-orders-create.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gameState, waitForGameState, loadPosition, useTable, screenshotPath } from './lib/harness.js';

let server;
let alice;
let bob;
useTable(
  ['Alice', 'Bob'],
  (table) => {
    ({ server } = table);
    [alice, bob] = table.players;
  },
  { signedIn: true },
);

// Alice's Infantry has moved from E4 into E5, where Bob holds two Artillery, a Cavalry and an
// Infantry. Her die hits (a 2: his choice [10.1]), his three dice miss.
const POSITION = {
  options: { players: 2 },
  phase: 'movement',
  turn: 3,
  current: 0,
  hexes: {
    B5: { terrain: 'plains', town: 0, capital: 0 },
    H2: { terrain: 'plains', town: 1, capital: 1 },
    F2: { terrain: 'mountain', town: 1, city: true },
    H4: { terrain: 'mountain', town: 1, city: true },
    G6: { terrain: 'grassland', town: 1, city: true },
    E4: 'plains',
    E5: 'plains',
    D4: 'plains',
    D5: 'plains',
    F4: 'plains',
    F5: 'plains',
    E6: 'plains',
  },
  units: [{ owner: 0, type: 'infantry', hex: 'E4', name: 'attacker' }, '1 artillery E5 x2', '1 cavalry E5', '1 infantry E5'],
  reserves: [{}, { infantry: 3 }],
  dice: [2, 6, 6, 6],
  actions: [{ kind: 'move', unit: 'attacker', hex: 'E5' }],
};

const noSidewaysScroll = (page) => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);

test('the account page sets standing orders, kept by the server', async () => {
  const { page } = bob;
  await page.setViewportSize({ width: 1366, height: 900 });
  await page.goto('/#/account');
  const casualties = page.locator('#standing-casualties');
  await casualties.waitFor();
  // A new account starts with sensible orders.
  assert.equal(await casualties.inputValue(), 'cheapest');
  assert.equal(await page.inputValue('#standing-retreat'), 'when_outnumbered');
  assert.equal(await page.locator('#standing-orders select').count(), 7);
  await casualties.selectOption('keep_artillery');
  await page.getByText('Standing orders saved.').waitFor();
  await page.locator('#standing-orders').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('standing-orders-account.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.locator('#standing-casualties').waitFor();
  assert.equal(await page.inputValue('#standing-casualties'), 'keep_artillery', 'the server kept it');
  assert.ok(await noSidewaysScroll(page), 'no sideways scrolling at phone width');
  await page.locator('#standing-orders').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('standing-orders-account-phone.png') });
  await page.setViewportSize({ width: 1400, height: 900 });
});

test('in a day-clock game, away, his order decides his losses at once; back, he sees and changes this game’s', async () => {
  // Alice creates the game with a day clock: a player who has the game open is always waited for.
  await alice.page.goto('/#/');
  await bob.page.goto('/#/');
  await alice.page.waitForSelector('#create-form');
  await alice.page.selectOption('#clock_per_move', String(86400));
  assert.equal(await alice.page.inputValue('#decision_grace'), '0');
  await alice.page.selectOption('#clock_per_move', '120');
  assert.equal(await alice.page.inputValue('#decision_grace'), '60', 'a live clock: one minute by default');
  await alice.page.selectOption('#clock_per_move', String(86400));
  await alice.page.locator('#create-form').screenshot({ path: screenshotPath('standing-orders-create.png') });
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  const row = bob.page.locator(`#open-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  await row.locator('button', { hasText: 'Join' }).click();
  for (const p of [alice, bob]) await waitForGameState(p.page, (s) => s.view.phase === 'setup');
  server = await loadPosition(server, gameId, POSITION, [alice, bob]);
  for (const p of [alice, bob]) await waitForGameState(p.page, (s) => s.view.turn === 3, null, 30000);

  // Bob goes away: back to the lobby.
  await bob.page.goto('/#/');
  await bob.page.waitForSelector('#create-form');
  const state = await gameState(alice.page);
  const e5 = state.view.hexes.find((x) => x.label === 'E5').hex;
  const bobsInfantry = state.view.units.find((u) => u.owner === 1 && u.type === 'infantry' && u.hex === e5).id;
  await alice.page.locator(`[data-battle-hex="${e5}"]`).click();
  await alice.page.click('dialog.modal .btn-primary');
  // His order (Artillery kept for last) chose at once, and Alice's turn goes on.
  const after = await waitForGameState(alice.page, (s) => s.view.battle && s.view.battle.stage === 'retreat_option' && s.view.decider === 0);
  const hits = alice.frames.filter((f) => f.type === 'game.update').flatMap((f) => f.events).filter((e) => e.kind === 'unit_hit');
  assert.deepEqual(hits.map((e) => e.unit), [bobsInfantry]);
  const line = alice.page.locator('#log li', { hasText: '(standing order)' });
  await line.first().waitFor();
  // Said once, on the decision itself (not on the dice and losses that came after it).
  assert.equal(await line.count(), 1);
  assert.match(await line.first().textContent(), /Yellow's Infantry at E5 is hit\. \(standing order\)/);
  assert.ok(after.seq >= 2);
  await alice.page.setViewportSize({ width: 1366, height: 900 });
  await line.first().scrollIntoViewIfNeeded();
  await alice.page.screenshot({ path: screenshotPath('standing-orders-game.png') });

  // Bob comes back: his log says so too, and the panel shows this game's orders.
  await bob.page.goto(`/#/game/${gameId}`);
  await waitForGameState(bob.page, (s, n) => s.seq >= n, after.seq);
  await bob.page.locator('#log li', { hasText: '(standing order)' }).first().waitFor();
  const panel = bob.page.locator('#standing-orders');
  await panel.locator('summary').click();
  const select = bob.page.locator('#game-standing-casualties');
  await select.waitFor();
  assert.equal(await select.inputValue(), '', 'as on his account');
  assert.equal(await select.locator('option[value=""]').textContent(), 'As on my account');
  assert.match(await bob.page.textContent('#game-standing-casualties-help'), /Your account: Keep Artillery for last\./);
  assert.match(await bob.page.textContent('#decision-grace'), /always waits for you/);
  await select.selectOption('keep_cavalry');
  await bob.page.waitForFunction(() => {
    const s = document.getElementById('game-standing-casualties');
    return s && s.value === 'keep_cavalry' && !s.matches(':focus');
  });
  // The select shows the choice at once; the server's answer follows it over the socket.
  const answered = () => bob.frames.filter((f) => f.type === 'game.standing_orders').pop();
  for (let i = 0; i < 100 && answered()?.orders?.casualties !== 'keep_cavalry'; i += 1) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const reply = answered();
  assert.equal(reply.orders.casualties, 'keep_cavalry');
  assert.deepEqual(reply.game_orders, { casualties: 'keep_cavalry' });
  assert.equal(reply.account_orders.casualties, 'keep_artillery', 'his account keeps its own');
  // Nobody else is told his orders.
  assert.equal(alice.frames.filter((f) => f.type === 'game.standing_orders' && f.seat === 1).length, 0);
  await bob.page.setViewportSize({ width: 390, height: 844 });
  assert.ok(await noSidewaysScroll(bob.page), 'no sideways scrolling at phone width');
  await panel.scrollIntoViewIfNeeded();
  await bob.page.screenshot({ path: screenshotPath('standing-orders-game-phone.png') });
  await bob.page.setViewportSize({ width: 1400, height: 900 });
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
