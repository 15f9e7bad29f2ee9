// Identity across devices: a sign-in link moves a player to a second browser context (same
// player, same seats, the first keeps working), "switch" offers the account page first, a
// recovery code brings a player back after his storage was cleared, and an e-mail address is
// confirmed through a real SMTP conversation with a sink on loopback, then brings a sign-in link.
// The account page fits a phone and declares vacation in every game with a clock at once.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, signIn, screenshotPath } from './lib/harness.js';
import { startSmtpSink, freePort } from './lib/smtp_sink.js';

let server;
let browser;
let sink;
let alice;
let phone;
let gameId;

before(async () => {
  sink = await startSmtpSink();
  const port = await freePort();
  server = await startServer({
    port,
    args: ['--public-url', `http://127.0.0.1:${port}`, '--smtp-url', `smtp://127.0.0.1:${sink.port}`, '--smtp-starttls', 'off', '--smtp-from', 'VIKTORY II <turns@example.org>'],
  });
  browser = await launchBrowser();
  alice = await newPlayer(browser, server);
  phone = await newPlayer(browser, server, { viewport: { width: 390, height: 844 } });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (sink) await sink.close();
});

const session = (page) => page.evaluate(() => JSON.parse(localStorage.getItem('viktory.session')));
const myGames = (page) =>
  page.evaluate(async () => {
    const { token } = JSON.parse(localStorage.getItem('viktory.session'));
    const r = await fetch('/api/my-games', { headers: { Authorization: `Bearer ${token}` } });
    return (await r.json()).games;
  });
const online = (page) => page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'online');

test('a sign-in link opens the same player and his seats in a second browser context', async () => {
  await signIn(alice, 'Alice');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);

  await alice.page.click('#me .me-name');
  await alice.page.waitForSelector('#make-sign-in-link');
  await alice.page.click('#make-sign-in-link');
  await alice.page.waitForSelector('#sign-in-link');
  const url = await alice.page.inputValue('#sign-in-link');
  assert.match(url, new RegExp(`^${server.url.replace(/\./g, '\\.')}/#/signin/[0-9a-f]{32}$`));

  await phone.page.goto(url);
  await phone.page.waitForSelector('#create-form');
  await online(phone.page);
  assert.equal(await phone.page.textContent('#me .me-name'), 'Alice');
  const [a, p] = [await session(alice.page), await session(phone.page)];
  assert.equal(p.player_id, a.player_id);
  assert.notEqual(p.token, a.token, 'each device has a token of its own');
  assert.deepEqual((await myGames(phone.page)).map((g) => g.game_id), [gameId]);
  assert.equal((await myGames(phone.page))[0].your_seat, 0);

  // The first device keeps working.
  await alice.page.reload();
  await online(alice.page);
  assert.deepEqual((await myGames(alice.page)).map((g) => g.game_id), [gameId]);
  await alice.page.waitForFunction(() => /2 devices/.test(document.getElementById('account-facts')?.textContent));

  // The link works once.
  const third = await newPlayer(browser, server);
  await third.page.goto(url);
  await third.page.waitForSelector('#sign-in-page .form-error:not(:empty)');
  assert.match(await third.page.textContent('#sign-in-page .form-error'), /used already or has expired/);
  assert.equal(await session(third.page), null);
  await third.context.close();
  assert.deepEqual([...alice.errors, ...phone.errors], []);
});

test('switch offers the account page before the browser forgets the player', async () => {
  await phone.page.click('#me button');
  await phone.page.waitForSelector('dialog.modal');
  assert.match(await phone.page.textContent('dialog.modal'), /sign-in link or a recovery code/);
  await phone.page.click('dialog.modal button:has-text("Account page")');
  await phone.page.waitForSelector('#make-recovery-code');
  assert.ok((await session(phone.page)).token, 'nothing was forgotten');
});

