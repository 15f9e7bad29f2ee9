// Several servers behind one address (docs/postgresql.md, "Several servers on one database"), in
// a real browser: two servers on a throwaway PostgreSQL cluster behind Debian's Caddy with the
// routing of deploy/Caddyfile.several-servers. A game opened at one server is in the lobby of a
// player the proxy sends to the other; his click on Join is answered game_elsewhere and his page
// follows to the game's server (web-client/js/elsewhere.js); when that server is killed, both
// pages come back by themselves, through the proxy, at the server that takes the game over, and
// the game goes on.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { repoRoot, startServer, launchBrowser, newPlayer, signIn, gameState, waitForGameState, screenshotPath, sleep } from './lib/harness.js';
import { pickAction } from './lib/bot.js';
import { freePort } from './lib/smtp_sink.js';

const caddy = '/usr/bin/caddy';
const pgCluster = path.join(repoRoot, 'tests', 'server', 'support', 'pg_cluster.sh');
const hasPostgresql = () => {
  try {
    return readdirSync('/usr/lib/postgresql').some((v) => existsSync(`/usr/lib/postgresql/${v}/bin/initdb`));
  } catch {
    return false;
  }
};
const missing = !existsSync(caddy) ? 'caddy' : !hasPostgresql() ? 'PostgreSQL' : null;
// scripts/test.sh installs both and says they must be there.
const skip = missing && !process.env.VIKTORY_REQUIRE_PROXIES ? `${missing} is not installed` : false;

const LEASE_MS = 6000;
const FIRST = 'http://server1:8080';
const SECOND = 'http://server2:8080';
let work;
let clusterFile;
let first;
let second;
let proxy;
let proxyUrl;
let browser;
let alice;
let bob;
let gameId;

async function answers(url, timeout = 15000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    try {
      const r = await fetch(url);
      if (r.ok) return;
    } catch {
      // not up yet
    }
    if (Date.now() > deadline) throw new Error(`${url} never answered`);
    await sleep(100);
  }
}

// The routing lines of the shipped Caddyfile, with its server names replaced by the test's.
function shippedRouting(firstPort, secondPort) {
  const text = readFileSync(path.join(repoRoot, 'deploy', 'Caddyfile.several-servers'), 'utf8');
  const from = text.indexOf('# -- routing --');
  const to = text.indexOf('# -- end of routing --');
  assert.ok(from >= 0 && to > from, 'deploy/Caddyfile.several-servers has its routing lines');
  return text.slice(from, to).replaceAll('server1:8080', `127.0.0.1:${firstPort}`).replaceAll('server2:8080', `127.0.0.1:${secondPort}`);
}

async function playerAt(server) {
  const player = await newPlayer(browser, { url: proxyUrl });
  await player.context.addCookies([{ name: 'viktory_server', value: encodeURIComponent(server), url: proxyUrl }]);
  return player;
}

async function cookieOf(player) {
  const cookies = await player.context.cookies(proxyUrl);
  const c = cookies.find((x) => x.name === 'viktory_server');
  return c ? decodeURIComponent(c.value) : null;
}

before(async () => {
  if (skip) return;
  assert.equal(missing, null, `${missing} is needed (scripts/install-deps.sh --test installs it)`);
  work = mkdtempSync(path.join(tmpdir(), 'viktory-several-'));
  clusterFile = path.join(work, 'cluster.location');
  const started = spawnSync(pgCluster, ['start', clusterFile], { encoding: 'utf8' });
  assert.equal(started.status, 0, started.stderr);
  const host = readFileSync(clusterFile, 'utf8').trim();
  const db = `postgresql:///postgres?host=${host}&user=viktory`;
  // A lease long enough that a page is told "elsewhere" more than once after the kill: the
  // dead server's lease still runs when the page has followed the first answer.
  const sharing = (url) => ['--db', db, '--server-url', url, '--lease-ms', String(LEASE_MS)];
  first = await startServer({ args: sharing(FIRST) });
  second = await startServer({ args: sharing(SECOND) });
  const port = await freePort();
  proxyUrl = `http://127.0.0.1:${port}`;
  writeFileSync(path.join(work, 'Caddyfile'), `{\n\tadmin off\n\tauto_https off\n}\nhttp://127.0.0.1:${port} {\n${shippedRouting(first.port, second.port)}}\n`);
  proxy = spawn(caddy, ['run', '--config', path.join(work, 'Caddyfile'), '--adapter', 'caddyfile'], {
    stdio: 'ignore',
    env: { ...process.env, HOME: work, XDG_DATA_HOME: work, XDG_CONFIG_HOME: work },
  });
  await answers(`${proxyUrl}/healthz`);
  browser = await launchBrowser();
  alice = await playerAt(FIRST);
  bob = await playerAt(SECOND);
});

