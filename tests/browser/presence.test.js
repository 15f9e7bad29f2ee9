// Presence within 10 s (issue 20): Bob's players panel shows Alice offline within 10 s of her
// closing her tab, and of her TCP connection going away without a close frame; and online
// again within as long when she comes back.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { startServer, launchBrowser, newPlayer, signIn, waitForGameState } from './lib/harness.js';

let server;
let browser;
let alice;
let bob;
let aliceId;
let aliceToken;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  alice = await newPlayer(browser, server);
  bob = await newPlayer(browser, server);
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

// A WebSocket by hand, signed in as `token`: its TCP connection can go away without a close
// frame (destroy()), as when a browser is killed or a machine loses its network.
async function rawSignedIn(token) {
  const socket = net.connect(server.port, '127.0.0.1');
  await new Promise((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  socket.write(
    'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  let head = '';
  await new Promise((resolve) => {
    const onData = (chunk) => {
      head += chunk.toString('latin1');
      if (head.includes('\r\n\r\n')) {
        socket.off('data', onData);
        resolve();
      }
    };
    socket.on('data', onData);
  });
  assert.match(head, /^HTTP\/1\.1 101/);
  socket.on('data', () => {}); // what the server sends is read and ignored: no pong, ever
  const payload = Buffer.from(JSON.stringify({ type: 'auth', token }));
  // A masked text frame with a zero mask: the payload goes as it is.
  socket.write(Buffer.concat([Buffer.from([0x81, 0x80 | payload.length, 0, 0, 0, 0]), payload]));
  return socket;
}

// Milliseconds until Bob's players panel shows Alice's presence as `want` says (at most 20 s).
async function untilBobSees(want) {
  const start = Date.now();
  for (;;) {
    const text = await bob.page.evaluate(
      (id) => document.querySelector(`.player-list [data-presence-player="${id}"]`)?.textContent ?? null,
      aliceId,
    );
    if (text !== null && want(text)) return { ms: Date.now() - start, text };
    if (Date.now() - start > 20000) return { ms: Infinity, text };
    await new Promise((r) => setTimeout(r, 100));
  }
}

const online = (text) => text === 'online';
const offline = (text) => text !== '' && text !== 'online';

test('a game between Alice and Bob, both shown online', async () => {
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');
  const session = await alice.page.evaluate(() => JSON.parse(localStorage.getItem('viktory.session')));
  aliceId = String(session.player_id);
  aliceToken = session.token;
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await bob.page.goto(`/#/game/${gameId}`);
  await bob.page.click('#join-game');
  await waitForGameState(bob.page, (s) => s.view.phase === 'setup');
  const seen = await untilBobSees(online);
  assert.ok(seen.ms < 10000, `Alice shown "${seen.text}"`);
});

test('a closed tab shows as offline within 10 s', async () => {
  const start = Date.now();
  await alice.page.close();
  const seen = await untilBobSees(offline);
  const ms = Date.now() - start;
  assert.ok(ms < 10000, `still "${seen.text}" after ${ms} ms`);
  assert.equal(seen.text, 'seen just now');
});

test('a connection gone without a close frame shows as offline within 10 s', async () => {
  const socket = await rawSignedIn(aliceToken);
  const back = await untilBobSees(online);
  assert.ok(back.ms < 10000, `Alice back, shown "${back.text}"`);
  const start = Date.now();
  socket.destroy(); // the TCP connection just goes away
  const seen = await untilBobSees(offline);
  const ms = Date.now() - start;
  assert.ok(ms < 10000, `still "${seen.text}" after ${ms} ms`);
});
