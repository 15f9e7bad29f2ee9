// Fog of war in the browser (issue 23; the decisions in docs/rules-notes.md, what the page shows
// in docs/client.md, "Fog of war"): the create form sends the option and every options line
// names it; a fog game seen by two players, each page holding only his sight (in the DOM and in
// every WebSocket frame it received: no enemy unit outside sight, no hex label of one in a log
// line); hexes out of sight drawn shaded; the "last seen" mark of enemy units once they are out
// of sight, with the round, in the tooltip and the accessible name, kept while the enemy moves
// unseen. From a position written as a scenario (lib/harness.js loadPosition). Screenshots:
// fog-create.png, fog-alice.png, fog-bob.png, fog-bob-since.png, fog-spectator.png,
// fog-phone.png, fog-de.png, fog-help.png.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { clickHex, gameState, loadPosition, screenshotPath, useTable, waitForGameState } from './lib/harness.js';

let server;
let alice; // seat 0, Red
let bob; // seat 1, Yellow
let carol; // a spectator

useTable(
  ['Alice', 'Bob', 'Carol'],
  (table) => {
    ({ server } = table);
    [alice, bob, carol] = table.players;
  },
  { signedIn: true },
);

const UNIT_TYPES = ['infantry', 'cavalry', 'artillery', 'frigate'];
const hexOf = (state, label) => state.view.hexes.find((x) => x.label === label).hex;
const labelOf = (state, hex) => state.view.hexes[hex].label;

// Every interior hex laid face up (nothing is drawn when units move), a few forests for the eye.
function laidHexes() {
  const rows = { B: 6, C: 7, D: 8, E: 9, F: 8, G: 7, H: 6 };
  const hexes = {};
  for (const [row, n] of Object.entries(rows)) {
    for (let col = 2; col < n; col += 1) hexes[`${row}${col}`] = (col + row.charCodeAt(0)) % 5 === 0 ? 'forest' : 'plains';
  }
  return hexes;
}

// Red: Capital Town B3, a Grassland City C2 (each City sees 3 hexes in this game), Infantry on
// B3 and a scout Infantry on D5; Cavalry on C2. Yellow: Capital City G5 (Grassland), Town F7,
// two Infantry on E6 (next to Red's scout: Red sees them) and Cavalry on G3 (4 hexes from Red's
// City, 3 from the scout: Red never sees it). Red's scout stands next to Yellow's Infantry,
// so Yellow sees it; Red's other units are beyond Yellow's sight. Turn 3 of 2 players: round 2.
// Red's Cavalry rides C2 -> C3 in the scenario itself: the engine fills each player's memory of
// units seen after every action, and the scenario tool's position form leaves it empty (a
// one-list-per-player memory the server can read back comes only after an action).
const FOG_POSITION = {
  options: { players: 2, fog_of_war: true, fog_city_sight: 3 },
  phase: 'movement',
  turn: 3,
  current: 0,
  hexes: {
    ...laidHexes(),
    B3: { terrain: 'plains', town: 0, capital: 0 },
    C2: { terrain: 'grassland', town: 0, city: true },
    G5: { terrain: 'grassland', town: 1, city: true, capital: 1 },
    F7: { terrain: 'plains', town: 1 },
  },
  units: ['0 infantry B3', { owner: 0, type: 'cavalry', hex: 'C2', name: 'rider' }, { owner: 0, type: 'infantry', hex: 'D5', name: 'scout' }, '1 infantry E6 x2', '1 cavalry G3'],
  actions: [{ kind: 'move', unit: 'rider', hex: 'C3' }],
};

// Every unit object anywhere in a page's frames: [{frame index, unit}].
function unitMentions(frames) {
  const found = [];
  frames.forEach((frame, index) => {
    const walk = (node) => {
      if (Array.isArray(node)) {
        for (const x of node) walk(x);
      } else if (node && typeof node === 'object') {
        if (UNIT_TYPES.includes(node.type) && Number.isInteger(node.owner) && typeof node.place === 'string') found.push({ index, unit: node });
        for (const v of Object.values(node)) walk(v);
      }
    };
    walk(frame);
  });
  return found;
}

// Every view the page received whole (game.state), as [frame index, view].
function views(frames) {
  return frames.map((f, i) => [i, f]).filter(([, f]) => f && f.type === 'game.state' && f.view).map(([i, f]) => [i, f.view]);
}

