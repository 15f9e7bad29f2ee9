// The game page's answer to game_elsewhere (web-client/js/elsewhere.js), without a browser:
// it follows a server's URL through the proxy's cookie once, and names the server instead when
// the same answer comes back at once (nothing routes by the cookie) or the answer is not a URL.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { elsewhereStep } from '../../web-client/js/elsewhere.js';

const now = 1_800_000_000_000;

test('a server URL is followed, once in a while per game', () => {
  assert.equal(elsewhereStep({ server: 'http://server2:8080', gameId: 7, now, lastFollowed: 0 }), 'follow');
  assert.equal(elsewhereStep({ server: 'https://b.example.org', gameId: 7, now, lastFollowed: now - 60_000 }), 'follow');
  // The page came back with the same answer: the cookie did not route it.
  assert.equal(elsewhereStep({ server: 'http://server2:8080', gameId: 7, now, lastFollowed: now - 2_000 }), 'show');
});

test('what is not a plain http(s) URL is never put in a cookie', () => {
  for (const server of ['', 'javascript:alert(1)', 'http://a; path=/x', 'http://a b', undefined, 42]) {
    assert.equal(elsewhereStep({ server, gameId: 7, now, lastFollowed: 0 }), 'show', String(server));
  }
  assert.equal(elsewhereStep({ server: 'http://server2:8080', gameId: 0, now, lastFollowed: 0 }), 'show');
});