after(async () => {
  if (browser) await browser.close();
  if (proxy && proxy.exitCode === null) {
    const exited = new Promise((resolve) => proxy.once('exit', resolve));
    proxy.kill('SIGTERM');
    await exited;
  }
  for (const server of [first, second]) if (server) await server.stop();
  if (clusterFile) spawnSync(pgCluster, ['stop', clusterFile]);
  if (work) rmSync(work, { recursive: true, force: true });
});

test('a game opened at one server is joined from the lobby of the other', { skip }, async () => {
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);

  // Bob's lobby comes from the second server, which lists the first's open game.
  const row = `#open-games .game-row[data-game-id="${gameId}"]`;
  await bob.page.waitForSelector(row, { timeout: 10000 });
  await bob.page.screenshot({ path: screenshotPath('several-servers-lobby.png') });
  // His Join is answered game_elsewhere: the page sets the cookie to the first server and
  // loads again, and his second click takes the seat there.
  await Promise.all([bob.page.waitForEvent('load'), bob.page.click(`${row} button.btn-primary`)]);
  assert.equal(await cookieOf(bob), FIRST);
  assert.ok(bob.frames.some((f) => f.type === 'error' && f.code === 'game_elsewhere' && f.server === FIRST), 'told where the game is');
  await bob.page.click(`${row} button.btn-primary`, { timeout: 10000 });
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup', undefined, 20000);
  await waitForGameState(bob.page, (s) => s.view.phase === 'setup', undefined, 20000);
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});

test('when the game\'s server is killed, both pages come back at the other one and play on', { skip }, async () => {
  const before = await gameState(alice.page);
  process.kill(first.pid, 'SIGKILL');
  const killedAt = Date.now();
  // Each page reconnects through the proxy (to the second server, the first being down), is
  // told the game is the first's while its lease runs, waits, and then is served by the
  // second, which took the game over with every action.
  const framesBefore = [alice.frames.length, bob.frames.length];
  const deadline = Date.now() + 45000;
  for (const [i, p] of [alice, bob].entries()) {
    // A full state of this game after the kill: from the second server (the first is dead).
    while (!p.frames.slice(framesBefore[i]).some((f) => f.type === 'game.state' && f.game_id === gameId)) {
      assert.ok(Date.now() < deadline, `page ${i} never came back: ${JSON.stringify(p.frames.slice(framesBefore[i]).slice(-5))}`);
      await sleep(100);
    }
    await waitForGameState(p.page, (s, n) => s.seq === n, before.seq, 20000);
    await p.page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'online', undefined, { timeout: 20000 });
  }
  console.log(`# both pages back ${Date.now() - killedAt} ms after the kill`);
  // While the dead server's lease ran, the pages were told where the game was, followed, were
  // told again, and waited (elsewhere.js) rather than giving up.
  const elsewhere = [alice, bob].map((p, i) => p.frames.slice(framesBefore[i]).filter((f) => f.code === 'game_elsewhere').length);
  assert.ok(Math.max(...elsewhere) >= 2, `told game_elsewhere again after following: ${elsewhere}`);
  // One action by whoever decides now, seen by both.
  const states = await Promise.all([gameState(alice.page), gameState(bob.page)]);
  const k = states.findIndex((s) => s.view.decider === s.you.seat);
  assert.ok(k >= 0, 'someone decides');
  const action = pickAction(states[k], { avoidBattle: true });
  await [alice, bob][k].page.evaluate((a) => window.__viktoryGame.channel.act(a), action);
  await waitForGameState(alice.page, (s, n) => s.seq === n, before.seq + 1, 20000);
  await waitForGameState(bob.page, (s, n) => s.seq === n, before.seq + 1, 20000);
  await alice.page.screenshot({ path: screenshotPath('several-servers-after-failover.png') });
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