// Fails when a frame other than the static board (it names every hex's label once) names one
// of these hex labels, showing the frame's words around it.
function assertNoLabel(player, who, labels) {
  for (const text of player.rawFrames) {
    if (text.includes('"type":"game.board"')) continue;
    for (const label of labels) {
      const m = new RegExp(`\\b${label}\\b`).exec(text);
      if (m) assert.fail(`${who}'s frames name ${label}: …${text.slice(Math.max(0, m.index - 160), m.index + 60)}…`);
    }
  }
}

// Every event any frame carried (game.update's and game.since's `events`).
function eventsOf(frames) {
  const found = [];
  const walk = (node) => {
    if (Array.isArray(node)) {
      for (const x of node) walk(x);
    } else if (node && typeof node === 'object') {
      if (Array.isArray(node.events)) found.push(...node.events.filter((e) => e && typeof e.kind === 'string'));
      for (const [k, v] of Object.entries(node)) if (k !== 'events') walk(v);
    }
  };
  walk(frames);
  return found;
}

let gameId;

test('the create form offers fog of war with the City sight and sends it; the lobby and the game page name it', async () => {
  const sent = [];
  alice.page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
  await alice.page.goto('/#/');
  await alice.page.reload();
  await alice.page.waitForSelector('#create-form');
  await alice.page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'online');
  await bob.page.goto('/#/');
  // The City sight is asked only for a fog game.
  assert.equal(await alice.page.isDisabled('#fog_city_sight'), true);
  await alice.page.check('#fog_of_war');
  assert.equal(await alice.page.isDisabled('#fog_city_sight'), false);
  assert.equal(await alice.page.inputValue('#fog_city_sight'), '2');
  await alice.page.selectOption('#fog_city_sight', '3');
  await alice.page.locator('#fog-fields').scrollIntoViewIfNeeded();
  await alice.page.screenshot({ path: screenshotPath('fog-create.png') });
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  const create = sent.map((text) => JSON.parse(text)).find((m) => m.type === 'game.create');
  assert.ok(create, 'a game.create was sent');
  assert.equal(create.fog_of_war, true);
  assert.equal(create.fog_city_sight, 3);
  const row = bob.page.locator(`#open-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  assert.match(await row.textContent(), /fog of war \(a City sees 3 hexes\)/);
  await row.locator('button', { hasText: 'Join' }).click();
  await bob.page.waitForURL(new RegExp(`#/game/${gameId}$`));
  for (const p of [alice, bob]) await waitForGameState(p.page, (s) => s.view.phase === 'setup');
  const state = await gameState(alice.page);
  assert.equal(state.view.options.fog_of_war, true);
  assert.equal(state.view.options.fog_city_sight, 3);
  assert.match(await alice.page.textContent('#game-options'), /fog of war \(a City sees 3 hexes\)/);
});

let aliceMoveFrame;
let bobFramesAtMove;

