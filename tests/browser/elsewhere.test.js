// The game page's answer to game_elsewhere (web-client/js/elsewhere.js), without a browser:
// it follows a server's URL through the proxy's cookie, follows it again a few times after a
// pause when the same answer comes back at once (a server that just died, or nothing routes by
// the cookie), and then names the server; an answer that is not a URL is only named.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elsewhereStep, MAX_RETRIES, RETRY_DELAY_MS, RETRY_MS } from '../../web-client/js/elsewhere.js';

const now = 1_800_000_000_000;

test('a server URL is followed, once in a while per game', () => {
  assert.equal(elsewhereStep({ server: 'http://server2:8080', gameId: 7, now, lastFollowed: 0 }), 'follow');
  assert.equal(elsewhereStep({ server: 'https://b.example.org', gameId: 7, now, lastFollowed: now - 60_000 }), 'follow');
  // The page came back with the same answer: the named server just died (its lease still
  // runs) or the cookie did not route it. Loaded again a few times, then named.
  assert.equal(elsewhereStep({ server: 'http://server2:8080', gameId: 7, now, lastFollowed: now - 2_000 }), 'retry');
  assert.equal(elsewhereStep({ server: 'http://server2:8080', gameId: 7, now, lastFollowed: now - 2_000, retries: MAX_RETRIES - 1 }), 'retry');
  assert.equal(elsewhereStep({ server: 'http://server2:8080', gameId: 7, now, lastFollowed: now - 2_000, retries: MAX_RETRIES }), 'show');
  // The retries last longer than a lease's default term (10 s), which a takeover waits for.
  assert.ok(MAX_RETRIES * RETRY_DELAY_MS > 10_000);
  // Long after the last one, an answer is followed afresh.
  assert.equal(elsewhereStep({ server: 'http://server2:8080', gameId: 7, now, lastFollowed: now - RETRY_MS, retries: MAX_RETRIES }), 'follow');
});

test('what is not a plain http(s) URL is never put in a cookie', () => {
  for (const server of ['', 'javascript:alert(1)', 'http://a; path=/x', 'http://a b', undefined, 42]) {
    assert.equal(elsewhereStep({ server, gameId: 7, now, lastFollowed: 0 }), 'show', String(server));
  }
  assert.equal(elsewhereStep({ server: 'http://server2:8080', gameId: 0, now, lastFollowed: 0 }), 'show');
});