test('a recovery code brings the player back after his storage was cleared', async () => {
  await alice.page.goto('/#/account');
  await alice.page.click('#make-recovery-code');
  await alice.page.waitForSelector('#recovery-code');
  const code = await alice.page.textContent('#recovery-code');
  assert.match(code, /^([0-9a-f]{4}-){7}[0-9a-f]{4}$/);
  const before = await session(alice.page);

  await alice.page.evaluate(() => localStorage.clear());
  await alice.page.goto('/');
  await alice.page.reload();
  await alice.page.waitForSelector('#returning-player');
  await alice.page.click('#returning-player summary');
  await alice.page.fill('#recovery-input', code.toUpperCase());
  await alice.page.click('#recovery-submit');
  await alice.page.waitForSelector('#create-form');
  await online(alice.page);
  assert.equal((await session(alice.page)).player_id, before.player_id);
  assert.deepEqual((await myGames(alice.page)).map((g) => g.game_id), [gameId]);
});

test('an e-mail address is confirmed through the SMTP relay and then brings a sign-in link', async () => {
  await alice.page.goto('/#/account');
  await alice.page.waitForSelector('#email-address');
  await alice.page.fill('#email-address', 'alice@example.org');
  await alice.page.click('#email-save');
  const verification = await sink.waitFor((m) => m.body.includes('#/verify-email/'));
  assert.ok(verification.to.some((rcpt) => rcpt.includes('<alice@example.org>')));
  assert.match(verification.headers, /^Subject: Confirm your e-mail address for VIKTORY II$/m);
  const verifyUrl = verification.body.match(/http:\S+#\/verify-email\/[0-9a-f]{32}/)[0];
  await alice.page.goto(verifyUrl);
  await alice.page.waitForFunction(() => /is confirmed/.test(document.getElementById('verify-result')?.textContent));

  const laptop = await newPlayer(browser, server);
  await laptop.page.goto('/');
  await laptop.page.click('#returning-player summary');
  await laptop.page.fill('#mail-link-address', 'alice@example.org');
  await laptop.page.click('#returning-player form:nth-of-type(2) button');
  const mail = await sink.waitFor((m) => m.body.includes('#/signin/'));
  const link = mail.body.match(/http:\S+#\/signin\/[0-9a-f]{32}/)[0];
  await laptop.page.goto(link);
  await laptop.page.waitForSelector('#create-form');
  assert.equal((await session(laptop.page)).player_id, (await session(alice.page)).player_id);
  await laptop.context.close();
});

test('the account page turns e-mail notifications on and mutes a game', async () => {
  await alice.page.goto('/#/account');
  await alice.page.waitForSelector('#notify-email:not([disabled])');
  await alice.page.check('#notify-email');
  await alice.page.check(`#mute-${gameId}`);
  const settings = async () =>
    alice.page.evaluate(async () => {
      const { token } = JSON.parse(localStorage.getItem('viktory.session'));
      return (await fetch('/api/notify/settings', { headers: { Authorization: `Bearer ${token}` } })).json();
    });
  for (let i = 0; i < 50; i++) {
    const s = await settings();
    if (s.email && s.muted.includes(gameId)) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const s = await settings();
  assert.equal(s.email, true);
  assert.deepEqual(s.muted, [gameId]);
  // The creator may set the game's webhook; a URL that is not https is refused with a reason.
  await alice.page.fill('.webhook-url', 'http://127.0.0.1:9/hook');
  await alice.page.click('.notify-game button[type=submit]');
  await alice.page.waitForFunction(() => /https/.test(document.querySelector('.account-page .form-error')?.textContent));
  assert.deepEqual(alice.errors, []);
});

// Issue 20: the browser's time zone goes to the server (deadlines in notifications are told in
// it) when a player signs in; the account page says which, and offers the daily digest.
test('the browser tells its time zone, and the account page offers the daily digest', async () => {
  const priya = await newPlayer(browser, server, { timezoneId: 'Asia/Kolkata' });
  await signIn(priya, 'Priya');
  const settings = () =>
    priya.page.evaluate(async () => {
      const { token } = JSON.parse(localStorage.getItem('viktory.session'));
      return (await fetch('/api/notify/settings', { headers: { Authorization: `Bearer ${token}` } })).json();
    });
  // Chromium names it by ICU's older name; the server's tz database has both.
  const kolkata = /^Asia\/(Kolkata|Calcutta)$/;
  let s = await settings();
  for (let i = 0; i < 50 && !kolkata.test(s.time_zone || ''); i++) {
    await new Promise((r) => setTimeout(r, 100));
    s = await settings();
  }
  assert.match(s.time_zone, kolkata);
  assert.equal(s.digest, false);
  await priya.page.goto('/#/account');
  await priya.page.waitForSelector('#notify-time-zone');
  assert.match(await priya.page.textContent('#notify-time-zone'), /Asia\/(Kolkata|Calcutta)/);
  assert.equal(await priya.page.isDisabled('#notify-digest'), true, 'the digest needs e-mail on');
  await priya.page.screenshot({ path: screenshotPath('notify-settings.png'), fullPage: true });
  assert.deepEqual(priya.errors, []);
  await priya.context.close();
});

// Issue 19: signing out other devices revokes the recovery code, and the page says so.
test('signing out other devices says that the recovery code was revoked', async () => {
  const bea = await newPlayer(browser, server);
  await signIn(bea, 'Bea');
  await bea.page.goto('/#/account');
  await bea.page.waitForSelector('#make-recovery-code');
  await bea.page.click('#make-recovery-code');
  await bea.page.waitForSelector('#recovery-code');
  const code = await bea.page.textContent('#recovery-code');
  await bea.page.click('#sign-out-others');
  await bea.page.waitForFunction(() => /recovery code no longer works/.test(document.getElementById('toasts')?.textContent || ''));
  const reply = await bea.page.evaluate(
    async (c) => (await fetch('/api/session/redeem', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: c }) })).status,
    code,
  );
  assert.equal(reply, 404);
  await bea.context.close();
});