test('fog of war: each player sees enemy units only in his sight; hexes out of sight are shaded', async () => {
  server = await loadPosition(server, gameId, FOG_POSITION, [alice, bob]);
  for (const p of [alice, bob]) await waitForGameState(p.page, (s) => s.view.turn === 3, null, 30000);
  const a = await gameState(alice.page);
  const b = await gameState(bob.page);
  const E6 = hexOf(a, 'E6');
  const G3 = hexOf(a, 'G3');
  const D5 = hexOf(a, 'D5');
  // Alice sees Bob's two Infantry next to her scout, not his Cavalry; Bob sees the scout only.
  const aliceSeesOfBob = a.view.units.filter((u) => u.owner === 1 && u.place === 'map');
  assert.deepEqual(aliceSeesOfBob.map((u) => [labelOf(a, u.hex), u.type]), [['E6', 'infantry'], ['E6', 'infantry']]);
  const bobSeesOfAlice = b.view.units.filter((u) => u.owner === 0 && u.place === 'map');
  assert.deepEqual(bobSeesOfAlice.map((u) => [labelOf(b, u.hex), u.type]), [['D5', 'infantry']]);
  assert.equal(a.view.hexes[G3].unseen, true);
  assert.equal(a.view.hexes[E6].unseen, undefined);
  assert.equal(b.view.hexes[hexOf(b, 'C2')].unseen, true);
  // The map: one shade per hex out of sight, none on a hex in sight; the enemy's counters only
  // where he is seen; his Towns and Cities drawn everywhere.
  for (const [p, s] of [[alice, a], [bob, b]]) {
    const shaded = await p.page.$$eval('.layer-fog .fog-shade', (els) => els.map((e) => Number(e.dataset.unseenHex)).sort((x, y) => x - y));
    assert.deepEqual(shaded, s.view.hexes.filter((x) => x.unseen).map((x) => x.hex));
    assert.ok(shaded.length > 10 && shaded.length < s.view.hexes.length - 5, `a sight, not all or nothing: ${shaded.length}`);
  }
  assert.deepEqual(await alice.page.$$eval('.layer-pieces .unit[data-owner="1"]', (els) => els.map((e) => Number(e.dataset.count))), [2]);
  assert.deepEqual(await bob.page.$$eval('.layer-pieces .unit[data-owner="0"]', (els) => els.map((e) => e.dataset.units)), [String(bobSeesOfAlice[0].id)]);
  assert.equal(await bob.page.locator('.layer-pieces .city[data-owner="0"]').count(), 1);
  const g3Name = await alice.page.getAttribute(`.layer-hits [data-hit-hex="${G3}"]`, 'aria-label');
  assert.match(g3Name, /^G3, .*out of sight/);
  assert.doesNotMatch(g3Name, /Cavalry/);
  // The Rules help explains fog of war for this game.
  if (!(await alice.page.locator('#help[open]').count())) await alice.page.click('#help summary');
  assert.match(await alice.page.textContent('.help-fog'), /up to 3 hexes from each of your Cities/);
  // Alice's scout walks away: E6 leaves her sight, and Bob's Infantry are then "last seen".
  const scout = a.view.units.find((u) => u.owner === 0 && u.hex === D5);
  aliceMoveFrame = alice.frames.length;
  bobFramesAtMove = bob.frames.length;
  await clickHex(alice.page, D5);
  await alice.page.waitForFunction((id) => window.__viktoryGame.ui.selectedUnit === id, scout.id);
  await clickHex(alice.page, hexOf(a, 'C5'));
  const after = await waitForGameState(alice.page, (s, id) => s.view.units.some((u) => u.id === id && s.view.hexes[u.hex].label === 'C5'), scout.id);
  assert.equal(after.view.hexes[E6].unseen, true);
  assert.deepEqual(after.view.last_seen, [{ hex: E6, owner: 1, turn: 3, units: { infantry: 2 } }]);
  await alice.page.waitForSelector(`.layer-fog .last-seen[data-hex="${E6}"]`);
  assert.equal(await alice.page.locator('.layer-pieces .unit[data-owner="1"]').count(), 0);
  const mark = alice.page.locator(`.layer-fog .last-seen[data-hex="${E6}"]`);
  assert.equal(await mark.getAttribute('data-owner'), '1');
  assert.equal(await mark.getAttribute('aria-label'), 'Yellow: 2 Infantry, last seen in round 2 (turn 3)');
  assert.match(await mark.textContent(), /I×2.*round 2/);
  // The hex's name (tooltip and screen readers) says it too, with the player's name.
  const e6Name = await alice.page.getAttribute(`.layer-hits [data-hit-hex="${E6}"]`, 'aria-label');
  assert.match(e6Name, /^E6, .*out of sight; Bob \(Yellow\): 2 Infantry, last seen in round 2 \(turn 3\)/);
  assert.match(await alice.page.textContent(`.layer-hits [data-hit-hex="${E6}"] title`), /last seen in round 2/);
  // The hex's panel says it when the hex is picked.
  await clickHex(alice.page, E6);
  await alice.page.waitForFunction(() => /last seen/.test((document.querySelector('.fog-notes') || {}).textContent || ''));
  assert.match(await alice.page.textContent('.fog-notes'), /Out of your sight.*Bob \(Yellow\): 2 Infantry, last seen in round 2 \(turn 3\)/);
  // Bob saw the scout leave (D5 is in his sight) but not where it went: no mark, no unit.
  const bobAfter = await waitForGameState(bob.page, (s) => !s.view.units.some((u) => u.owner === 0 && u.place === 'map'));
  assert.deepEqual(bobAfter.view.last_seen || [], []);
  await alice.page.screenshot({ path: screenshotPath('fog-alice.png') });
});

