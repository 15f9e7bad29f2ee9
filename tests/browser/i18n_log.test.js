// Issue 21 in the game log: a browser whose language is German reads the log lines of a game in
// German, the clock's lines too. The server sends each line's message (`msg`, docs/protocol.md
// "log line") beside its English `text`; the page writes the message from its own catalog
// (js/i18n.js, logLineText). Screenshot of the German log.
//
// "No English left" as in i18n.test.js, for the log's own texts: each piece of an English log
// text (web-client/i18n/en.json, keys log.*) between its placeholders that is at least 8
// characters long and in no German text must not be in the log panel.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, newPlayer, repoRoot, screenshotPath, signIn, startServer, gameState, waitForGameState } from './lib/harness.js';
import { playUntil } from './lib/bot.js';

const catalog = (lang) => JSON.parse(readFileSync(path.join(repoRoot, 'web-client', 'i18n', `${lang}.json`), 'utf8'));
const en = catalog('en');
const de = catalog('de');
const forms = (entry) => (typeof entry === 'object' ? Object.values(entry) : [entry]);

function englishLogPieces() {
  const germanTexts = Object.values(de).flatMap(forms);
  const pieces = new Set();
  for (const [key, entry] of Object.entries(en)) {
    if (!key.startsWith('log.')) continue;
    for (const text of forms(entry)) {
      for (const piece of text.split(/\{\w+\}/)) {
        const trimmed = piece.trim();
        if (trimmed.length >= 8 && !germanTexts.some((g) => g.includes(trimmed))) pieces.add(trimmed);
      }
    }
  }
  return [...pieces];
}

let server;
let browser;

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('a German browser shows the game log in German, the clock lines too', async () => {
  server = await startServer();
  browser = await launchBrowser();
  const alice = await newPlayer(browser, server, { viewport: { width: 1366, height: 900 }, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  const page = alice.page;
  await signIn(alice, 'Alice');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
  // Against the computer, with a clock that allows a vacation (a clock line in the log).
  await page.selectOption('#seat-kind-1', 'heuristic');
  await page.selectOption('#clock_per_move', String(86400));
  await page.selectOption('#clock_vacation', '3');
  await page.click('#create-game');
  await waitForGameState(page, (s) => s.view.phase === 'setup');
  await page.selectOption('#vacation-days', '2');
  await page.click('#declare-vacation');
  await page.locator('#my-vacation').waitFor();
  // Capitals, Towns, units gained, placed and moved: the lines of a few turns.
  await playUntil([alice], ([s]) => s && s.view.turn >= 4, { maxActions: 500 });
  const state = await gameState(page);
  assert.ok(state.log.length >= 10, `a few lines (${state.log.length})`);
  for (const line of state.log) assert.ok(line.msg && line.msg.key.startsWith('log.'), JSON.stringify(line));

  const lines = await page.locator('#log li').allTextContents();
  const text = lines.join('\n');
  assert.match(text, /Spielzug \d+: (Rot|Gelb) ist am Zug\./);
  assert.match(text, /(Rot|Gelb): (Bauphase|Bewegungs- & Kampfphase|Reservephase)\./);
  assert.match(text, /(Rot|Gelb) (platziert|erhält) (Infanterie|Kavallerie|Artillerie|Fregatte)/);
  // The vacation, said by the clock: the seat's colour and the duration in German.
  assert.ok(lines.some((l) => /Alice \(Rot\) ist für 2 Tage im Urlaub, bis \d{4}-\d\d-\d\d \d\d:\d\d UTC\.$/.test(l)), text);
  // The page wrote each line itself: not one is the server's English text.
  const english = new Set(state.log.map((l) => l.text));
  assert.deepEqual(lines.filter((l) => english.has(l)), []);
  assert.deepEqual(englishLogPieces().filter((p) => text.includes(p)), []);
  // The line's hexes are still pointed out on the map (from `hexes`, not from the words).
  assert.ok((await page.locator('#log li.has-hexes').count()) > 0);
  await page.locator('#log').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('game-log-de.png') });
  assert.deepEqual(alice.errors, []);
});