test('on a phone the account page fits (the webhook row wraps); vacation in every game at once', async () => {
  const page = phone.page;
  // Two running games against the computer with a clock: one with vacation days, one without.
  const created = [];
  for (const days of [3, 0]) {
    const id = await page.evaluate(async (vacation) => {
      const { seen } = await window.__viktory.conn.request('game.create', { seats: 2, computers: [{ seat: 1, level: 'random' }], clock: { per_move_seconds: 86400, vacation_days: vacation } });
      return seen.find((m) => m.type === 'game.created').game_id;
    }, days);
    created.push(id);
  }
  await page.goto('/#/account');
  await page.waitForSelector('.webhook-url');
  await page.waitForSelector('#vacation-all-go');
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth]);
  assert.ok(widths[0] <= widths[1], `no sideways scrolling at 390 px (${widths})`);
  await page.selectOption('#vacation-all-days', '2');
  await page.click('#vacation-all-go');
  await page.waitForSelector('#vacation-results li');
  const results = await page.locator('#vacation-results li').allTextContents();
  assert.equal(results.length, 2, results.join(' | '));
  assert.match(await page.textContent(`#vacation-results [data-game-id="${created[0]}"]`), new RegExp(`^Game ${created[0]}: on vacation until `));
  assert.match(await page.textContent(`#vacation-results [data-game-id="${created[1]}"]`), new RegExp(`^Game ${created[1]}: not there \\(`));
  // Told in the game itself, as a game.vacation is.
  await page.goto(`/#/game/${created[0]}`);
  await page.waitForSelector('#my-vacation');
  await page.goto('/#/account');
  await page.waitForSelector('.webhook-url');
  await page.locator('#vacation-all').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath('account-phone.png'), fullPage: true });
  assert.deepEqual(phone.errors, []);
});
