// Issue 21 on the game page, with German browsers: Alice and Bob play a position with scripted
// dice. Alice points at the Fight button (the battle preview), is asked before the battle (the
// confirmation), wins it (the battle view, round by round), ends her turn; Bob comes back to
// "Seit deinem letzten Spielzug" (the catch-up panel with the battle's dice); Bob concedes and
// both read the replay page with its fair-play check. Each of these reads German, with the
// German rulebook's words, and shows none of the English telltales of the game page's
// catalog entries. Screenshots of the German battle view, catch-up panel and replay page at
// desktop (1366 px) and phone (390 px) width, where no German word may push a panel wider
// than the screen.
//
// "No English left" works as in i18n.test.js: a piece of an English text between its
// placeholders, at least 8 characters long and found in no German text, must not be on
// screen. Here the pieces come from the game page's entries (GAME_PAGE_PREFIXES) and are looked
// for in the parts of the page drawn from them (REGIONS): the rest of the page is still
// checked by its own tests. To check a whole turn, add the other modules' prefixes and the
// page's other regions.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, launchBrowser, newPlayer, signIn, gameState, waitForGameState, loadPosition, repoRoot, screenshotPath } from './lib/harness.js';

const MIN_PIECE = 8;
const catalog = (lang) => JSON.parse(readFileSync(path.join(repoRoot, 'web-client', 'i18n', `${lang}.json`), 'utf8'));
const en = catalog('en');
const de = catalog('de');
const forms = (entry) => (typeof entry === 'object' ? Object.values(entry) : [entry]);

// The catalog entries of the game page's battle view, catch-up, confirmations, panels, map,
// replay and fair-play page, and of the names of units, terrains and phases.
const GAME_PAGE_PREFIXES = ['unit.', 'terrain.', 'phase.', 'actions.', 'battle.', 'fire.', 'catchUp.', 'confirm.', 'waiting.', 'players.', 'meta.', 'selection.', 'settings.', 'standingOrders.', 'preview.', 'rematch.', 'hexName.', 'board.', 'overlay.', 'log.', 'replay.', 'fairPlay.'];

// English pieces of `keys` that no German text holds.
function telltales(keys) {
  const german = Object.values(de).flatMap(forms);
  const pieces = new Set();
  for (const key of keys) {
    for (const text of forms(en[key])) {
      for (const piece of text.split(/\{\w+\}/)) {
        const trimmed = piece.trim();
        if (trimmed.length >= MIN_PIECE && !german.some((g) => g.includes(trimmed))) pieces.add(trimmed);
      }
    }
  }
  return [...pieces];
}
const gameKeys = Object.keys(en).filter((k) => GAME_PAGE_PREFIXES.some((p) => k.startsWith(p)));
const englishPieces = telltales(gameKeys);

// The English telltales in the text (and the titles and labels) of the elements `selectors`.
async function leaks(page, selectors) {
  const text = await page.evaluate((sels) => {
    const out = [];
    for (const sel of sels) {
      for (const el of document.querySelectorAll(sel)) {
        out.push(el.innerText || el.textContent || '');
        for (const node of [el, ...el.querySelectorAll('[title], [aria-label], [placeholder]')]) {
          for (const attr of ['title', 'aria-label', 'placeholder']) if (node.getAttribute(attr)) out.push(node.getAttribute(attr));
        }
      }
    }
    return out.join('\n');
  }, selectors);
  return englishPieces.filter((p) => text.includes(p));
}

// No panel among `selectors` wider than the screen, and no sideways scrolling.
async function fits(page, selectors) {
  const wide = await page.evaluate((sels) => {
    const out = [];
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width) out.push(`page ${document.documentElement.scrollWidth} > ${width}`);
    for (const sel of sels) {
      for (const el of document.querySelectorAll(sel)) {
        if (el.offsetParent !== null && el.scrollWidth > el.clientWidth + 1) out.push(`${sel} ${el.scrollWidth} > ${el.clientWidth}`);
      }
    }
    return out;
  }, selectors);
  assert.deepEqual(wide, []);
}

