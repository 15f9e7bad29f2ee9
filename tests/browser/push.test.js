// Turn notifications by Web Push, end to end (and presence in the players panel): Bob's browser has the service worker and a push
// subscription, he closes the game page, Alice moves until it is Bob's turn, the server pushes
// (after its commit, through the notifier) to the local push service, which checks the VAPID
// JWT and decrypts the message; the message reaches Bob's service worker, which shows "Your
// turn in Game N", and its link opens the game.
//
// Headless Chromium cannot reach a real push service offline (its PushManager subscribes at
// Google's), so Bob's subscription is made at the local push service (web-push-testing, the
// one the C++ tests use) and handed to the server exactly as the page would hand its own; the
// decrypted payload is delivered to Bob's service worker through the DevTools protocol
// (ServiceWorker.deliverPushMessage), which runs the worker's real "push" handler.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import path from 'node:path';
import { startServer, launchBrowser, newPlayer, signIn, gameState, waitForGameState, repoRoot } from './lib/harness.js';
import { playUntil, pickAction } from './lib/bot.js';
import { freePort } from './lib/smtp_sink.js';

let server;
let browser;
let pushService;
let pushUrl;
let alice;
let bob;

async function startPushService() {
  const dir = path.join(repoRoot, 'tests', 'notify', 'push-service');
  const child = spawn('node', ['start.js'], { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening (\d+)/);
      if (m) resolve(Number(m[1]));
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('exit', (code) => reject(new Error(`push service exited (${code}): ${out} (run npm ci in tests/notify/push-service)`)));
  });
  return { child, url: `http://127.0.0.1:${port}` };
}

async function postJson(url, body) {
  const r = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, json: await r.json().catch(() => null) };
}

before(async () => {
  pushService = await startPushService();
  pushUrl = pushService.url;
  const port = await freePort();
  server = await startServer({ port, args: ['--public-url', `http://127.0.0.1:${port}`, '--allow-private-endpoints'] });
  browser = await launchBrowser();
  alice = await newPlayer(browser, server);
  bob = await newPlayer(browser, server);
  await bob.context.grantPermissions(['notifications'], { origin: server.url });
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
  if (pushService) pushService.child.kill('SIGTERM');
});

test('a push arrives with the page closed and opens the game', async () => {
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await bob.page.goto(`/#/game/${gameId}`);
  await bob.page.click('#join-game');
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  // Alice must be the one to act when Bob leaves.
  await playUntil([alice, bob], (ss) => ss[0] && ss[1] && ss[0].view.decider === ss[0].you.seat && ss[0].seq === ss[1].seq, { avoidBattle: true });
  const bobSeat = (await gameState(bob.page)).you.seat;
  // Presence: both players are shown online in the players panel.
  await alice.page.waitForFunction(() => document.querySelectorAll('.player-list .presence.online').length === 2);

  // Bob's browser: the service worker, and a subscription with the server's key.
  await bob.page.evaluate(async () => {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    await navigator.serviceWorker.ready;
  });
  const { public_key: key } = await (await fetch(`${server.url}/api/push/key`)).json();
  const subscribed = await postJson(`${pushUrl}/subscribe`, { applicationServerKey: key });
  assert.equal(subscribed.status, 200);
  const clientHash = subscribed.json.data.clientHash;
  const token = (await bob.page.evaluate(() => JSON.parse(localStorage.getItem('viktory.session')))).token;
  const stored = await bob.page.evaluate(
    async ({ subscription, token }) => {
      const r = await fetch('/api/push/subscription', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` }, body: JSON.stringify(subscription) });
      return r.json();
    },
    { subscription: subscribed.json.data, token },
  );
  assert.equal(stored.push_subscriptions, 1);

  // Bob closes the game; a blank tab stays for the DevTools session.
  const blank = await bob.context.newPage();
  const registrations = [];
  const cdp = await bob.context.newCDPSession(blank);
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e) => registrations.push(...e.registrations));
  await cdp.send('ServiceWorker.enable');
  await bob.page.close();

  // Alice plays on until it is Bob's turn (or a decision of his).
  for (let i = 0; i < 300; i++) {
    const s = await gameState(alice.page);
    if (s.view.decider === bobSeat) break;
    const action = pickAction(s, { avoidBattle: true });
    await alice.page.evaluate((a) => window.__viktoryGame.channel.act(a), action);
    await waitForGameState(alice.page, (st, n) => st.seq >= n, s.seq + 1);
  }
  assert.equal((await gameState(alice.page)).view.decider, bobSeat);

  // The push service got it: VAPID checked, body decrypted.
  let message = null;
  for (let i = 0; i < 200 && !message; i++) {
    const got = await postJson(`${pushUrl}/get-notifications`, { clientHash });
    const all = (got.json && got.json.data.messages) || [];
    message = all.map((m) => JSON.parse(m)).find((m) => m.kind === 'your_turn' && m.game === gameId) || null;
    if (!message) await new Promise((r) => setTimeout(r, 100));
  }
  assert.ok(message, 'the turn notification reached the push service');
  assert.deepEqual(Object.keys(message).sort(), ['body', 'game', 'kind', 'tag', 'title', 'url']);
  assert.equal(message.url, `${server.url}/#/game/${gameId}`);

  // It reaches Bob's service worker, which shows it.
  const registration = registrations.find((r) => r.scopeURL === `${server.url}/` && !r.isDeleted);
  assert.ok(registration, 'the service worker is registered');
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: server.url, registrationId: registration.registrationId, data: JSON.stringify(message) });
  const check = await bob.context.newPage();
  await check.goto('/favicon.svg');
  let shown = [];
  for (let i = 0; i < 100 && shown.length === 0; i++) {
    shown = await check.evaluate(async () => {
      const reg = await navigator.serviceWorker.getRegistration('/');
      return (await reg.getNotifications()).map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data }));
    });
    if (shown.length === 0) await new Promise((r) => setTimeout(r, 100));
  }
  assert.equal(shown.length, 1);
  assert.match(shown[0].title, new RegExp(`^Your turn in Game ${gameId}( \\(round \\d+\\))?$`));
  assert.equal(shown[0].title, message.title);
  assert.equal(shown[0].tag, `viktory-game-${gameId}`);
  assert.equal(shown[0].data.url, `${server.url}/#/game/${gameId}`);

  // Its link opens the game, at Bob's seat and his turn.
  await check.goto(shown[0].data.url);
  const state = await waitForGameState(check, (s, seat) => s && s.you.seat === seat, bobSeat);
  assert.equal(state.view.decider, bobSeat);
});
