// Fair play in the browser against the real server (docs/fair-play.md): each browser commits to
// a contribution when it takes its seat and reveals it when the seats are final; the game page
// shows the commitment the server published and keeps the player's witness; once the game is over
// (here by a concession) the record downloads from the game page, and the replay page checks
// it with verifier.wasm (and the witness) when asked: verified. A record that was tampered with (served
// in place of the server's, or chosen as a file) fails with the reason in words.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { waitForGameState, screenshotPath, useTable } from './lib/harness.js';
import { playUntil } from './lib/bot.js';

let server;
let browser;
let alice;
let bob;

useTable(
  ['Alice', 'Bob'],
  (table) => {
    ({ server, browser } = table);
    [alice, bob] = table.players;
  }, { signedIn: true },
);

const verdict = async (page) => {
  await page.waitForSelector('#verify-status[data-verdict]', { timeout: 30000 });
  return { kind: await page.getAttribute('#verify-status', 'data-verdict'), text: await page.textContent('#verify-verdict') };
};

test('a finished game: commitment shown, record downloaded, verified on the replay page; tampered records fail', async () => {
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  const row = bob.page.locator(`#open-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  await row.locator('button', { hasText: 'Join' }).click();
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');

  // The commitment on the page is the one the server publishes.
  const summary = await (await fetch(`${server.url}/api/games/${gameId}`)).json();
  assert.match(summary.commitment, /^[0-9a-f]{64}$/);
  await alice.page.waitForSelector('#fair-commitment', { state: 'attached' }); // in the closed panel
  assert.equal(await alice.page.getAttribute('#fair-commitment', 'data-commitment'), summary.commitment);

  await playUntil([alice, bob], (states) => states[0] && states[0].seq >= 10, { maxActions: 60, avoidBattle: true });
  const early = await fetch(`${server.url}/api/games/${gameId}/record`);
  assert.equal(early.status, 409, 'no record before the end');

  // Bob concedes: the game is over, the secret is revealed, the record can be downloaded.
  await bob.page.evaluate(() => window.__viktoryGame.channel.act({ kind: 'concede' }));
  await waitForGameState(alice.page, (s) => s.view.phase === 'game_over');
  await alice.page.waitForSelector('dialog.game-over');
  await alice.page.click('dialog.game-over .btn-plain');
  await alice.page.waitForSelector('#fair-revealed');
  await alice.page.locator('#fair-play').screenshot({ path: screenshotPath('fair-play-panel.png') });
  const reveal = alice.frames.find((f) => f.type === 'game.reveal');
  assert.ok(reveal, 'the page received game.reveal');
  const [download] = await Promise.all([alice.page.waitForEvent('download'), alice.page.click('#fair-play #download-record')]);
  assert.equal(download.suggestedFilename(), `viktory-game-${gameId}.json`);
  const recordText = readFileSync(await download.path(), 'utf8');
  const record = JSON.parse(recordText);
  assert.equal(record.format, 'viktory-game-record');
  assert.equal(record.game_id, gameId);
  assert.equal(record.commitment, summary.commitment);
  assert.equal(record.reveal.secret, reveal.secret);
  assert.equal(record.actions.at(-1).action.kind, 'concede');

  // Both browsers contributed: each seat's commitment was published, its contribution revealed
  // when the seats were final, and the record carries both.
  for (const seat of record.seats) {
    assert.match(seat.contribution_commitment, /^[0-9a-f]{64}$/);
    assert.match(seat.contribution, /^[0-9a-f]{64}$/);
  }
  assert.equal(summary.seats[1].contribution_commitment, record.seats[1].contribution_commitment);
  // No contribution reached the other player's page while the game ran.
  assert.ok(!alice.frames.some((f) => f.type !== 'game.reveal' && JSON.stringify(f).includes(record.seats[1].contribution)), "Bob's contribution reached Alice");
  assert.ok(!bob.frames.some((f) => f.type !== 'game.reveal' && JSON.stringify(f).includes(record.seats[0].contribution)), "Alice's contribution reached Bob");

  // What Alice's page kept of the game: the commitments it saw and its own contribution too.
  const witness = JSON.parse(await alice.page.evaluate((id) => localStorage.getItem(`viktory.witness.${id}`), gameId));
  assert.equal(witness.commitment, summary.commitment);
  assert.equal(witness.seat, 0);
  assert.equal(witness.contribution, record.seats[0].contribution);
  assert.deepEqual(witness.contribution_commitments, record.seats.map((s) => s.contribution_commitment));
  assert.ok(witness.seen.length > 0, 'the witness noted dice or tiles');

  // The page itself may compile no WebAssembly; only the verifier's worker script may.
  const pagePolicy = (await fetch(`${server.url}/`)).headers.get('content-security-policy');
  assert.ok(pagePolicy && !pagePolicy.includes('wasm-unsafe-eval'), pagePolicy);
  assert.match((await fetch(`${server.url}/js/verify_worker.js`)).headers.get('content-security-policy'), /script-src 'self' 'wasm-unsafe-eval'/);

  // The worker hashes contributions with the WebAssembly module (plain HTTP has no WebCrypto):
  // the same commitment as SHA-256("viktory contribution v1\0" || contribution).
  const zeros = await alice.page.evaluate(async () => (await import('/js/fair_worker.js')).commitmentInWorker(new Uint8Array(32).fill(7)));
  const expected = createHash('sha256').update(Buffer.concat([Buffer.from('viktory contribution v1\0'), Buffer.alloc(32, 7)])).digest('hex');
  assert.equal(zeros, expected);

  // The replay page checks the record, with the witness: verified (in the worker).
  await alice.page.goto(`/#/replay/${gameId}`);
  // The verifier is loaded when the check is asked for, not with the page.
  await alice.page.waitForSelector('#verify-record');
  assert.equal(await alice.page.evaluate(() => performance.getEntriesByType('resource').some((r) => r.name.includes('verifier.wasm'))), false, 'no verifier before the check');
  await alice.page.click('#verify-record');
  const good = await verdict(alice.page);
  assert.equal(good.kind, 'verified', good.text);
  assert.match(good.text, /verified: \d+ actions/);
  assert.match(good.text, /matches what your client saw/);
  await alice.page.screenshot({ path: screenshotPath('replay-verified.png') });
  assert.deepEqual(alice.errors, []);

  // A record with another start tile, served in place of the server's: not verified, and why.
  const tampered = JSON.parse(recordText);
  const tile = tampered.setup.tiles[0];
  tile.terrain = tile.terrain === 'water' ? 'plains' : 'water';
  await bob.page.route(`**/api/games/${gameId}/record`, (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(tampered) }));
  await bob.page.goto('about:blank'); // a fresh page: the game-over dialog is not in the way
  await bob.page.goto(`/#/replay/${gameId}`);
  await bob.page.click('#verify-record');
  const bad = await verdict(bob.page);
  assert.equal(bad.kind, 'failed', bad.text);
  assert.match(bad.text, /NOT verified/);
  assert.match(bad.text, /setup: the record says /);

  // A record file with another secret, chosen on Alice's replay page.
  const forged = JSON.parse(recordText);
  forged.reveal.secret = `${forged.reveal.secret[0] === '0' ? '1' : '0'}${forged.reveal.secret.slice(1)}`;
  await alice.page.setInputFiles('#verify-file', { name: 'forged.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(forged)) });
  await alice.page.waitForFunction(() => document.getElementById('verify-status').dataset.verdict === 'failed');
  assert.match(await alice.page.textContent('#verify-verdict'), /the revealed secret and salt do not match the commitment/);
});

test('the start waits for every seat to confirm the dice; a browser that lost its contribution says so and leaves; the others commit afresh', async () => {
  for (const p of [alice, bob]) {
    await p.page.goto('about:blank');
    await p.page.goto('/#/');
  }
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  const commitmentOf = (page, seat) => page.evaluate((s) => window.__viktoryGame.seats && window.__viktoryGame.seats.seats[s].contribution_commitment, seat);
  await alice.page.waitForFunction(() => /^[0-9a-f]{64}$/.test(window.__viktoryGame.seats.seats[0].contribution_commitment || ''));
  const first = await commitmentOf(alice.page, 0);

  // Bob's browser keeps no contribution (as if he had joined on another device).
  await bob.page.evaluate(() => {
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function keep(key, value) {
      if (String(key).startsWith('viktory.contribution.')) return undefined;
      return setItem.call(this, key, value);
    };
  });
  const row = bob.page.locator(`#open-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  await row.locator('button', { hasText: 'Join' }).click();
  await bob.page.waitForSelector('#contribution-lost');
  // Alice's page: the game waits for Bob's confirmation, which never comes.
  await alice.page.waitForFunction(() => /1 player to confirm the dice/.test(document.getElementById('waiting-status').textContent));
  assert.match(await alice.page.textContent('#waiting .seat-list li[data-seat="1"]'), /confirming the dice/);
  assert.match(await alice.page.textContent('#waiting .seat-list li[data-seat="0"]'), /dice confirmed/);
  assert.equal(await alice.page.locator('#start-game').count(), 0, 'the seats are final meanwhile');
  const summary = await (await fetch(`${server.url}/api/games/${gameId}`)).json();
  assert.equal(summary.status, 'open');
  assert.equal(summary.reveal.waiting, 1);
  await alice.page.screenshot({ path: screenshotPath('fair-play-waiting.png') });
  await bob.page.screenshot({ path: screenshotPath('fair-play-lost.png') });

  // Bob leaves: the round ends, Alice's revealed contribution is thrown away and her browser
  // commits to a new one by itself.
  await bob.page.click('#leave-lost-seat');
  await alice.page.waitForFunction((old) => {
    const seats = window.__viktoryGame.seats;
    return !seats.reveal && !seats.seats[1].player_id && /^[0-9a-f]{64}$/.test(seats.seats[0].contribution_commitment || '') && seats.seats[0].contribution_commitment !== old;
  }, first);
  assert.match(await alice.page.textContent('#waiting-status'), /Waiting for players/);
  assert.deepEqual(alice.errors, []);
});