// Red's Infantry in his Capital E3 and on E5, next to Yellow's Infantry on E6. Red's die hits
// (2), Yellow's miss (6s).
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
    C5: { terrain: 'plains', town: 1 },
  },
  units: ['0 infantry E3', '0 infantry E5', '1 infantry E6', '1 infantry E7'],
  dice: [2, 6, 6, 6, 6, 6, 6, 6],
};

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 390, height: 844 };
const hexOf = (state, label) => state.view.hexes.find((x) => x.label === label).hex;

async function act(page, action) {
  const error = await page.evaluate((a) => window.__viktoryGame.channel.act(a).then(() => null, (e) => e.code || String(e)), action);
  assert.equal(error, null, `action ${JSON.stringify(action)} refused: ${error}`);
}

let server;
let browser;
let alice; // seat 0, Red
let bob; // seat 1, Yellow
let gameId;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  alice = await newPlayer(browser, server, { viewport: DESKTOP, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  bob = await newPlayer(browser, server, { viewport: DESKTOP, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('the German telltales come from the catalogs (the check can fail)', () => {
  assert.ok(englishPieces.includes('Since your last turn'), 'the catch-up title is a telltale');
  assert.ok(englishPieces.includes('Dice of 3 or less hit (red); a 1 lets the firer choose the casualty (gold).'));
  assert.ok(englishPieces.length > 150, `${englishPieces.length} telltales`);
});

test('a German game: the preview, the confirmation before the battle, the battle view', async () => {
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  // The waiting room, in German.
  assert.match(await alice.page.textContent('#waiting'), new RegExp(`Partie ${gameId}.*2 Plätze · .*öffentlich.*Warte auf Spieler`, 's'));
  assert.deepEqual(await leaks(alice.page, ['#waiting']), []);
  await bob.page.locator(`#open-games [data-game-id="${gameId}"] button`).click();
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await waitForGameState(bob.page, (s) => s.view.phase === 'setup');
  server = await loadPosition(server, gameId, POSITION, [alice, bob]);
  await waitForGameState(alice.page, (s) => s.view.phase === 'movement', undefined, 30000);
  await waitForGameState(bob.page, (s) => s.view.phase === 'movement', undefined, 30000);
  await bob.page.goto('/#/');
  await bob.page.waitForSelector('#create-form');

  const page = alice.page;
  let state = await gameState(page);
  const unitAt = (label) => state.view.units.find((u) => u.hex === hexOf(state, label)).id;
  // The players panel and the map's names of hexes.
  assert.match(await page.textContent('#players'), /Reserve leer/);
  assert.equal(await page.getAttribute('svg.board', 'aria-label'), 'Spielkarte');
  await act(page, { kind: 'move', unit: unitAt('E3'), hex: hexOf(state, 'E4') });
  state = await waitForGameState(page, (s) => s.seq === 1);
  await act(page, { kind: 'move', unit: unitAt('E5'), hex: hexOf(state, 'E6') });
  state = await waitForGameState(page, (s) => s.seq === 2 && s.legal.some((a) => a.kind === 'start_battle'));
  const e6 = hexOf(state, 'E6');
  assert.match(await page.getAttribute(`[data-hit-hex="${e6}"]`, 'aria-label'), /^E6, Weideland, 1 Infanterie; Bob \(Gelb\): 1 Infanterie; Schlacht zu schlagen\. Die Schlacht beginnen$/);

  // The Fight button and its preview.
  const fight = page.locator(`[data-battle-hex="${e6}"]`);
  assert.equal(await fight.textContent(), '⚔ Schlacht bei E6');
  await fight.hover();
  await page.waitForSelector('#battle-preview');
  const preview = await page.textContent('#battle-preview');
  assert.match(preview, /E6 angreifen\? Vorschau/);
  assert.match(preview, /als Angreifer: 1 Würfel/);
  assert.match(preview, /Angreifer siegt: \d+\s%/);
  assert.deepEqual(await leaks(page, ['#battle', '#action-bar', '#players', '#selection']), []);

  // The confirmation before the dice.
  await fight.click();
  const dialog = page.locator('dialog.confirm-sealing');
  await dialog.waitFor();
  assert.equal(await dialog.locator('.modal-title').textContent(), 'Die Schlacht bei E6 beginnen?');
  assert.match(await dialog.textContent(), /Die Würfel werden geworfen \[12\.3\]\. Danach lässt sich nichts mehr zurücknehmen/);
  assert.match(await dialog.textContent(), /Vor Würfeln und aufgedeckten Kartenfeldern nicht mehr fragen \(siehe Einstellungen\)/);
  assert.deepEqual(await dialog.locator('.modal-buttons button').allTextContents(), ['Abbrechen', 'Kämpfen']);
  assert.deepEqual(await leaks(page, ['dialog.confirm-sealing']), []);
  await page.screenshot({ path: screenshotPath('i18n-confirm-de.png') });
  await dialog.locator('.btn-primary').click();

  // The battle is fought: the battle view, round by round, in German.
  await page.waitForFunction(() => /Letzte Schlacht bei E6/.test(document.getElementById('battle')?.textContent), null, { timeout: 15000 });
  const battle = await page.textContent('#battle');
  assert.match(battle, /Letzte Schlacht bei E6: der Angreifer hat gesiegt/);
  assert.match(battle, /Kampfrunde 1/);
  assert.match(battle, /Angreifer \(Du|Angreifer \(You/, 'the attacker fired');
  assert.match(battle, /1 Würfel: Infanterie 1/);
  assert.match(battle, /Treffer: Infanterie \(Gelb\)/);
  assert.match(battle, /Würfe von 3 oder weniger treffen/);
  assert.deepEqual(await leaks(page, ['#battle', '#action-bar', '#players']), []);
  await page.locator('#battle').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('i18n-battle-de-desktop.png') });
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(200);
  await fits(page, ['#battle', '#action-bar', '#players']);
  await page.locator('#battle').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('i18n-battle-de-phone.png') });
  await page.setViewportSize(DESKTOP);

  // The rest of her turn.
  for (let i = 0; i < 20; i += 1) {
    state = await gameState(page);
    if (state.view.current === 1) break;
    const next = ['continue_battle', 'choose_casualty', 'end_phase'].map((k) => state.legal.find((a) => a.kind === k)).find(Boolean);
    assert.ok(next, `Alice has something to do: ${JSON.stringify(state.legal)}`);
    await act(page, next);
    await waitForGameState(page, (s, seq) => s.seq > seq, state.seq);
  }
});

test('Bob comes back to "Seit deinem letzten Spielzug", with the battle and its dice', async () => {
  const page = bob.page;
  await page.goto(`/#/game/${gameId}`);
  const panel = page.locator('#catch-up');
  await panel.waitFor();
  assert.equal(await panel.locator('h2').textContent(), 'Seit deinem letzten Spielzug');
  const lines = await panel.locator('.catch-up-lines').first().locator(':scope > li').allTextContents();
  assert.ok(lines.some((l) => l.includes('1. Infanterie zieht: E3 → E4')), lines.join(' | '));
  assert.ok(lines.some((l) => /Schlacht bei E6: Alice \(Rot\) greift dich an — Sieger: Alice \(Rot\)/.test(l)), lines.join(' | '));
  assert.ok(lines.some((l) => /Verloren: 1 Infanterie \(Gelb\)/.test(l)), lines.join(' | '));
  await panel.locator('.catch-up-dice summary').click();
  assert.match(await panel.locator('.catch-up-dice summary').textContent(), /^Würfel \(\d+ Würfe?\)$/);
  const dice = await panel.locator('.catch-up-dice').textContent();
  assert.match(dice, /Angreifer \(Alice \(Rot\)\)/);
  assert.match(dice, /Treffer: Infanterie \(Gelb\) \(gewählt von Alice \(Rot\), eine 1\)|Treffer: Infanterie \(Gelb\) \(von dir gewählt\)/);
  assert.match(await page.textContent('#catch-up-under-map'), /Seit deinem letzten Spielzug: 2 Bewegungen, 1 Schlacht auf der Karte eingezeichnet/);
  assert.deepEqual(await leaks(page, ['#catch-up', '#catch-up-under-map', '#players']), []);
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('i18n-catch-up-de-desktop.png') });
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(200);
  await fits(page, ['#catch-up', '#catch-up-under-map']);
  await page.locator('#catch-up-under-map').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('i18n-catch-up-de-phone-map.png') });
  await panel.scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('i18n-catch-up-de-phone.png') });
  await page.setViewportSize(DESKTOP);
  await page.click('#catch-up-dismiss');
});

