// The client's comforts, from positions written as scenarios (lib/harness.js loadPosition):
// the invitation page, round and player turn, confirmations before actions that cannot be
// undone, finding and landing a Frigate's cargo, playing with the keyboard alone (ARIA names,
// focus kept), the warning at the end of the Movement phase, the other player's last moves,
// log lines that outline their hexes, rules help, settings kept, sounds, "City" when a City
// falls. Screenshots of each go to docs/screenshots/ with `npm run screenshots`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  signIn,
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
let gameId;

useTable(
  ['Alice', 'Bob'],
  (table) => {
    ({ server, browser } = table);
    [alice, bob] = table.players;
  },
);

// Red: a Mountain City Capital (E3) and a Forest City (G2); Infantry in E3, Artillery next to
// a Yellow Infantry (E4, E5), a Frigate on F1 with an Infantry aboard. Around C2, where Red may
// build, the tiles are still face down. Turn 4 with Yellow first: round 2, Red plays second.
// The one scripted die (5) makes the bombardment miss.
const POSITION_BUILD = {
  options: { players: 2 },
  phase: 'build',
  turn: 4,
  first_player: 1,
  current: 0,
  hexes: {
    E3: { terrain: 'mountain', town: 0, city: true, capital: 0 },
    G2: { terrain: 'forest', town: 0, city: true },
    E2: 'plains',
    F2: 'plains',
    E4: 'plains',
    D3: 'plains',
    C2: 'plains',
    E5: 'grassland',
    E6: 'plains',
    E7: { terrain: 'plains', town: 1, capital: 1 },
  },
  units: [
    '0 infantry E3',
    { owner: 0, type: 'artillery', hex: 'E4', name: 'gun' },
    { owner: 0, type: 'frigate', hex: 'F1', name: 'ship' },
    { owner: 0, type: 'infantry', carrier: 'ship' },
    '1 infantry E5',
  ],
  dice: [5],
};

// Red's Infantry next to Yellow's Plains City (E7, Yellow's Capital), which no unit defends;
// Yellow's three Infantry stand elsewhere, so he must choose which two return to stock when
// the City falls. The City's two dice miss (scripted 6s).
const POSITION_CITY = {
  options: { players: 2 },
  phase: 'movement',
  turn: 3,
  current: 0,
  hexes: {
    E3: { terrain: 'plains', town: 0, capital: 0 },
    E6: 'plains',
    E7: { terrain: 'plains', town: 1, city: true, capital: 1 },
    C5: { terrain: 'plains', town: 1 },
    D6: 'plains',
  },
  units: ['0 infantry E6', '1 infantry C5 x2', '1 infantry D6'],
  dice: [6, 6, 6, 6, 6, 6],
};

const hexOf = (state, label) => state.view.hexes.find((x) => x.label === label).hex;
const seqAbove = (page, n) => waitForGameState(page, (s, k) => s.seq > k, n);

async function focusedHex(page) {
  return page.evaluate(() => {
    const el = document.activeElement;
    return el && el.dataset && el.dataset.hitHex !== undefined ? Number(el.dataset.hitHex) : null;
  });
}

// Walks the keyboard focus over the map to `target` with the arrow keys only.
async function keyTo(page, state, target) {
  const coord = (hex) => state.view.hexes.find((x) => x.hex === hex);
  for (let i = 0; i < 40; i += 1) {
    const at = await focusedHex(page);
    assert.notEqual(at, null, 'the keyboard focus is on a hex');
    if (at === target) return;
    const a = coord(at);
    const b = coord(target);
    let key;
    if (b.r < a.r) key = 'ArrowUp';
    else if (b.r > a.r) key = 'ArrowDown';
    else key = b.q < a.q ? 'ArrowLeft' : 'ArrowRight';
    await page.keyboard.press(key);
  }
  throw new Error(`keyTo: hex ${target} not reached`);
}

// Puts the keyboard focus on the map: Tab from the end-of-phase button (Undo, after it, is
// disabled once dice were rolled, so the next stop is the map).
async function tabIntoMap(page) {
  await page.focus('#end-phase');
  await page.keyboard.press('Tab');
  assert.notEqual(await focusedHex(page), null, 'Tab after the action bar lands on the map');
}