test('fog of war: the mark stays while Bob moves unseen, and no frame either page got names a unit outside its sight', async () => {
  // Alice ends her turn (nothing in her Reserve: the Movement phase ends it).
  await alice.page.evaluate(() => window.__viktoryGame.channel.act({ kind: 'end_phase' }));
  await waitForGameState(bob.page, (s) => s.view.current === 1 && s.legal.some((x) => x.kind === 'end_phase'));
  // "Since your last turn" (game.since, from Bob's last action of his own: none yet): Alice's
  // scout left D5 for a hex Bob does not see; the page says so without naming it.
  await bob.page.goto('/#/');
  await bob.page.waitForSelector('#create-form');
  await bob.page.evaluate((id) => {
    localStorage.removeItem(`viktory.seen.${id}`);
    localStorage.removeItem(`viktory.since.${id}`);
  }, gameId);
  await bob.page.goto(`/#/game/${gameId}`);
  await bob.page.waitForFunction(() => /out of your sight/.test((document.querySelector('#catch-up') || {}).textContent || ''));
  assert.match(await bob.page.textContent('#catch-up'), /moves from D5 out of your sight/);
  await bob.page.screenshot({ path: screenshotPath('fog-bob-since.png') });
  let b = await waitForGameState(bob.page, (s) => s.view.current === 1 && s.legal.some((x) => x.kind === 'end_phase'));
  if (b.view.phase === 'build') {
    await bob.page.evaluate(() => window.__viktoryGame.channel.act({ kind: 'end_phase' }));
    b = await waitForGameState(bob.page, (s) => s.view.phase === 'movement');
  }
  const E6 = hexOf(b, 'E6');
  const F6 = hexOf(b, 'F6');
  const mover = b.view.units.find((u) => u.owner === 1 && u.hex === E6);
  const seq = b.seq;
  const err = await bob.page.evaluate((a) => window.__viktoryGame.channel.act(a).then(() => null, (e) => e.code || String(e)), { kind: 'move', unit: mover.id, hex: F6 });
  assert.equal(err, null);
  await waitForGameState(alice.page, (s, n) => s.seq > n, seq);
  await bob.page.screenshot({ path: screenshotPath('fog-bob.png') });
  const a = await gameState(alice.page);
  // Alice's memory of E6 is what she saw, not what is there now.
  assert.deepEqual(a.view.last_seen, [{ hex: E6, owner: 1, turn: 3, units: { infantry: 2 } }]);
  assert.equal(await alice.page.locator(`.layer-fog .last-seen[data-hex="${E6}"]`).count(), 1);
  assert.equal(await alice.page.locator('.layer-pieces .unit[data-owner="1"]').count(), 0);

  // Every frame each page received: an enemy unit only on a hex that was in the viewer's sight
  // in some view he got, and after the scout's move none of Bob's units at all for Alice (none
  // is in her sight), none of Alice's for Bob.
  for (const [viewer, player, from] of [[0, alice, aliceMoveFrame], [1, bob, bobFramesAtMove]]) {
    const seenEver = new Set();
    for (const [, view] of views(player.frames)) for (const hx of view.hexes) if (!hx.unseen) seenEver.add(hx.hex);
    const enemy = unitMentions(player.frames).filter(({ unit }) => unit.owner !== viewer && unit.place === 'map');
    assert.ok(enemy.length > 0, 'the enemy units once in sight were received');
    for (const { unit } of enemy) assert.ok(seenEver.has(unit.hex), `viewer ${viewer} got a unit on hex ${unit.hex}, never in his sight`);
    const later = enemy.filter(({ index }) => index >= from);
    assert.deepEqual(later.map(({ unit }) => unit.hex), [], `viewer ${viewer} got enemy units after the scout left`);
  }
  // No event names a hex out of the viewer's sight, or a hidden unit on the move; no log line
  // or other text names the label of a hex a hidden unit stood on or went to.
  for (const [viewer, player] of [[0, alice], [1, bob]]) {
    const seenEver = new Set();
    for (const [, view] of views(player.frames)) for (const hx of view.hexes) if (!hx.unseen) seenEver.add(hx.hex);
    for (const e of eventsOf(player.frames)) {
      if (e.player === viewer) continue;
      for (const key of ['hex', 'from_hex', 'to_hex']) {
        if (Number.isInteger(e[key]) && e[key] >= 0) assert.ok(seenEver.has(e[key]), `viewer ${viewer} got an event naming hex ${e[key]} out of his sight: ${JSON.stringify(e)}`);
      }
    }
  }
  assertNoLabel(alice, 'Alice', ['G3', 'F6']);
  assertNoLabel(bob, 'Bob', ['C5', 'C3', 'B3']);
  // And no page shows an enemy unit out of sight.
  for (const [player, viewer] of [[alice, 0], [bob, 1]]) {
    const s = await gameState(player.page);
    for (const u of s.view.units) if (u.owner !== viewer && u.place === 'map') assert.notEqual(s.view.hexes[u.hex].unseen, true);
  }
});

