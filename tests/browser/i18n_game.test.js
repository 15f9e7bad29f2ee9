// Issue 21 on the game page: two players whose browsers speak German play a game with a clock,
// several victory conditions and optional rules, and read it in German: the prompt in each
// phase and while waiting, the rules help (the phase under way, the units and terrain, this
// game's victory conditions [5.0] and optional rules [15.0] with their explanations), the
// progress toward victory, the clock with its skip and expel questions, the decision cards of
// a battle with Luck Averaging [15.4] and the choice to retreat, the dialogs before placing the
// Capital and before conceding, the end of the game. Desktop (1366 px) and phone (390 px)
// screenshots; no German word runs out of its box.
//
// "No English left" as in i18n.test.js: the pieces of the English catalog's texts (at least 8
// characters between placeholders, found in no German text) must not show. Only the keys of
// the parts of the game page already in the catalogs are checked (GAME_PAGE_PARTS); a part
// joins the check by adding its key prefixes there.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gameState, launchBrowser, loadPosition, newPlayer, repoRoot, screenshotPath, signIn, startServer, waitForGameState, clickHex } from './lib/harness.js';

const MIN_PIECE = 8;
const DAY = 86400;

// The game page's parts whose texts are in the catalogs, by key prefix.
const GAME_PAGE_PARTS = {
  // js/game.js, game/prompt.js, help.js, decisions.js, clock.js, clock_log.js, victory.js, text.js
  page: ['gamePage.', 'prompt.', 'help.', 'decision.', 'gameClock.', 'thisGame.', 'progress.', 'gameText.'],
  // the battle view, catch-up, confirmations, panels, map and replay (i18n_play.test.js), and
  // the names of units, terrains and phases of js/util.js
  rest: ['unit.', 'terrain.', 'phase.', 'actions.', 'battle.', 'fire.', 'catchUp.', 'confirm.', 'waiting.', 'players.', 'meta.', 'selection.', 'settings.', 'standingOrders.', 'preview.', 'rematch.', 'hexName.', 'board.', 'overlay.', 'log.standingOrder', 'log.label', 'log.chat', 'log.say', 'replay.', 'fairPlay.'],
};

const catalog = (lang) => JSON.parse(readFileSync(path.join(repoRoot, 'web-client', 'i18n', `${lang}.json`), 'utf8'));
const en = catalog('en');
const de = catalog('de');
const forms = (entry) => (typeof entry === 'object' ? Object.values(entry) : [entry]);

// The pieces of the English texts of these keys that no German text holds.
function englishTelltales(prefixes) {
  const germanTexts = Object.values(de).flatMap(forms);
  const pieces = new Set();
  for (const [key, entry] of Object.entries(en)) {
    if (!prefixes.some((p) => key.startsWith(p))) continue;
    for (const text of forms(entry)) {
      for (const piece of text.split(/\{\w+\}/)) {
        const trimmed = piece.trim();
        if (trimmed.length >= MIN_PIECE && !germanTexts.some((g) => g.includes(trimmed))) pieces.add(trimmed);
      }
    }
  }
  return [...pieces];
}
const englishPieces = englishTelltales(Object.values(GAME_PAGE_PARTS).flat());

// Where the parts in the catalogs show their texts (the rest of the page still speaks English
// until its part joins GAME_PAGE_PARTS; then 'body' alone).
const AREAS = [
  '#prompt-title', '#prompt .prompt-text', '#round', '#help-link', '#help', '#clock', '#victory-progress', '#players .vp', '#players .seat-clock',
  '.decision-card', 'dialog[open]', '.zoom-controls', '.log-panel > summary', '.chat-panel > summary', '.chat-form button', '#last-moves',
  '#action-bar', '#players', '#battle', '#selection', '#meta', '#catch-up', '#catch-up-under-map', '#hover-info', '#settings', '#chat-input',
];

