// Friends (issue 22): Alice follows Bob from the lobby's open games; Bob's open game then comes
// first in her list, marked "friend", and her friends card shows him online. In her own game
// waiting for players she invites him with one click; Bob, who turned e-mail on, gets the
// invitation by mail (the server's SMTP relay, a sink on loopback) with the game's link, opens
// it and takes the free seat. Screenshots on a desktop and a phone (390x844).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, newPlayer, signIn, screenshotPath, ensureScreenshotDir } from './lib/harness.js';
import { startSmtpSink, freePort, decodeQuotedPrintable } from './lib/smtp_sink.js';

let server;
let sink;
let browser;
let alice;
let bob;
let carol;
let port;

before(async () => {
  sink = await startSmtpSink();
  port = await freePort();
  server = await startServer({
    port,
    args: ['--public-url', `http://127.0.0.1:${port}`, '--smtp-url', `smtp://127.0.0.1:${sink.port}`, '--smtp-starttls', 'off', '--smtp-from', 'VIKTORY II <turns@example.org>'],
  });
  browser = await launchBrowser();
  alice = await newPlayer(browser, server);
  bob = await newPlayer(browser, server);
  carol = await newPlayer(browser, server, { viewport: { width: 390, height: 844 }, touch: true });
  ensureScreenshotDir();
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (sink) await sink.close();
});

const session = (player) => player.page.evaluate(() => JSON.parse(localStorage.getItem('viktory.session')));

