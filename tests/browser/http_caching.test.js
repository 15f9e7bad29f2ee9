// The server's answers as a browser's cache and a slow network see them (docs/server.md,
// "Static files: versions, caching, compression"), over raw HTTP (node:http, so that nothing
// decompresses or revalidates behind the test's back): strong ETags and 304s, a year of caching
// for versioned URLs only, gzip for static files and for large JSON answers without secrets,
// never for an answer with a token; the import map that versions the modules, allowed by its
// hash in the Content-Security-Policy.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { createHash } from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { useTable, waitForGameState, repoRoot } from './lib/harness.js';
import { playUntil } from './lib/bot.js';

let server;
let alice;
let bob;

useTable(
  ['Alice', 'Bob'],
  (table) => {
    ({ server } = table);
    [alice, bob] = table.players;
  },
  { signedIn: true },
);

// One request: {status, headers, body (Buffer, as sent)}.
function request(target, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((resolve, reject) => {
    const req = http.request(`${server.url}${target}`, { method, headers }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks) }));
    });
    req.on('error', reject);
    if (body) req.write(body);
    req.end();
  });
}

const gzip = { 'Accept-Encoding': 'gzip, deflate, br' };

test('static files: ETag from the content, 304 when the browser has it, gzip once for those who take it', async () => {
  const onDisk = readFileSync(path.join(repoRoot, 'web-client', 'js', 'game.js'));
  const plain = await request('/js/game.js');
  assert.equal(plain.status, 200);
  assert.equal(plain.headers['content-encoding'], undefined);
  assert.deepEqual(plain.body, onDisk);
  assert.match(plain.headers.etag, /^"[0-9a-f]{16}"$/);
  assert.equal(plain.headers['cache-control'], 'no-cache');
  assert.equal(plain.headers.vary, 'Accept-Encoding');

  const packed = await request('/js/game.js', { headers: gzip });
  assert.equal(packed.status, 200);
  assert.equal(packed.headers['content-encoding'], 'gzip');
  assert.equal(packed.headers.vary, 'Accept-Encoding');
  assert.deepEqual(gunzipSync(packed.body), onDisk);
  assert.ok(packed.body.length < onDisk.length / 3, `${packed.body.length} of ${onDisk.length} bytes`);
  assert.notEqual(packed.headers.etag, plain.headers.etag, 'each form has its own validator');

  // The browser sends back what it got: nothing to download, whichever form it holds.
  for (const etag of [plain.headers.etag, packed.headers.etag, `W/${packed.headers.etag}`]) {
    const again = await request('/js/game.js', { headers: { ...gzip, 'If-None-Match': etag } });
    assert.equal(again.status, 304, etag);
    assert.equal(again.body.length, 0);
    assert.equal(again.headers.etag, packed.headers.etag);
  }
  const changed = await request('/js/game.js', { headers: { 'If-None-Match': '"0000000000000000"' } });
  assert.equal(changed.status, 200);
  assert.deepEqual(changed.body, onDisk);

  // HEAD: the same headers, no body.
  const head = await request('/js/game.js', { method: 'HEAD', headers: gzip });
  assert.equal(head.status, 200);
  assert.equal(head.headers['content-length'], String(packed.body.length));
  assert.equal(head.body.length, 0);

  // A PNG is not compressed again.
  const icon = await request('/icons/icon-512.png', { headers: gzip });
  assert.equal(icon.status, 200);
  assert.equal(icon.headers['content-encoding'], undefined);
});

