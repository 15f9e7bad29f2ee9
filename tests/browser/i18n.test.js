// Issue 21 in the browser: a browser whose language is German gets the pages outside the game
// page in German (the welcome page, the lobby with its create form, the invitation, the account
// page), with German dates; the language switch makes them English, and the choice holds over a
// reload. Desktop (1366 px) and phone (390 px) screenshots of the German lobby and account page.
//
// "No English left" is checked against the catalogs themselves: each piece of an English text
// between its placeholders that is at least 8 characters long must not appear on the page,
// unless some German text holds it too. Shorter pieces ("Live", "OK", "{n} min", "by ") are
// too short to tell the languages apart or occur inside other words; pieces found in both
// languages ("Lobby", "Standard", "Computer (") are language-neutral. The same the other way
// round once the page is switched to English.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, newPlayer, repoRoot, screenshotPath, startServer } from './lib/harness.js';

const DAY = 86400;
const MIN_PIECE = 8;

const catalog = (lang) => JSON.parse(readFileSync(path.join(repoRoot, 'web-client', 'i18n', `${lang}.json`), 'utf8'));
const en = catalog('en');
const de = catalog('de');

const forms = (entry) => (typeof entry === 'object' ? Object.values(entry) : [entry]);

// The pieces of `from`'s texts that must not show on a page in the other language.
function telltales(from, other) {
  const otherTexts = Object.values(other).flatMap(forms);
  const pieces = new Set();
  for (const entry of Object.values(from)) {
    for (const text of forms(entry)) {
      for (const piece of text.split(/\{\w+\}/)) {
        const trimmed = piece.trim();
        if (trimmed.length >= MIN_PIECE && !otherTexts.some((o) => o.includes(trimmed))) pieces.add(trimmed);
      }
    }
  }
  return [...pieces];
}
const englishPieces = telltales(en, de);
const germanPieces = telltales(de, en);

async function leaks(page, pieces) {
  const text = await page.evaluate(() => document.body.innerText);
  return pieces.filter((p) => text.includes(p));
}

async function noSidewaysScroll(page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }));
  assert.ok(scroll <= width, `the page scrolls sideways: ${scroll} > ${width}`);
}