// Texts within them that the server writes (the clock's lines, as the game log's), not yet
// from the catalogs.
const SERVER_TEXTS = ['.clock-log'];

// The English telltales in those areas, each with where it was found: their text, and the
// names and hints a screen reader or a pointer gets (aria-label, title, placeholder); and in
// the page's title.
async function leaks(page, { except = [] } = {}) {
  const texts = await page.evaluate(([areas, serverTexts]) => {
    const out = [['title', document.title]];
    for (const selector of areas) {
      for (const found of document.querySelectorAll(selector)) {
        const area = found.cloneNode(true);
        for (const e of area.querySelectorAll(serverTexts)) e.remove();
        out.push([selector, area.textContent]);
        for (const e of [area, ...area.querySelectorAll('[aria-label], [title], [placeholder]')]) {
          for (const attr of ['aria-label', 'title', 'placeholder']) if (e.getAttribute(attr)) out.push([`${selector} [${attr}]`, e.getAttribute(attr)]);
        }
      }
    }
    return out;
  }, [AREAS.filter((a) => !except.includes(a)), SERVER_TEXTS.join(', ')]);
  return texts.flatMap(([where, text]) => englishPieces.filter((p) => text.includes(p)).map((p) => `"${p}" in ${where}`));
}

// Elements wider than the window, and boxes whose words run out of them (the innermost such
// box: its parents overflow with it). The map scrolls inside its frame.
async function overflowing(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const flagged = [];
    for (const e of document.querySelectorAll('body *')) {
      if (e.closest('svg, .visually-hidden, .map-frame') || !e.offsetParent) continue;
      const box = e.getBoundingClientRect();
      if (box.width === 0) continue;
      const style = getComputedStyle(e);
      const spills = style.overflowX === 'visible' && style.display !== 'inline' && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1;
      if (box.right > width + 1 || spills) flagged.push(e);
    }
    return flagged.filter((e) => !flagged.some((inner) => inner !== e && e.contains(inner))).map((e) => `${e.tagName}#${e.id}.${e.className}: ${e.textContent.slice(0, 60)}`);
  });
}

async function act(page, action) {
  const error = await page.evaluate((a) => window.__viktoryGame.channel.act(a).then(() => null, (e) => e.code || String(e)), action);
  assert.equal(error, null, `action ${JSON.stringify(action)} refused: ${error}`);
}

const hexOf = (state, label) => state.view.hexes.find((x) => x.label === label).hex;

