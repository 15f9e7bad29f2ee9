// Issue 21 in the browser: the server's texts in the reader's language. A German browser tells
// the server its language once it has signed in (POST /api/account/language: the server writes
// that player's mails and pushes in it), and shows a server error by its code from the catalog
// (js/errors.js): "too many open games" in German, while the server's own message on the wire
// stays English. An English browser shows the English catalog's text.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, newPlayer, repoRoot, screenshotPath, signIn, startServer } from './lib/harness.js';

const catalog = (lang) => JSON.parse(readFileSync(path.join(repoRoot, 'web-client', 'i18n', `${lang}.json`), 'utf8'));
const en = catalog('en');
const de = catalog('de');

let server;
let browser;

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

// The language the server stored for the player signed in on `page`.
async function storedLanguage(page) {
  return page.evaluate(async () => {
    const { token } = JSON.parse(localStorage.getItem('viktory.session'));
    const response = await fetch('/api/account', { headers: { Authorization: `Bearer ${token}` } });
    return (await response.json()).language;
  });
}

// Creates a game (the player's one open game allowed), back to the lobby, and tries a second:
// the create form's error text.
async function secondGameRefused(player) {
  const { page } = player;
  await page.click('#create-game');
  await page.waitForSelector('#waiting');
  await page.goto('/');
  await page.waitForSelector('#create-form');
  await page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'online');
  await page.click('#create-game');
  const error = page.locator('#create-form .form-error');
  await page.waitForFunction(() => (document.querySelector('#create-form .form-error')?.textContent ?? '') !== '');
  return error.textContent();
}

test('a German browser tells the server its language and shows a server error in German; an English one in English', async () => {
  server = await startServer({ args: ['--max-open-games-per-player', '1'] });
  browser = await launchBrowser();

  const anna = await newPlayer(browser, server, { viewport: { width: 1366, height: 900 }, locale: 'de-DE' });
  await signIn(anna, 'Anna');
  await anna.page.waitForFunction(async () => {
    const { token } = JSON.parse(localStorage.getItem('viktory.session'));
    const r = await fetch('/api/account', { headers: { Authorization: `Bearer ${token}` } });
    return (await r.json()).language === 'de';
  });
  assert.equal(await storedLanguage(anna.page), 'de');

  const german = await secondGameRefused(anna);
  assert.equal(german, de['error.tooManyOpenGames']);
  // The server's own message is English (for API users and logs) and is not what the page shows.
  const refusal = anna.frames.find((f) => f.type === 'error' && f.code === 'too_many_open_games');
  assert.ok(refusal, 'the server refused the second game');
  assert.match(refusal.message, /open games/);
  assert.notEqual(german, refusal.message);
  await anna.page.locator('#create-form').screenshot({ path: screenshotPath('server-error-de.png') });

  const ben = await newPlayer(browser, server, { viewport: { width: 1366, height: 900 }, locale: 'en-US' });
  await signIn(ben, 'Ben');
  await ben.page.waitForFunction(async () => {
    const { token } = JSON.parse(localStorage.getItem('viktory.session'));
    const r = await fetch('/api/account', { headers: { Authorization: `Bearer ${token}` } });
    return (await r.json()).language === 'en';
  });
  assert.equal(await secondGameRefused(ben), en['error.tooManyOpenGames']);

  // Switching the page's language (the switch saves it and reloads) tells the server again.
  await ben.page.evaluate(() => localStorage.setItem('viktory.lang', 'de'));
  await ben.page.reload();
  await ben.page.waitForFunction(async () => {
    const { token } = JSON.parse(localStorage.getItem('viktory.session'));
    const r = await fetch('/api/account', { headers: { Authorization: `Bearer ${token}` } });
    return (await r.json()).language === 'de';
  });

  assert.deepEqual(anna.errors, []);
  assert.deepEqual(ben.errors, []);
});