let server;
let browser;

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('a German browser gets the welcome page, the lobby, the invitation and the account page in German; the switch to English holds', async () => {
  server = await startServer();
  browser = await launchBrowser();
  const alice = await newPlayer(browser, server, { viewport: { width: 1366, height: 900 }, locale: 'de-DE', timezoneId: 'Europe/Berlin' });
  const page = alice.page;

  // The welcome page.
  await page.goto('/');
  await page.waitForSelector('form.welcome-form');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
  const welcome = await page.evaluate(() => document.body.innerText);
  assert.match(welcome, /Wähle deinen Namen/);
  assert.match(welcome, /erobere Dörfer und Städte, nimm Hauptstädte ein/);
  assert.match(welcome, /Schon einmal hier gespielt\?/);
  assert.deepEqual(await leaks(page, englishPieces), []);
  assert.equal(await page.locator('#language option:checked').textContent(), 'Deutsch');
  assert.deepEqual(await page.locator('#language option').allTextContents(), ['Deutsch', 'English']);
  assert.equal(await page.title(), 'Namen wählen · VIKTORY II');

  await page.fill('#name', 'Alice');
  await page.click('form.welcome-form button[type=submit]');
  await page.waitForSelector('#create-form');
  await page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'online');
  assert.equal(await page.textContent('#conn-status'), 'online');
  assert.equal(await page.textContent('#me button'), 'wechseln');

  // The create form, in German with the rulebook's terms.
  const form = await page.textContent('#create-form');
  for (const expected of ['Neue Partie', 'Auslöschen (Standard)', 'Entscheidungsschlag', 'Vorherrschaft', 'Zufallsende', 'Sieg durch Unterwerfung', 'Optionale Regeln [15.0]', 'Weniger Glück', 'Rot: du', 'Ein Mensch (Einladung, Lobby)', 'Partie erstellen']) {
    assert.ok(form.includes(expected), `the create form says "${expected}"`);
  }
  assert.deepEqual(await page.locator('#clock_per_move option').allTextContents(), ['Ohne Zeitlimit', 'Live: 2 Minuten pro Zug', 'Live: 5 Minuten pro Zug', '1 Tag pro Zug', '2 Tage pro Zug', '3 Tage pro Zug', '5 Tage pro Zug', '7 Tage pro Zug', '14 Tage pro Zug']);

  // A private 2-player game with a clock: a day per move, a bank of 3 days.
  await page.selectOption('#seats', '2');
  await page.selectOption('#clock_per_move', String(DAY));
  await page.selectOption('#clock_bank', String(3 * DAY));
  assert.deepEqual(await page.locator('#clock_skips option').allTextContents(), ['nach 1 übersprungenen Zug', 'nach 2 übersprungenen Zügen', 'nach 3 übersprungenen Zügen', 'nach 5 übersprungenen Zügen', 'nach 10 übersprungenen Zügen']);
  await page.check('#private');
  await page.click('#create-game');
  await page.waitForSelector('#invite-link');
  const link = await page.locator('#invite-link').inputValue();
  const gameId = Number(page.url().match(/#\/game\/(\d+)/)[1]);

  // The lobby: "your games" names the game, its options and its clock in German.
  await page.goto('/');
  const mine = page.locator(`#my-games [data-game-id="${gameId}"]`);
  await mine.waitFor();
  const row = await mine.textContent();
  assert.match(row, new RegExp(`Partie ${gameId}`));
  assert.match(row, /2 Spieler · Auslöschen \(Standard\) · Kartenfelder: Standard/);
  assert.match(row, /1 Tag pro Zug · 3 Tage Zeitkonto · kein Urlaub · Ausschluss-Abstimmung nach 2 übersprungenen Zügen/);
  assert.match(row, /wartet auf Spieler/);
  await page.waitForFunction(() => !document.querySelector('#running-games .subtle:not(.empty)'));
  assert.deepEqual(await leaks(page, englishPieces), []);
  assert.equal(await page.title(), 'Lobby · VIKTORY II');
  await page.screenshot({ path: screenshotPath('i18n-lobby-de-desktop.png'), fullPage: true });

  // Numbers through Intl in the page's language.
  assert.equal(await page.evaluate(() => import('/js/i18n.js').then((m) => m.formatNumber(1234567.5))), '1.234.567,5');

  // The invitation, to a visitor without a name and then on its own page: German.
  const bob = await newPlayer(browser, server, { viewport: { width: 1366, height: 900 }, locale: 'de-DE' });
  await bob.page.goto(link.replace(server.url, ''));
  await bob.page.waitForSelector('#welcome-invite:not([hidden])');
  assert.match(await bob.page.textContent('#welcome-invite'), new RegExp(`Alice lädt dich zu Partie ${gameId} ein`));
  assert.match(await bob.page.textContent('#welcome-invite'), /Wähle unten einen Namen, um einen Platz einzunehmen/);
  assert.deepEqual(await leaks(bob.page, englishPieces), []);
  await bob.page.fill('#name', 'Bob');
  await bob.page.click('form.welcome-form button[type=submit]');
  await bob.page.waitForSelector('#accept-invite');
  const invitation = await bob.page.evaluate(() => document.body.innerText);
  assert.match(invitation, /Bedenkzeit: 1 Tag pro Zug · 3 Tage Zeitkonto/);
  assert.match(invitation, /private Partie/);
  assert.match(invitation, /Rot — Alice/);
  assert.match(invitation, /Gelb — freier Platz/);
  assert.equal(await bob.page.textContent('#accept-invite'), 'Platz einnehmen');
  assert.deepEqual(await leaks(bob.page, englishPieces), []);

  // The account page, with a recovery code made today: the date the German way.
  await page.goto('/#/account');
  await page.waitForSelector('#make-recovery-code');
  await page.click('#make-recovery-code');
  await page.waitForSelector('#recovery-code');
  await page.waitForFunction(() => /Wiederherstellungscode erstellt am/.test(document.getElementById('account-facts')?.textContent));
  const facts = await page.textContent('#account-facts');
  const today = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeZone: 'Europe/Berlin' }).format(new Date());
  assert.match(today, /^\d{2}\.\d{2}\.\d{4}$/);
  assert.equal(facts, `Angemeldet als Alice, nur auf diesem Gerät. Wiederherstellungscode erstellt am ${today}.`);
  await page.waitForSelector('#standing-orders select');
  await page.waitForSelector('#notify-push');
  const account = await page.evaluate(() => document.body.innerText);
  for (const expected of ['Dein Konto', 'Auf einem anderen Gerät spielen', 'Dauerbefehle', 'Deine Verluste', 'Benachrichtigung bei deinem Zug', 'Urlaub', 'Andere Geräte abmelden', 'Sprache']) {
    assert.ok(account.includes(expected), `the account page says "${expected}"`);
  }
  assert.deepEqual(await leaks(page, englishPieces), []);
  await page.screenshot({ path: screenshotPath('i18n-account-de-desktop.png'), fullPage: true });

  // The players' records (js/profile.js, js/finished.js, js/ladder.js): her own profile, her
  // finished games, the ladder.
  assert.equal(await page.textContent('#privacy h3'), 'Dein Profil');
  await page.click('#privacy-own-profile');
  await page.waitForSelector('#profile-totals');
  assert.equal(await page.textContent('#profile-totals'), '0 Partien gespielt, 0 gewonnen');
  assert.deepEqual(await leaks(page, englishPieces), []);
  for (const [hash, ready] of [['/#/finished', '#finished-list .empty'], ['/#/ladder', '#ladder-pager']]) {
    await page.goto(hash);
    await page.waitForSelector(ready);
    assert.deepEqual(await leaks(page, englishPieces), [], hash);
  }
  await page.goto('/#/account');
  await page.waitForSelector('#standing-orders select');

  // The phone: German words are long; nothing may push the page sideways.
  const phone = await newPlayer(browser, server, { viewport: { width: 390, height: 844 }, touch: true, locale: 'de-DE' });
  await phone.page.goto('/');
  await phone.page.waitForSelector('form.welcome-form');
  await noSidewaysScroll(phone.page);
  await phone.page.screenshot({ path: screenshotPath('i18n-welcome-de-phone.png'), fullPage: true });
  await phone.page.fill('#name', 'Carola');
  await phone.page.click('form.welcome-form button[type=submit]');
  await phone.page.waitForSelector('#create-form');
  // A public game of her own: a row in "your games" and in the open list.
  await phone.page.selectOption('#clock_per_move', String(DAY));
  await phone.page.click('#create-game');
  await phone.page.waitForSelector('#waiting');
  await phone.page.goto('/');
  await phone.page.waitForSelector('#open-games .game-row');
  await phone.page.waitForSelector('#my-games .game-row');
  assert.deepEqual(await leaks(phone.page, englishPieces), []);
  await noSidewaysScroll(phone.page);
  await phone.page.screenshot({ path: screenshotPath('i18n-lobby-de-phone.png'), fullPage: true });
  await phone.page.goto('/#/account');
  await phone.page.waitForSelector('#standing-orders select');
  await phone.page.waitForSelector('#notify-push');
  await noSidewaysScroll(phone.page);
  await phone.page.screenshot({ path: screenshotPath('i18n-account-de-phone.png'), fullPage: true });

  // The switch: English, and it holds over a reload and on the other pages.
  await Promise.all([page.waitForEvent('load'), page.selectOption('#language', 'en')]);
  await page.waitForSelector('#make-recovery-code');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'en');
  await page.waitForSelector('#standing-orders select');
  const english = await page.evaluate(() => document.body.innerText);
  assert.match(english, /Your account/);
  assert.match(english, /Standing orders/);
  assert.deepEqual(await leaks(page, germanPieces), []);
  await page.reload();
  await page.waitForSelector('#make-recovery-code');
  assert.match(await page.evaluate(() => document.body.innerText), /Play on another device/);
  await page.goto('/');
  await mine.waitFor();
  assert.match(await mine.textContent(), /1 day per move · 3 days bank · no vacation · vote to expel after 2 skipped turns/);
  assert.match(await page.textContent('#create-form'), /New game/);
  assert.deepEqual(await leaks(page, germanPieces), []);
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
  assert.deepEqual(phone.errors, []);
});