// Red's Infantry x2 and Cavalry on E4 next to Yellow's two Infantry in the Forest E5; every die
// rolled is a 6 (no hits), so the only hits are the averaged pairs [15.4]. Four victory
// conditions and five optional rules, all explained by the rules help.
const POSITION = {
  options: {
    players: 2,
    victory: ['standard', 'shorter', 'race', 'doomsday'],
    luck_averaging: true,
    town_relocation: true,
    subjugation: true,
    exploration_balancing: true,
    terrain_leveling: false,
  },
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

let server;
let browser;
after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('a German browser reads the game page in German: prompt, rules help, victory progress, clock, decision cards and dialogs', async () => {
  server = await startServer();
  browser = await launchBrowser();
  const german = { viewport: { width: 1366, height: 900 }, locale: 'de-DE', timezoneId: 'Europe/Berlin' };
  const alice = await newPlayer(browser, server, german);
  const bob = await newPlayer(browser, server, german);
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');

  // A two-player game with a clock: a day per move; one skipped turn before a vote.
  await alice.page.selectOption('#seats', '2');
  await alice.page.selectOption('#clock_per_move', String(DAY));
  await alice.page.selectOption('#clock_skips', '1');
  await alice.page.selectOption('#clock_expel', 'computer');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await bob.page.locator(`#open-games [data-game-id="${gameId}"] button`).click();
  const setup = await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await waitForGameState(bob.page, (s) => s.view.phase === 'setup');
  assert.equal(await alice.page.evaluate(() => document.documentElement.lang), 'de');

  // Setup: the first player is asked before his Capital goes down (and cancels: the position
  // below needs a game without actions); the other is told what is happening.
  const [first, second] = setup.view.decider === 0 ? [alice, bob] : [bob, alice];
  await first.page.waitForSelector('#prompt-title');
  assert.equal(await first.page.textContent('#prompt-title'), 'Baue deine Hauptstadt');
  assert.match(await first.page.textContent('#prompt .prompt-text'), /^(Klicke|Tippe) auf eines der hervorgehobenen Hexfelder \(★\)\.$/);
  assert.match(await second.page.textContent('#prompt .prompt-text'), /^Die Spieler bauen reihum ihre Hauptstädte\.$/);
  const capital = (await gameState(first.page)).legal.find((a) => a.kind === 'place_capital');
  await clickHex(first.page, capital.hex);
  const ask = first.page.locator('dialog.modal[open]');
  await ask.waitFor();
  assert.equal(await ask.locator('.modal-title').textContent(), 'Deine Hauptstadt hier bauen?');
  assert.match(await ask.textContent(), /Deine Hauptstadt und ihr erstes Dorf kommen auf \w+\d+( \(.+\))?\. Das lässt sich später nicht ändern\./);
  assert.deepEqual(await leaks(first.page), []);
  await ask.locator('button', { hasText: 'Abbrechen' }).click();

  server = await loadPosition(server, gameId, POSITION, [alice, bob]);
  let state = await waitForGameState(alice.page, (s) => s.view.turn === POSITION.turn, undefined, 30000);
  await waitForGameState(bob.page, (s) => s.view.turn === POSITION.turn, undefined, 30000);

  // The line under the map, before anyone points at a hex.
  assert.equal(await second.page.textContent('#hover-info'), 'Zeige auf ein Hexfeld oder klicke es an, um zu sehen, was dort ist. Tastatur: mit Tab zur Karte, dann die Pfeiltasten.');

  // Alice's Movement phase: the prompt, the round, the clock.
  await alice.page.waitForSelector('#clock-rules');
  assert.equal(await alice.page.textContent('#prompt-title'), 'Ziehen und kämpfen');
  assert.equal(await alice.page.textContent('#round'), 'Spielzug 3 · Runde 2 (1 von 2)');
  assert.match(await alice.page.textContent('#prompt .prompt-text'), /^(Klicke|Tippe) auf eine deiner Einheiten \(gestrichelter Rand\), um zu sehen, wohin sie ziehen kann\. Beende die Phase, wenn du fertig bist\.$/);
  assert.match(await alice.page.textContent('#clock-left'), /^Du: noch /);
  assert.equal(await alice.page.textContent('#clock-rules'), 'Ist die Bedenkzeit überschritten, darf der Zug eines Spielers übersprungen werden; nach 1 übersprungenen Zug dürfen die anderen über seinen Ausschluss abstimmen (dann spielt der Computer seinen Platz).');
  assert.equal(await alice.page.title(), `▶ Du bist am Zug · VIKTORY II · Partie ${gameId}`);
  assert.equal(await bob.page.textContent('#prompt-title'), 'Warten auf Alice (Rot)');
  assert.match(await bob.page.locator('.player[data-seat="0"] .seat-clock').textContent(), /^noch /);

  // The rules help: the phase under way, this game's four conditions and five optional rules,
  // each explained in German.
  await alice.page.click('#help-link');
  await alice.page.waitForSelector('#help[open]');
  assert.equal(await alice.page.textContent('#help summary'), 'Regelhilfe');
  assert.match(await alice.page.textContent('#help-phase'), /^Jetzt: Bewegungs- & Kampfphase \[9\.0–12\.0\]Einheiten ziehen eine nach der anderen; 1 BP pro Hexfeld/);
  const game = await alice.page.textContent('#help-game');
  for (const expected of [
    'Diese Partie',
    'Das Spiel gewinnen [5.0]: die erste erfüllte Siegesbedingung beendet die Partie',
    'Auslöschen (Standard) [5.1]: wer als Letzter übrig bleibt, gewinnt (gilt immer). Ein Spieler scheidet aus, wenn er sein letztes Dorf oder seine letzte Stadt verliert oder aufgibt.',
    'Entscheidungsschlag [5.3]',
    'Der Spieler, dessen Hauptstadt erobert wurde, wird nicht gewertet',
    'Vorherrschaft [5.4]',
    'Siegespunkte (SP): 1 je Dorf und 2 je Stadt auf der Karte',
    'Zufallsende [5.5]',
    'eine 1 legt einen Marker neben seine Hauptstadt',
    'Optionalregeln [15.0]',
    'Ausgewogene Landverteilung [15.3]',
    'Weniger Glück [15.4]',
    'Stadtverlegung [15.5]',
    'Unterwerfung [15.6]',
  ]) {
    assert.ok(game.includes(expected), `the rules help says "${expected}": ${game}`);
  }
  const tables = (await alice.page.textContent('#help')).replaceAll('\u00ad', '');  // soft hyphens of long words
  for (const expected of ['Einheiten [9.11, 12.3]', 'Würfel Angriff / Verteidigung', 'Gelände [9.12, 12.3, 8.2]', 'Eine Stadt dort versorgt', 'hält Landeinheiten an', '2 Würfel; versperrt Bombardierung']) {
    assert.ok(tables.includes(expected), `the tables say "${expected}"`);
  }

  // Progress toward victory [5.3, 5.4, 5.5].
  const progress = await alice.page.textContent('#victory-progress');
  assert.match(progress, /^Auf dem Weg zum Sieg/);
  assert.match(progress, /die erste eroberte Hauptstadt beendet die Partie\. Hauptstädte noch in eigener Hand:/);
  assert.match(progress, /wer zu Beginn seines Spielzugs als Erster 20 Punkte hat:/);
  assert.match(progress, /tickt noch nicht: sie beginnt, sobald die erste Stadt erobert ist\./);
  assert.match(progress, /Spieler noch im Spiel: 2 \/ 2/);
  assert.match(await alice.page.locator('#players .player .vp').first().textContent(), /^\d+ \/ 20 SP$/);
  assert.deepEqual(await leaks(alice.page), []);
  // Bob waits: his prompt's text is the phase's name (js/util.js).
  assert.deepEqual(await leaks(bob.page), []);
  await alice.page.screenshot({ path: screenshotPath('i18n-game-de-desktop.png'), fullPage: true });
  await alice.page.locator('#help').screenshot({ path: screenshotPath('i18n-game-de-help.png') });
  assert.deepEqual(await overflowing(alice.page), []);

  // A unit selected: its name in the prompt.
  const e4 = hexOf(state, 'E4');
  const e5 = hexOf(state, 'E5');
  await alice.page.evaluate(() => window.scrollTo(0, 0));  // the help scrolled the map away
  await clickHex(alice.page, e4);
  await alice.page.waitForFunction(() => /ausgewählt$/.test(document.getElementById('prompt-title')?.textContent));
  assert.match(await alice.page.textContent('#prompt .prompt-text'), /^(Klicke|Tippe) auf ein hervorgehobenes Hexfeld, um mit ihr zu handeln, oder (klicke|tippe) auf eine andere deiner Einheiten\.$/);

  // The battle at E5 with Luck Averaging [15.4]: the attacker's card, then the defender's.
  for (let i = 0; i < 3; i += 1) {
    await clickHex(alice.page, e4);
    await clickHex(alice.page, e5);
    state = await waitForGameState(alice.page, (s, k) => s.seq > k, state.seq);
  }
  await alice.page.waitForFunction(() => / 1 Schlacht zu schlagen: (klicke|tippe) auf ein ⚔-Hexfeld oder einen ⚔-Knopf\.$/.test(document.querySelector('#prompt .prompt-text')?.textContent));
  await act(alice.page, state.legal.find((a) => a.kind === 'start_battle' && a.hex === e5));
  const card = alice.page.locator('.decision-card[data-decision="average_dice"]');
  await card.waitFor();
  assert.equal(await card.locator('h2').textContent(), 'Weniger Glück [15.4]: dein Feuer als Angreifer auf E5');
  assert.match(await card.textContent(), /Du darfst 3 Würfel werfen\. Jedes Paar, das du als Treffer nimmst, wird nicht geworfen/);
  assert.match(await card.locator('button[data-pairs="1"]').textContent(), /^1 Würfelpaar als Treffer nehmen: 1 sicherer Treffer/);
  assert.match(await card.locator('button[data-pairs="0"]').textContent(), /^Jeden Würfel werfen/);
  assert.equal(await alice.page.textContent('#prompt-title'), 'Würfelpaare als Treffer nehmen oder werfen? [15.4]');
  assert.equal(await alice.page.textContent('#prompt .prompt-text'), 'Triff deine Wahl im Kasten unten auf der Karte.');
  await bob.page.waitForFunction(() => /^Schlacht auf E5: der Angreifer wählt, wie viele Würfelpaare er als sichere Treffer nimmt \[15\.4\]\.$/.test(document.querySelector('#prompt .prompt-text')?.textContent));
  assert.deepEqual(await leaks(alice.page), []);
  assert.deepEqual(await overflowing(alice.page), []);
  await alice.page.screenshot({ path: screenshotPath('i18n-game-de-average.png') });
  await card.locator('button[data-pairs="1"]').click();

  // The defender's card, on a phone.
  await bob.page.setViewportSize({ width: 390, height: 844 });
  const bobCard = bob.page.locator('.decision-card[data-decision="average_dice"]');
  await bobCard.waitFor();
  assert.equal(await bobCard.locator('h2').textContent(), 'Weniger Glück [15.4]: dein Feuer als Verteidiger auf E5');
  assert.deepEqual(await leaks(bob.page), []);
  assert.deepEqual(await overflowing(bob.page), []);
  await bob.page.screenshot({ path: screenshotPath('i18n-game-de-phone.png') });
  await bobCard.locator('button[data-pairs="0"]').click();

  // Retreat or fight on [12.3 step 3].
  const retreat = alice.page.locator('.decision-card[data-decision="retreat"]');
  await retreat.waitFor();
  assert.equal(await retreat.locator('h2').textContent(), 'Rückzug oder weiterkämpfen?');
  assert.match(await retreat.textContent(), /Schlacht auf E5, Kampfrunde 1\. Beide Seiten haben noch Einheiten\./);
  assert.match(await retreat.textContent(), /⚔ Noch eine Kampfrunde/);
  assert.match(await retreat.textContent(), /Oder Rückzug, Einheit für Einheit:/);
  assert.deepEqual(await leaks(alice.page), []);

  // The phone's rules help and clock, scrolled to.
  await bob.page.click('#help-link');
  await bob.page.waitForSelector('#help[open]');
  await bob.page.locator('#help-game').scrollIntoViewIfNeeded();
  assert.deepEqual(await overflowing(bob.page), []);
  await bob.page.screenshot({ path: screenshotPath('i18n-game-de-phone-help.png') });

  // Alice's time runs out: Bob may skip her turn, then vote to expel her; each asks first.
  await server.stop({ keepDir: true });
  execFileSync('sqlite3', ['-bail', server.db], {
    input: `UPDATE game_clocks SET state = json_set(state, '$.deadline', 2000, '$.remind_at', 1000), due = 1000 WHERE game_id = ${gameId};`,
  });
  server = await startServer({ port: server.port, dir: server.dir });
  for (const p of [alice, bob]) {
    await p.context.setOffline(true);
    await p.context.setOffline(false);
  }
  await bob.page.setViewportSize({ width: 1366, height: 900 });
  await bob.page.waitForSelector('#skip-turn');
  assert.equal(await bob.page.textContent('#clock-left'), 'Alice (Rot) hat die Bedenkzeit überschritten');
  assert.equal(await bob.page.textContent('#skip-turn'), 'Zug von Alice (Rot) überspringen');
  await bob.page.click('#skip-turn');
  const skip = bob.page.locator('dialog.modal[open]');
  await skip.waitFor();
  assert.equal(await skip.locator('.modal-title').textContent(), 'Zug von Alice (Rot) überspringen?');
  assert.match(await skip.textContent(), /Der Zug von Alice \(Rot\) endet jetzt, ohne dass etwas geschieht: .* Das ist der 1\. übersprungene Zug: danach dürfen die anderen Spieler über den Ausschluss von Alice \(Rot\) abstimmen\./);
  assert.deepEqual(await leaks(bob.page), []);
  await bob.page.screenshot({ path: screenshotPath('i18n-game-de-skip.png') });
  await skip.locator('.btn-danger').click();
  const vote = bob.page.locator('.vote-expel[data-seat="0"]');
  await vote.waitFor();
  assert.equal(await vote.textContent(), 'Für den Ausschluss von Alice (Rot) stimmen');
  assert.match(await bob.page.textContent('.clock-skips[data-seat="0"]'), /^Alice \(Rot\): 1 von 1 übersprungenen Zug vor einer Abstimmung$/);
  await vote.click();
  const expel = bob.page.locator('dialog.modal[open]');
  await expel.waitFor();
  assert.equal(await expel.locator('.modal-title').textContent(), 'Für den Ausschluss von Alice (Rot) stimmen?');
  assert.match(await expel.textContent(), /Nach dem Ausschluss bleibt Alice \(Rot\) im Spiel, aber der Computer übernimmt den Platz .* Deine Stimme allein ist die Mehrheit: der Ausschluss geschieht sofort\./);
  assert.deepEqual(await leaks(bob.page), []);
  await expel.locator('button', { hasText: 'Abbrechen' }).click();

  // Conceding asks first; then the game is over for both.
  await bob.page.click('#concede');
  const concede = bob.page.locator('dialog.modal[open]');
  await concede.waitFor();
  assert.equal(await concede.locator('.modal-title').textContent(), 'Die Partie aufgeben?');
  assert.match(await concede.textContent(), /Du verlässt die Partie endgültig/);
  assert.deepEqual(await leaks(bob.page), []);
  await concede.locator('.btn-danger').click();
  const won = alice.page.locator('dialog.game-over[open]');
  await won.waitFor();
  assert.equal(await won.locator('.modal-title').textContent(), 'Sieg!');
  assert.equal(await won.locator('.modal-body').textContent(), 'Du gewinnst — Auslöschen (Standard).');
  assert.deepEqual(await won.locator('.modal-buttons button').allTextContents(), ['Schließen', 'Revanche', 'Wiederholung ansehen']);
  assert.deepEqual(await leaks(alice.page), []);
  await alice.page.screenshot({ path: screenshotPath('i18n-game-de-over.png') });
  await won.locator('button', { hasText: 'Schließen' }).click();
  assert.equal(await alice.page.textContent('#prompt-title'), 'Du gewinnst — Auslöschen (Standard).');
  assert.equal(await alice.page.textContent('#prompt .prompt-text'), 'Die Partie ist vorbei. Du kannst dir die Wiederholung Schritt für Schritt ansehen.');
  assert.equal(await bob.page.textContent('#prompt-title'), 'Alice (Rot) gewinnt — Auslöschen (Standard).');
  assert.deepEqual(await leaks(bob.page), []);

  for (const p of [alice, bob]) assert.deepEqual(p.errors, []);
});