test('index.html names every file by its version; versioned URLs are kept a year, others revalidated', async () => {
  const page = await request('/', { headers: gzip });
  assert.equal(page.status, 200);
  assert.equal(page.headers['cache-control'], 'no-cache');
  const html = gunzipSync(page.body).toString('utf8');
  const app = html.match(/<script type="module" src="(js\/app\.js\?v=([0-9a-f]{16}))"><\/script>/);
  assert.ok(app, html);
  const style = html.match(/href="(css\/style\.css\?v=[0-9a-f]{16})"/);
  assert.ok(style, html);

  // The import map: every module and the verifier with its version, and the policy allows
  // exactly this inline script by its hash.
  const mapText = html.match(/<script type="importmap">([^<]*)<\/script>/)[1];
  const map = JSON.parse(mapText).imports;
  const onDisk = readFileSync(path.join(repoRoot, 'web-client', 'js', 'lobby.js'));
  const lobbyVersion = createHash('sha256').update(onDisk).digest('hex').slice(0, 16);
  assert.equal(map['/js/lobby.js'], `/js/lobby.js?v=${lobbyVersion}`);
  assert.equal(map['/js/app.js'], `/${app[1]}`);
  assert.match(map['/verify/verifier.wasm'] || '', /^\/verify\/verifier\.wasm\?v=[0-9a-f]{16}$/);
  const hash = createHash('sha256').update(mapText).digest('base64');
  assert.ok(page.headers['content-security-policy'].includes(`'sha256-${hash}'`), page.headers['content-security-policy']);
  assert.ok(!/'unsafe-inline'/.test(page.headers['content-security-policy'].match(/script-src[^;]*/)[0]));

  const versioned = await request(`/${app[1]}`, { headers: gzip });
  assert.equal(versioned.status, 200);
  assert.equal(versioned.headers['cache-control'], 'public, max-age=31536000, immutable');
  // An old version's URL gets today's file, and must not be kept.
  const stale = await request('/js/app.js?v=0123456789abcdef', { headers: gzip });
  assert.equal(stale.status, 200);
  assert.equal(stale.headers['cache-control'], 'no-cache');
  // The service worker and the page itself are always revalidated.
  const worker = await request('/sw.js', { headers: gzip });
  assert.equal(worker.headers['cache-control'], 'no-cache');
  assert.match(worker.headers.etag, /^"[0-9a-f]{16}(\.gz)?"$/);
});

test('large JSON answers without secrets are gzipped (a replay); answers with a token never are', async () => {
  // A finished game: Bob concedes after a few moves.
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  const row = bob.page.locator(`#open-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  await row.locator('button', { hasText: 'Join' }).click();
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await playUntil([alice, bob], (states) => states[0] && states[0].seq >= 10, { maxActions: 400, avoidBattle: true });
  await bob.page.evaluate(() => window.__viktoryGame.channel.act({ kind: 'concede' }));
  await waitForGameState(alice.page, (s) => s.view.phase === 'game_over');

  for (const what of ['replay', 'record']) {
    const plain = await request(`/api/games/${gameId}/${what}`);
    assert.equal(plain.status, 200, plain.body.toString());
    assert.equal(plain.headers['content-encoding'], undefined);
    const packed = await request(`/api/games/${gameId}/${what}`, { headers: gzip });
    assert.equal(packed.status, 200);
    assert.equal(packed.headers['content-encoding'], 'gzip', what);
    assert.equal(packed.headers.vary, 'Accept-Encoding');
    assert.equal(packed.headers['cache-control'], 'no-store');
    const text = gunzipSync(packed.body).toString('utf8');
    assert.deepEqual(JSON.parse(text), JSON.parse(plain.body.toString('utf8')));
    assert.ok(packed.body.length * 3 < plain.body.length, `${what}: ${packed.body.length} of ${plain.body.length} bytes`);
    console.log(`${what} of game ${gameId}: ${plain.body.length} B, gzipped ${packed.body.length} B`);
  }

  // A small answer is sent as it is.
  const small = await request(`/api/games/${gameId}`, { headers: gzip });
  assert.equal(small.status, 200);
  assert.ok(small.body.length < 1024);
  assert.equal(small.headers['content-encoding'], undefined);

  // A new player's token next to the name he chose (text an attacker could choose): never
  // compressed (BREACH), however long the answer.
  const name = 'x'.repeat(32);
  const session = await request('/api/session', { method: 'POST', headers: { ...gzip, 'Content-Type': 'application/json' }, body: JSON.stringify({ name }) });
  assert.equal(session.status, 200, session.body.toString());
  assert.equal(session.headers['content-encoding'], undefined);
  assert.equal(session.headers.vary, undefined);
  const { token } = JSON.parse(session.body.toString('utf8'));
  assert.match(token, /^[0-9a-f]{64}$/);
  const link = await request('/api/account/sign-in-link', { method: 'POST', headers: { ...gzip, Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body: '{}' });
  assert.equal(link.status, 200, link.body.toString());
  assert.equal(link.headers['content-encoding'], undefined);
  assert.match(JSON.parse(link.body.toString('utf8')).code, /^[0-9a-f]+$/);
});