// The top bar's switch (js/language_switch.js, compact), on every page: an English phone turns
// the lobby German from there; the page reloads in German, the server is told (the player's
// mails and pushes), a reload keeps it, and the bar pushes nothing off a 390 px screen.
test('the top bar switches the language on a phone; the choice holds over a reload and reaches the server', async () => {
  server = server || (await startServer());
  browser = browser || (await launchBrowser());
  const dora = await newPlayer(browser, server, { viewport: { width: 390, height: 844 }, touch: true });
  const { page } = dora;
  await page.goto('/');
  await page.waitForSelector('form.welcome-form');
  await noSidewaysScroll(page);
  await page.fill('#name', 'Dora');
  await page.click('form.welcome-form button[type=submit]');
  await page.waitForSelector('#create-form');
  await page.waitForSelector('#me .me-name');
  assert.equal(await page.getAttribute('#topbar-language', 'aria-label'), 'Language');
  assert.deepEqual(await page.locator('#topbar-language option').allTextContents(), ['DE', 'EN']);
  assert.equal(await page.inputValue('#topbar-language'), 'en');
  await noSidewaysScroll(page);
  // The whole bar, the switch and the name in it, within the screen.
  for (const selector of ['.topbar', '#topbar-language', '#me .me-name']) {
    const box = await page.locator(selector).boundingBox();
    assert.ok(box && box.x >= 0 && box.x + box.width <= 390, `${selector} fits the phone: ${JSON.stringify(box)}`);
  }
  await page.screenshot({ path: screenshotPath('i18n-topbar-en-phone.png') });
  await Promise.all([page.waitForEvent('load'), page.selectOption('#topbar-language', 'de')]);
  await page.waitForSelector('#create-form');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
  assert.equal(await page.inputValue('#topbar-language'), 'de');
  assert.match(await page.textContent('#create-form'), /Neue Partie/);
  assert.deepEqual(await leaks(page, englishPieces), []);
  await noSidewaysScroll(page);
  await page.screenshot({ path: screenshotPath('i18n-topbar-de-phone.png') });
  // The server writes Dora's mails in German now (the page told it after the reload).
  await page.waitForFunction(async () => {
    const { token } = JSON.parse(localStorage.getItem('viktory.session'));
    const account = await (await fetch('/api/account', { headers: { Authorization: `Bearer ${token}` } })).json();
    return account.language === 'de';
  });
  await page.reload();
  await page.waitForSelector('#create-form');
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'de');
  assert.match(await page.textContent('#create-form'), /Neue Partie/);
  assert.deepEqual(dora.errors, []);
  await dora.context.close();
});