test('fog of war: a spectator sees units only where both players see them (here: none), and no last seen marks', async () => {
  const a = await gameState(alice.page);
  const b = await gameState(bob.page);
  await carol.page.goto(`/#/game/${gameId}`);
  const c = await waitForGameState(carol.page, (s) => s.you.seat === null && s.view.turn === 4);
  // Shaded: every hex out of the sight of one of the players.
  const expected = c.view.hexes.filter((hx) => a.view.hexes[hx.hex].unseen || b.view.hexes[hx.hex].unseen).map((hx) => hx.hex);
  assert.deepEqual(c.view.hexes.filter((hx) => hx.unseen).map((hx) => hx.hex), expected);
  assert.deepEqual(await carol.page.$$eval('.layer-fog .fog-shade', (els) => els.map((e) => Number(e.dataset.unseenHex)).sort((x, y) => x - y)), expected);
  assert.deepEqual(c.view.units.filter((u) => u.place === 'map'), []);
  assert.equal(await carol.page.locator('.layer-pieces .unit').count(), 0);
  assert.equal(await carol.page.locator('.layer-fog .last-seen').count(), 0);
  assert.deepEqual(unitMentions(carol.frames).filter(({ unit }) => unit.place === 'map'), []);
  await carol.page.screenshot({ path: screenshotPath('fog-spectator.png') });
});

test('fog of war on a phone: the shaded hexes and the last seen mark stay readable (screenshot)', async () => {
  await alice.page.setViewportSize({ width: 390, height: 844 });
  await alice.page.waitForTimeout(300);
  const box = await alice.page.locator('.layer-fog .last-seen').first().boundingBox();
  assert.ok(box && box.width >= 18, `the mark is ${box && box.width} px wide on a phone`);
  await alice.page.screenshot({ path: screenshotPath('fog-phone.png') });
  await alice.page.setViewportSize({ width: 1400, height: 900 });
  // In German (the rulebook's words): the mark, the hex's name, the options line.
  await Promise.all([alice.page.waitForEvent('load'), alice.page.selectOption('#topbar-language', 'de')]);
  const E6 = hexOf(await waitForGameState(alice.page, (s) => s.view.last_seen && s.view.last_seen.length > 0), 'E6');
  const mark = alice.page.locator(`.layer-fog .last-seen[data-hex="${E6}"]`);
  await mark.waitFor();
  assert.match(await mark.textContent(), /I×2.*Runde 2/);
  assert.equal(await mark.getAttribute('aria-label'), 'Gelb: 2 Infanterie, zuletzt gesehen in Runde 2 (Spielzug 3)');
  assert.match(await alice.page.getAttribute(`.layer-hits [data-hit-hex="${E6}"]`, 'aria-label'), /außer Sicht; Bob \(Gelb\): 2 Infanterie, zuletzt gesehen in Runde 2/);
  assert.match(await alice.page.textContent('#game-options'), /Kriegsnebel \(eine Stadt sieht 3 Hexfelder weit\)/);
  await alice.page.screenshot({ path: screenshotPath('fog-de.png') });
  await Promise.all([alice.page.waitForEvent('load'), alice.page.selectOption('#topbar-language', 'en')]);
  await waitForGameState(alice.page, () => true);
  if (!(await alice.page.locator('#help[open]').count())) await alice.page.click('#help summary');
  const help = alice.page.locator('.help-fog');
  await help.scrollIntoViewIfNeeded();
  await help.screenshot({ path: screenshotPath('fog-help.png') });
});
