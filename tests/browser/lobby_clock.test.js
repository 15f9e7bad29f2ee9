// Issues 19 and 20 in the browser: the time control of a game, in its parts, wherever a player
// decides to join (the lobby's open list, the invitation page, the waiting room, the game
// header, "your games"), the lobby's speed filter, the open list paged and kept up to date by
// its changes, and deadlines in the reader's own time zone with the zone named. Desktop (1366
// px) and phone (390 px) screenshots.

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, newPlayer, screenshotPath, signIn, startServer, waitForGameState } from './lib/harness.js';

const DAY = 86400;
let server;
let browser;
let alice;
let bob;
let carol;
let phone;
let dailyGame;

// Games made by other players over their own WebSockets (from the page, as a script would):
// `count` public games of `perMove` seconds (0: no clock), a fresh player for every few.
async function otherGames(page, count, perMove, prefix) {
  return page.evaluate(
    async ({ count, perMove, prefix }) => {
      const made = [];
      let ws = null;
      for (let i = 0; i < count; i += 1) {
        if (i % 4 === 0) {
          if (ws) ws.close();
          const res = await fetch('/api/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: `${prefix}${i}` }) });
          const { token } = await res.json();
          ws = new WebSocket(`ws://${location.host}/ws`);
          await new Promise((resolve) => ws.addEventListener('open', resolve, { once: true }));
          ws.send(JSON.stringify({ type: 'auth', token }));
        }
        const created = new Promise((resolve, reject) => {
          const onMessage = (e) => {
            const m = JSON.parse(e.data);
            if (m.type === 'game.created' || m.type === 'error') {
              ws.removeEventListener('message', onMessage);
              if (m.type === 'error') reject(new Error(m.message));
              else resolve(m.game_id);
            }
          };
          ws.addEventListener('message', onMessage);
        });
        ws.send(JSON.stringify({ type: 'game.create', seats: 3, clock: perMove ? { per_move_seconds: perMove } : null }));
        made.push(await created);
      }
      // The games stay open while their creators' connections are closed.
      if (ws) ws.close();
      return made;
    },
    { count, perMove, prefix },
  );
}

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('the time control is shown in the open list, the waiting room and the invitation page', async () => {
  server = await startServer();
  browser = await launchBrowser();
  alice = await newPlayer(browser, server, { viewport: { width: 1366, height: 900 } });
  bob = await newPlayer(browser, server, { viewport: { width: 1366, height: 900 } });
  carol = await newPlayer(browser, server, { viewport: { width: 1366, height: 900 } });
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');
  await signIn(carol, 'Carol');

  // Alice: 3 days per move, a bank of a day, 3 vacation days.
  await alice.page.selectOption('#clock_per_move', String(3 * DAY));
  await alice.page.selectOption('#clock_bank', String(DAY));
  await alice.page.selectOption('#clock_vacation', '3');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  dailyGame = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  const parts = /3 days per move · 1 day bank · 3 vacation days · vote to expel after 2 skipped turns/;
  // Before, the waiting room named no clock at all.
  assert.match(await alice.page.locator('#waiting-clock').textContent(), parts);

  const row = bob.page.locator(`#open-games [data-game-id="${dailyGame}"]`);
  await row.waitFor();
  // Before: "2 players · Standard Conquest · Standard tiles" only.
  assert.match(await row.textContent(), /Daily/);
  assert.match(await row.textContent(), parts);

  // A private live game: its invitation page names its clock.
  await alice.page.goto('/');
  await alice.page.waitForSelector('#create-form');
  await alice.page.selectOption('#clock_per_move', '300');
  await alice.page.check('#private');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#invite-link');
  const link = await alice.page.locator('#invite-link').inputValue();
  assert.match(await alice.page.locator('#waiting-clock').textContent(), /5 minutes per move · no bank · no vacation/);
  await carol.page.goto(link.replace(server.url, ''));
  await carol.page.waitForSelector('#invite-clock');
  assert.match(await carol.page.locator('#invite-clock').textContent(), /Clock: 5 minutes per move · no bank · no vacation · vote to expel after 2 skipped turns/);
  await carol.page.screenshot({ path: screenshotPath('invite-clock-desktop.png') });
  await alice.page.screenshot({ path: screenshotPath('waiting-clock-desktop.png') });
});

test('the open list: a speed filter applied by the server, pages, and changes as they come', async () => {
  // 13 more open games: 9 live, 4 without a clock (and Alice's daily one first).
  await otherGames(carol.page, 9, 300, 'Live');
  await otherGames(carol.page, 4, 0, 'Slow');
  const range = bob.page.locator('#open-range');
  await bob.page.waitForFunction(() => /of 14$/.test(document.getElementById('open-range')?.textContent || ''));
  assert.equal(await range.textContent(), 'Games 1–10 of 14');
  assert.equal(await bob.page.locator('#open-games .game-row').count(), 10);
  // Oldest first: Alice's daily game leads the first page.
  assert.equal(await bob.page.locator('#open-games .game-row').first().getAttribute('data-game-id'), String(dailyGame));
  await bob.page.screenshot({ path: screenshotPath('lobby-open-paged-desktop.png') });
  await bob.page.click('#open-next');
  await bob.page.waitForFunction(() => document.getElementById('open-range')?.textContent === 'Games 11–14 of 14');
  assert.equal(await bob.page.locator('#open-games .game-row').count(), 4);
  // A game made now shows on this (last) page by itself.
  const [late] = await otherGames(carol.page, 1, 0, 'Late');
  await bob.page.locator(`#open-games [data-game-id="${late}"]`).waitFor();
  assert.equal(await range.textContent(), 'Games 11–15 of 15');
  await bob.page.click('#open-prev');
  await bob.page.waitForFunction(() => document.getElementById('open-range')?.textContent === 'Games 1–10 of 15');

  // Daily games only: Alice's.
  await bob.page.selectOption('#lobby-speed', 'daily');
  await bob.page.waitForFunction(() => document.querySelectorAll('#open-games .game-row').length === 1);
  assert.equal(await bob.page.locator('#open-games .game-row').first().getAttribute('data-game-id'), String(dailyGame));
  assert.equal(await bob.page.locator('#open-pager button').count(), 0, 'one page: no pager');
  // Live games: nine, each saying so.
  await bob.page.selectOption('#lobby-speed', 'live');
  await bob.page.waitForFunction(() => document.querySelectorAll('#open-games .game-row').length === 9);
  for (const text of await bob.page.locator('#open-games .game-row').allTextContents()) {
    assert.match(text, /Live.*5 minutes per move/);
  }
  // What went over the wire: the page asked for, then changes, never the whole list.
  const lobbyFrames = bob.frames.filter((f) => f.type === 'lobby');
  assert.ok(lobbyFrames.every((f) => f.games.length <= 10), 'at most a page at a time');
  assert.ok(bob.frames.some((f) => f.type === 'lobby.changes'), 'changes were sent');
  await bob.page.selectOption('#lobby-speed', '');
  await bob.page.waitForFunction(() => document.getElementById('open-range')?.textContent === 'Games 1–10 of 15');
  assert.deepEqual(bob.errors, []);
});

test('the game header, your games and the deadline in the reader\'s time zone', async () => {
  // Bob reads in Paris time: the deadline names its zone.
  const paris = await browser.newContext({ viewport: { width: 1366, height: 900 }, baseURL: server.url, timezoneId: 'Europe/Paris', locale: 'en-US' });
  const state = await bob.context.storageState();
  await paris.addInitScript((items) => {
    for (const { name, value } of items) localStorage.setItem(name, value);
  }, state.origins.flatMap((o) => o.localStorage));
  const page = await paris.newPage();
  await page.goto('/');
  await page.locator(`#open-games [data-game-id="${dailyGame}"] button`).click();
  await waitForGameState(page, (s) => s.view.phase === 'setup');
  await page.waitForSelector('#clock-deadline');
  assert.match(await page.locator('#game-clock-options').textContent(), /Clock: 3 days per move · 1 day bank · 3 vacation days/);
  assert.equal(await page.locator('#header-clock').textContent(), ' · 3 days per move');
  // Before, only "4 d 23 h left": bank and vacation folded in, no deadline.
  assert.match(await page.locator('#clock-deadline').textContent(), /Deadline: .*(GMT\+1|CET|GMT\+2|CEST)/);
  assert.match(await page.locator('#clock-parts').textContent(), /of this move, then 1 d of bank, then 3 d of vacation/);
  await page.screenshot({ path: screenshotPath('game-clock-desktop.png') });
  await page.goto('/');
  const mine = page.locator(`#my-games [data-game-id="${dailyGame}"]`);
  await mine.waitFor();
  assert.match(await mine.textContent(), /3 days per move · 1 day bank · 3 vacation days/);
  assert.match(await mine.textContent(), /until .*(GMT\+1|CET|GMT\+2|CEST)/);
  await paris.close();
});

test('phone: the open list with its filter and pages, and the waiting room, fit the screen', async () => {
  phone = await newPlayer(browser, server, { viewport: { width: 390, height: 844 } });
  await signIn(phone, 'Pocket');
  await phone.page.waitForFunction(() => /of 14$/.test(document.getElementById('open-range')?.textContent || ''));
  const sideways = await phone.page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth + 1);
  assert.equal(sideways, false, 'the lobby does not scroll sideways');
  await phone.page.locator('section.card:has(#open-games)').screenshot({ path: screenshotPath('lobby-open-paged-phone.png') });
  await phone.page.goto(`/#/game/${dailyGame}`);
  await phone.page.waitForSelector('#game-clock-options');
  await phone.page.screenshot({ path: screenshotPath('game-clock-phone.png') });
  await phone.page.goto('/');
  await phone.page.waitForSelector('#create-form');
  await phone.page.selectOption('#clock_per_move', String(DAY));
  await phone.page.click('#create-game');
  await phone.page.waitForSelector('#waiting-clock');
  assert.match(await phone.page.locator('#waiting-clock').textContent(), /1 day per move/);
  await phone.page.screenshot({ path: screenshotPath('waiting-clock-phone.png') });
  assert.deepEqual(phone.errors, []);
});