async function request(player, method, path, body) {
  return player.page.evaluate(
    async ({ method, path, body }) => {
      const { token } = JSON.parse(localStorage.getItem('viktory.session'));
      const r = await fetch(path, {
        method,
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: r.status, body: await r.json().catch(() => null) };
    },
    { method, path, body },
  );
}

// A game `player` opens from the lobby's form (two seats unless said otherwise).
async function createGame(player, seats = 2) {
  await player.page.goto('/');
  await player.page.waitForSelector('#create-form');
  await player.page.selectOption('#seats', String(seats));
  await player.page.click('#create-game');
  await player.page.waitForSelector('#waiting .seat-list');
  return Number(player.page.url().match(/#\/game\/(\d+)/)[1]);
}

test('follow a player: his open game comes first, marked; invite him with one click and he gets it', async () => {
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');
  await signIn(carol, 'Carol');
  const bobId = (await session(bob)).player_id;

  // Bob's e-mail, confirmed, and e-mail notifications on (his own settings).
  assert.equal((await request(bob, 'POST', '/api/account/email', { address: 'bob@example.org' })).status, 200);
  const verification = await sink.waitFor((m) => m.body.includes('#/verify-email/'));
  const code = decodeQuotedPrintable(verification.body).match(/#\/verify-email\/([0-9a-f]{32})/)[1];
  assert.equal((await request(bob, 'POST', '/api/account/email/verify', { code })).status, 200);
  assert.equal((await request(bob, 'POST', '/api/notify/settings', { email: true })).status, 200);

  // Carol's game first (the older), then Bob's.
  const carolsGame = await createGame(carol);
  const bobsGame = await createGame(bob);
  await alice.page.goto('/');
  await alice.page.waitForSelector(`#open-games .game-row[data-game-id="${bobsGame}"]`);
  const order = () => alice.page.$$eval('#open-games .game-row', (rows) => rows.map((r) => Number(r.dataset.gameId)));
  assert.deepEqual((await order()).slice(0, 2), [carolsGame, bobsGame]);
  assert.equal(await alice.page.$$eval('#open-games .tag-friend', (tags) => tags.length), 0);

  // Alice follows Bob from his game's row.
  await alice.page.click(`#open-games .game-row[data-game-id="${bobsGame}"] .follow-button`);
  await alice.page.waitForSelector(`#open-games .game-row[data-game-id="${bobsGame}"].friends-game .tag-friend`);
  assert.deepEqual((await order()).slice(0, 2), [bobsGame, carolsGame]);
  assert.equal(await alice.page.textContent(`#open-games .game-row[data-game-id="${bobsGame}"] .tag-friend`), 'friend');
  assert.equal(await alice.page.getAttribute(`#open-games .game-row[data-game-id="${bobsGame}"] .follow-button`, 'aria-pressed'), 'true');
  // The friends card: Bob, online (his profile is shown to everyone).
  await alice.page.waitForSelector(`#friends-list .friend[data-player="${bobId}"] .online-dot.online`);
  assert.match(await alice.page.textContent('#friends-followers'), /0 players follow you/);
  await alice.page.locator('#friends').scrollIntoViewIfNeeded();
  await alice.page.screenshot({ path: screenshotPath('friends-lobby-desktop.png'), fullPage: true });

  // Bob hides his profile from everybody: Alice's card no longer shows him online.
  assert.equal((await request(bob, 'POST', '/api/profile/privacy', { visible_to: 'nobody' })).status, 200);
  await alice.page.reload();
  await alice.page.waitForSelector(`#friends-list .friend[data-player="${bobId}"] .online-dot.unknown`);
  assert.equal((await request(bob, 'POST', '/api/profile/privacy', { visible_to: 'everyone' })).status, 200);

  // Bob follows Alice back (an invitation reaches only friends both ways); Alice opens a game of
  // three and invites Bob from its waiting room.
  const aliceId = (await session(alice)).player_id;
  assert.equal((await request(bob, 'POST', '/api/follow', { player: aliceId, follow: true })).status, 200);
  const alicesGame = await createGame(alice, 3);
  await alice.page.waitForSelector(`#invite-friends [data-invite-player="${bobId}"]`);
  await alice.page.click(`#invite-friends [data-invite-player="${bobId}"]`);
  // The button is disabled at the click and says "Invited" once the server has answered.
  await alice.page.waitForSelector(`#invite-friends [data-invite-player="${bobId}"][disabled]:text-is("Invited")`);
  assert.equal(await alice.page.textContent(`#invite-friends [data-invite-player="${bobId}"]`), 'Invited');
  await alice.page.screenshot({ path: screenshotPath('friends-invite-desktop.png'), fullPage: true });

  // A second invitation into the same game is refused (once per friend and game).
  const again = await alice.page.evaluate(
    async ({ game, player }) => {
      const { token } = JSON.parse(localStorage.getItem('viktory.session'));
      return new Promise((resolve) => {
        const ws = new WebSocket(`ws://${location.host}/ws`);
        ws.onopen = () => ws.send(JSON.stringify({ type: 'auth', token }));
        ws.onmessage = (e) => {
          const m = JSON.parse(e.data);
          if (m.type === 'welcome') ws.send(JSON.stringify({ type: 'game.invite_friend', game_id: game, player, req: 1 }));
          if (m.type === 'error') {
            ws.close();
            resolve(m.code);
          }
        };
      });
    },
    { game: alicesGame, player: bobId },
  );
  assert.equal(again, 'already_invited');

  // Bob's mailbox: the invitation, with the link to the game; he opens it and takes a seat.
  const mail = await sink.waitFor((m) => decodeQuotedPrintable(m.body).includes(`/#/game/${alicesGame}`));
  assert.ok(mail.to.some((rcpt) => rcpt.includes('<bob@example.org>')));
  assert.match(mail.headers, new RegExp(`^Subject: Alice invites you to Game ${alicesGame}$`, 'm'));
  const link = decodeQuotedPrintable(mail.body).match(/http:\S+#\/game\/\d+/)[0];
  await bob.page.goto(link);
  await bob.page.waitForSelector('#join-game');
  await bob.page.click('#join-game');
  await alice.page.waitForFunction(() => document.querySelectorAll('#waiting .seat-list li.taken').length === 2);

  // Carol, on a phone, follows Alice from the lobby; Alice's open game comes first for her.
  await carol.page.goto('/');
  await carol.page.waitForSelector(`#open-games .game-row[data-game-id="${alicesGame}"] .follow-button`);
  await carol.page.click(`#open-games .game-row[data-game-id="${alicesGame}"] .follow-button`);
  await carol.page.waitForSelector(`#open-games .game-row[data-game-id="${alicesGame}"].friends-game`);
  const carolOrder = await carol.page.$$eval('#open-games .game-row', (rows) => rows.map((r) => Number(r.dataset.gameId)));
  assert.equal(carolOrder[0], alicesGame);
  await carol.page.screenshot({ path: screenshotPath('friends-lobby-phone.png'), fullPage: true });
  // In her own waiting game nobody to invite yet: Alice does not follow her back.
  await carol.page.goto(`/#/game/${carolsGame}`);
  await carol.page.waitForSelector('#invite-friends p.subtle');
  assert.equal(await carol.page.locator('#invite-friends [data-invite-player]').count(), 0);
  // Once Alice follows Carol too, Carol can invite her.
  const carolId = (await session(carol)).player_id;
  assert.equal((await request(alice, 'POST', '/api/follow', { player: carolId, follow: true })).status, 200);
  await carol.page.reload();
  await carol.page.waitForSelector(`#invite-friends [data-invite-player="${aliceId}"]`);
  await carol.page.screenshot({ path: screenshotPath('friends-invite-phone.png'), fullPage: true });
});