test('the replay page and its fair-play check, in German', async () => {
  // Bob concedes: the game is over.
  let state = await gameState(bob.page);
  const concede = state.legal.find((a) => a.kind === 'concede');
  assert.ok(concede, 'Bob may concede');
  await act(bob.page, concede);
  await waitForGameState(alice.page, (s) => s.view.phase === 'game_over');

  const page = alice.page;
  await page.goto(`/#/replay/${gameId}`);
  await page.waitForSelector('#replay-counter');
  assert.match(await page.textContent('#replay-counter'), /^Schritt 0 von \d+$/);
  assert.match(await page.textContent('#replay-info'), new RegExp(`Wiederholung von Partie ${gameId} · Spielzug 3 · Bewegungs- & Kampfphase · Alice \\(Rot\\)`));
  assert.equal(await page.textContent('#replay-play'), '▶ Abspielen');
  // The step of the battle: its fires, in German.
  state = null;
  const total = Number((await page.textContent('#replay-counter')).match(/von (\d+)/)[1]);
  let found = false;
  for (let i = 1; i <= total && !found; i += 1) {
    await page.click('#replay-next');
    await page.waitForFunction((n) => document.getElementById('replay-counter')?.textContent?.startsWith(`Schritt ${n} `), i);
    found = /Schlacht bei E6/.test((await page.locator('.replay .battle-panel').textContent()) || '');
  }
  assert.ok(found, 'a step shows the battle');
  assert.match(await page.textContent('.replay .battle-panel'), /Kampfrunde 1.*Angreifer \(Alice \(Rot\)\)/s);
  const regions = ['.replay-controls', '.replay .players-panel', '.replay .battle-panel', '#verification', '#replay-info .phase-line'];
  assert.deepEqual(await leaks(page, regions), []);

  assert.deepEqual(await leaks(page, regions), []);
  await page.screenshot({ path: screenshotPath('i18n-replay-battle-de-desktop.png'), fullPage: true });

  // The fair-play check, of a game played from its start (a position loaded into a game, as
  // above, has no record to check): Bob concedes a new game at once.
  await page.goto('/#/');
  await page.click('#create-game');
  await page.waitForSelector('#waiting .seat-list');
  const second = Number(page.url().match(/#\/game\/(\d+)/)[1]);
  await bob.page.goto('/#/');
  await bob.page.locator(`#open-games [data-game-id="${second}"] button`).click();
  state = await waitForGameState(bob.page, (s) => s.view.phase === 'setup' && s.legal.some((a) => a.kind === 'concede'));
  await act(bob.page, state.legal.find((a) => a.kind === 'concede'));
  await waitForGameState(page, (s) => s.view.phase === 'game_over');
  await page.goto(`/#/replay/${second}`);
  await page.waitForSelector('#replay-counter');
  await page.click('#verify-record');
  await page.waitForSelector('#verify-status[data-verdict]', { timeout: 30000 });
  assert.equal(await page.getAttribute('#verify-status', 'data-verdict'), 'verified', await page.textContent('#verify-status'));
  assert.match(await page.textContent('#verify-verdict'), /^✔ Der vom Server veröffentlichte Spielbericht ist bestätigt: 1 Aktion, \d+ Würfe? \(\d+ Würfel\), \d+ Kartenfelder?.*stimmt mit dem überein, was dein Browser gesehen hat\.$/);
  assert.deepEqual(await leaks(page, regions), []);
  await page.screenshot({ path: screenshotPath('i18n-replay-de-desktop.png'), fullPage: true });
  await page.setViewportSize(PHONE);
  await page.waitForTimeout(200);
  await fits(page, regions);
  await page.screenshot({ path: screenshotPath('i18n-replay-de-phone.png'), fullPage: true });
  await page.setViewportSize(DESKTOP);
});

test('no script errors on either page', () => {
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