test('an invitation names who invites to which game, before and after choosing a name', async () => {
  await signIn(alice, 'Alice');
  await alice.page.check('#private');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const link = await alice.page.inputValue('#invite-link');
  gameId = Number(link.match(/#\/join\/(\d+)\//)[1]);
  // Bob has no name yet: the name form says what the link is for.
  await bob.page.goto(link);
  await bob.page.waitForSelector('#welcome-invite:not([hidden]) h1');
  assert.equal(await bob.page.textContent('#welcome-invite h1'), `Alice invites you to game ${gameId}`);
  await bob.page.fill('#name', 'Bob');
  await bob.page.click('form.welcome-form button[type=submit]');
  // Then the invitation page: the game, its options and seats; nothing is joined yet.
  await bob.page.waitForSelector('#invite-title');
  assert.equal(await bob.page.textContent('#invite-title'), `Alice invites you to game ${gameId}`);
  assert.match(await bob.page.textContent('#invite-options'), /2 players · Standard Conquest · Standard tiles · private game/);
  assert.match(await bob.page.textContent('.invite-page .seat-list'), /Red — Alice.*Yellow — free seat/s);
  await bob.page.screenshot({ path: screenshotPath('invite.png') });
  assert.equal(await alice.page.locator('#waiting .seat-list li.free').count(), 1, 'opening the link took no seat');
  await bob.page.click('#accept-invite');
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await waitForGameState(bob.page, (s) => s.view.phase === 'setup');
  assert.equal((await gameState(bob.page)).you.seat, 1);
});

test('a scenario position is loaded into the game', async () => {
  server = await loadPosition(server, gameId, POSITION_BUILD, [alice, bob]);
  await waitForGameState(alice.page, (s) => s.view.phase === 'build' && s.view.turn === 4, undefined, 30000);
  await waitForGameState(bob.page, (s) => s.view.phase === 'build' && s.view.turn === 4, undefined, 30000);
});

test('the prompt shows the turn as the log counts it, with the round and the player turn', async () => {
  // Turn 4 of 2 players, Yellow first: round 2, and Red is second in it.
  assert.equal(await alice.page.textContent('#round'), 'Turn 4 · round 2 (2 of 2)');
  assert.equal(await bob.page.textContent('#round'), 'Turn 4 · round 2 (2 of 2)');
});

test('sounds are off until turned on; then a die roll rattles', async () => {
  assert.equal(await bob.page.evaluate(() => window.__viktoryGame.sounds.length), 0);
  await bob.page.click('#settings summary');
  await bob.page.check('#setting-soundBattle');
  await bob.page.check('#setting-soundTurn');
  // Turning a sound on plays it once, as a sample.
  const played = await bob.page.evaluate(() => window.__viktoryGame.sounds.map((x) => x.name));
  assert.deepEqual(played, ['battle', 'turn']);
  const stored = await bob.page.evaluate(() => JSON.parse(localStorage.getItem('viktory.settings')));
  assert.equal(stored.soundBattle, true);
  assert.equal(await alice.page.evaluate(() => window.__viktoryGame.sounds.length), 0);
});

test('a build that turns tiles over asks first; Cancel sends nothing', async () => {
  const state = await gameState(alice.page);
  const c2 = hexOf(state, 'C2');
  assert.ok(state.legal.some((a) => a.kind === 'build_town' && a.hex === c2), 'C2 is a legal build site');
  await alice.page.click('.action-bar button:has-text("Build Town")');
  await clickHex(alice.page, c2);
  const dialog = alice.page.locator('dialog.confirm-sealing');
  await dialog.waitFor();
  assert.equal(await dialog.locator('.modal-title').textContent(), 'Build a Town at C2?');
  assert.match(await dialog.textContent(), /turns over 3 face-down tiles around it \[7\.3\] and ends your Build phase\. After that, nothing you did this turn can be undone\./);
  await alice.page.mouse.move(5, 5);
  await alice.page.screenshot({ path: screenshotPath('confirm.png') });
  await dialog.locator('button:has-text("Cancel")').click();
  await alice.page.waitForSelector('dialog.confirm-sealing', { state: 'detached' });
  assert.equal((await gameState(alice.page)).seq, 0, 'nothing was sent');
  assert.equal(await alice.page.locator(`.town[data-owner="0"]`).count(), 0);
  // Skip building instead (the page asks, since something could be built).
  await alice.page.click('#end-phase');
  await alice.page.click('dialog.modal .btn-primary');
  await waitForGameState(alice.page, (s) => s.view.phase === 'movement');
});

test('with an empty Reserve the end of the Movement phase says that it ends the turn', async () => {
  const state = await gameState(alice.page);
  assert.ok(Object.values(state.view.players[0].reserve).every((n) => n === 0));
  assert.equal(await alice.page.textContent('#end-phase'), 'End Movement phase & turn');
  assert.match(await alice.page.getAttribute('#end-phase', 'title'), /ends your turn/);
});

test('bombarding asks first; the choice at a hex never says "null"', async () => {
  const state = await gameState(alice.page);
  const e4 = hexOf(state, 'E4');
  const e5 = hexOf(state, 'E5');
  await clickHex(alice.page, e4);
  await alice.page.waitForSelector(`.target-bombard[data-target="${e5}"]`);
  await clickHex(alice.page, e5);
  // E5 offers two actions for the Artillery: the page asks which.
  const chooser = alice.page.locator('dialog.choice');
  await chooser.waitFor();
  const text = await chooser.textContent();
  assert.doesNotMatch(text, /null|undefined/);
  assert.match(text, /What to do at E5\?/);
  await chooser.locator('button:has-text("bombard E5")').click();
  const dialog = alice.page.locator('dialog.confirm-sealing');
  await dialog.waitFor();
  assert.match(await dialog.textContent(), /fires one die at E5/);
  await dialog.locator('button:has-text("Cancel")').click();
  assert.equal((await gameState(alice.page)).seq, state.seq, 'Cancel sent nothing');
  // Again, and this time fire.
  await clickHex(alice.page, e5);
  await alice.page.locator('dialog.choice button:has-text("bombard E5")').click();
  await alice.page.click('dialog.confirm-sealing .btn-primary');
  await seqAbove(bob.page, state.seq);
  const after = await gameState(bob.page);
  assert.ok(after.log.some((l) => /bombards/.test(l.text)));
  assert.equal(after.can_undo, false);
  // Bob turned the dice sound on: the roll rattled on his page, not on Alice's.
  await bob.page.waitForFunction(() => window.__viktoryGame.sounds.filter((x) => x.name === 'battle').length === 2);
  assert.equal(await alice.page.evaluate(() => window.__viktoryGame.sounds.length), 0);
});

test('the cargo of a Frigate is shown and its landing hexes light up from the legal list', async () => {
  const state = await gameState(alice.page);
  const frigate = state.view.units.find((u) => u.type === 'frigate' && u.owner === 0);
  const cargo = state.view.units.find((u) => u.carrier === frigate.id);
  const landings = state.legal.filter((a) => a.kind === 'disembark' && a.unit === cargo.id).map((a) => a.hex);
  assert.ok(landings.length >= 1);
  // The Frigate's counter says what it carries, and that it can land it now.
  const counter = alice.page.locator(`.unit-frigate[data-units="${frigate.id}"]`);
  assert.equal(await counter.getAttribute('aria-label'), '1 Red Frigate, carrying Infantry');
  assert.equal(await counter.locator('.cargo-box.cargo-ready').count(), 1);
  const button = alice.page.locator(`[data-land-from="${frigate.id}"]`);
  assert.equal(await button.textContent(), '⚓ Land Infantry from F1');
  await button.click();
  const lit = await alice.page.$$eval('.target-disembark', (els) => els.map((e) => Number(e.dataset.target)));
  assert.deepEqual(new Set(lit), new Set(landings));
  await alice.page.mouse.move(5, 5);
  await alice.page.screenshot({ path: screenshotPath('landing.png') });
  await alice.page.keyboard.press('Escape');
});

test('keyboard only: every hex is reachable, named for screen readers, and operable; focus stays', async () => {
  const page = alice.page;
  const state = await gameState(page);
  await tabIntoMap(page);
  // The map is one tab stop; hexes are buttons with names that say what is there.
  assert.equal(await page.locator('.layer-hits [tabindex="0"]').count(), 1);
  const e3 = page.getByRole('button', { name: /^E3, Mountain, your City, your Capital, 1 Infantry$/ });
  assert.equal(await e3.count(), 1);
  const snapshot = await page.getByRole('application', { name: 'Game map' }).ariaSnapshot();
  assert.match(snapshot, /button "E5, Grassland; Bob \(Yellow\): 1 Infantry"/);
  assert.match(snapshot, /button "F1, Water, 1 Frigate, 1 Infantry aboard/);
  // Every hex can be reached: row by row from the top with the arrow keys alone.
  const seen = new Set();
  for (let i = 0; i < 12; i += 1) await page.keyboard.press('ArrowUp');
  for (let row = 0; row < 12; row += 1) {
    await page.keyboard.press('Home');
    let last = null;
    for (;;) {
      const at = await focusedHex(page);
      seen.add(at);
      if (at === last) break;
      last = at;
      await page.keyboard.press('ArrowRight');
    }
    const before = await focusedHex(page);
    await page.keyboard.press('ArrowDown');
    if ((await focusedHex(page)) === before) break;
  }
  assert.equal(seen.size, state.view.hexes.length, 'every hex was reached');
  // Land the Frigate's cargo: Enter on the Frigate selects it, Enter on a lit hex lands.
  const f1 = hexOf(state, 'F1');
  const f2 = hexOf(state, 'F2');
  await keyTo(page, state, f1);
  await page.keyboard.press('Enter');
  await page.waitForSelector(`.target-disembark[data-target="${f2}"]`);
  assert.equal(await focusedHex(page), f1, 'the focus stays on the hex after selecting');
  await keyTo(page, state, f2);
  assert.match(await page.getAttribute(`[data-hit-hex="${f2}"]`, 'aria-label'), /^F2, Plains\. Land here$/);
  await page.screenshot({ path: screenshotPath('keyboard.png') });
  await page.keyboard.press('Space');
  await waitForGameState(page, (s, h) => s.view.units.some((u) => u.owner === 0 && u.type === 'infantry' && u.hex === h && u.carrier < 0), f2);
  assert.equal(await focusedHex(page), f2, 'the focus is still on the hex after the update');
  assert.match(await page.getAttribute(`[data-hit-hex="${f2}"]`, 'aria-label'), /^F2, Plains, 1 Infantry/);
});

test('ending the Movement phase with units that can still move warns first', async () => {
  const page = alice.page;
  const seq = (await gameState(page)).seq;
  await page.click('#end-phase');
  const dialog = page.locator('dialog.modal');
  await dialog.waitFor();
  const text = await dialog.textContent();
  assert.match(text, /End the Movement phase and your turn\?/);
  assert.match(text, /1 Infantry at E3/);
  assert.match(text, /Your Reserve is empty, so this also ends your turn\./);
  await dialog.locator('.btn-primary').click();
  await waitForGameState(bob.page, (s) => s.view.current === 1 && s.view.decider === 1);
  assert.ok((await gameState(page)).seq > seq);
});

test('the other player sees the last moves until he dismisses them; his turn chimes', async () => {
  const page = bob.page;
  // (Trails are lines: a level one has no height, so wait for it in the DOM, not "visible".)
  await page.waitForSelector('.move-trail.last-move', { state: 'attached' });
  const state = await gameState(page);
  const trails = await page.$$eval('.move-trail.last-move', (els) => els.map((e) => `${e.dataset.from}>${e.dataset.to}`));
  assert.ok(trails.includes(`${hexOf(state, 'F1')}>${hexOf(state, 'F2')}`), 'the landing is drawn');
  assert.ok(trails.includes(`${hexOf(state, 'E4')}>${hexOf(state, 'E5')}`), 'the bombardment is drawn');
  assert.match(await page.textContent('#last-moves'), /Last moves of Alice \(Red\)/);
  assert.ok(await page.evaluate(() => window.__viktoryGame.sounds.some((x) => x.name === 'turn' && x.at > 0)));
  // They survive a reload while nothing happened in between.
  await page.reload();
  await page.waitForSelector('.move-trail.last-move', { state: 'attached' });
  await page.click('#dismiss-last-moves');
  assert.equal(await page.locator('.move-trail.last-move').count(), 0);
  assert.equal(await page.locator('#last-moves').textContent(), '');
});

test('log lines outline the hexes they name, by pointer and by keyboard', async () => {
  const page = alice.page;
  const state = await gameState(page);
  const line = page.locator('#log li', { hasText: 'bombards' });
  await line.hover();
  const flashed = async () => (await page.$$eval('.flash-hex', (els) => els.map((e) => Number(e.dataset.flashHex)))).sort((a, b) => a - b);
  assert.deepEqual(await flashed(), [hexOf(state, 'E4'), hexOf(state, 'E5')].sort((a, b) => a - b));
  await page.screenshot({ path: screenshotPath('log-highlight.png') });
  await page.mouse.move(5, 5);
  assert.deepEqual(await flashed(), []);
  await page.focus('#log');
  await page.keyboard.press('End');
  await page.keyboard.press('ArrowUp');
  const active = await page.$eval('#log li.active', (li) => li.dataset.hexes);
  assert.deepEqual(await flashed(), active ? active.split(',').map(Number).sort((a, b) => a - b) : []);
});

test('rules help tells what the phase allows; the hex labels setting is remembered', async () => {
  const page = bob.page;
  await waitForGameState(page, (s) => s.view.phase === 'build');
  await page.click('#help summary');
  assert.match(await page.textContent('#help-phase'), /Now: Build phase \[7\.0\]/);
  assert.equal(await page.locator('#help table').count(), 2);
  await page.locator('#help').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('rules-help.png') });
  assert.equal(await page.locator('.layer-coords .coord').count(), 0);
  await page.check('#labels-toggle');
  assert.ok((await page.locator('.layer-coords .coord').count()) > 0);
  await page.reload();
  await page.waitForSelector('.layer-tiles [data-hex]');
  assert.ok(await page.isChecked('#labels-toggle'), 'the setting survived the reload');
  assert.ok((await page.locator('.layer-coords .coord').count()) > 0);
  await page.uncheck('#labels-toggle');
});

test('when a City falls its owner is told it was a City (and which)', async () => {
  // A second game between the two, started at once from the lobby.
  await alice.page.goto('/#/');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const second = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await bob.page.goto('/#/');
  await bob.page.locator(`#open-games [data-game-id="${second}"] button`).click();
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup' && s.game_id === second);
  server = await loadPosition(server, second, POSITION_CITY, [alice, bob]);
  await waitForGameState(alice.page, (s) => s.view.phase === 'movement', undefined, 30000);
  await waitForGameState(bob.page, (s) => s.view.phase === 'movement', undefined, 30000);
  // Alice has turned off the questions before dice: the battle starts on the first click.
  await alice.page.click('#settings summary');
  await alice.page.uncheck('#setting-confirmSealing');
  let state = await gameState(alice.page);
  const e6 = hexOf(state, 'E6');
  const e7 = hexOf(state, 'E7');
  await clickHex(alice.page, e6);
  await clickHex(alice.page, e7);
  state = await waitForGameState(alice.page, (s) => s.legal.some((a) => a.kind === 'start_battle'));
  await alice.page.click(`.action-bar [data-battle-hex="${e7}"]`);
  assert.equal(await alice.page.locator('dialog.confirm-sealing').count(), 0, 'no question with the setting off');
  await waitForGameState(bob.page, (s) => s.legal.some((a) => a.kind === 'eliminate_unit'));
  const card = bob.page.locator('.decision-card');
  await card.waitFor();
  assert.equal(await card.locator('h2').textContent(), 'You lost the City at E7: return units to stock');
  assert.match(await bob.page.textContent('#prompt'), /You lost the City at E7/);
  assert.match(await alice.page.textContent('#prompt'), /must return units to stock after losing the City at E7/);
  await bob.page.screenshot({ path: screenshotPath('lost-city.png') });
  // After a reload the page no longer has the event, but two units owed can only be a City's.
  await bob.page.reload();
  await bob.page.locator('.decision-card').waitFor();
  assert.equal(await bob.page.locator('.decision-card h2').textContent(), 'You lost a City: return units to stock');
});

test('no script errors on either page', () => {
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
