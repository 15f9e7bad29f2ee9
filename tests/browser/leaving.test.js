// Leaving (docs/server.md, "Leaving"): Alice downloads her data from the account page, then
// deletes her account with her typed name: her browser forgets the session and shows the
// welcome; Bob's replay of their finished game shows her seat as "a former player" and the
// game's record still verifies on the replay page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { waitForGameState, screenshotPath, useTable } from './lib/harness.js';
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

test('download my data, delete my account; the other player sees a former player in the replay', async () => {
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  const row = bob.page.locator(`#open-games [data-game-id="${gameId}"]`);
  await row.waitFor();
  await row.locator('button', { hasText: 'Join' }).click();
  await waitForGameState(alice.page, (s) => s.view.phase === 'setup');
  await playUntil([alice, bob], (states) => states[0] && states[0].seq >= 6, { maxActions: 40, avoidBattle: true });
  await alice.page.fill('#chat-input', 'good game, Bob');
  await alice.page.press('#chat-input', 'Enter');
  await bob.page.waitForSelector('#chat li');
  await bob.page.evaluate(() => window.__viktoryGame.channel.act({ kind: 'concede' }));
  await waitForGameState(alice.page, (s) => s.view.phase === 'game_over');

  // Download my data: a file with her game and her chat line.
  await alice.page.goto('/#/account');
  await alice.page.waitForSelector('#leaving #download-data');
  const [download] = await Promise.all([alice.page.waitForEvent('download'), alice.page.click('#download-data')]);
  assert.match(download.suggestedFilename(), /^viktory-account-\d+\.json$/);
  const data = JSON.parse(readFileSync(await download.path(), 'utf8'));
  assert.equal(data.account.name, 'Alice');
  assert.deepEqual(data.games.map((g) => g.game_id), [gameId]);
  assert.deepEqual(data.chat.map((c) => c.text), ['good game, Bob']);
  await alice.page.locator('#leaving').screenshot({ path: screenshotPath('leaving-section.png') });

  // A wrong name is refused with the catalog's words; the right one deletes.
  await alice.page.fill('#delete-confirm', 'alice');
  await alice.page.click('#delete-account');
  await alice.page.waitForSelector('#leaving-error:not(:empty)');
  assert.match(await alice.page.textContent('#leaving-error'), /Type your name exactly/);
  await alice.page.fill('#delete-confirm', 'Alice');
  await alice.page.click('#delete-account');
  await alice.page.waitForSelector('form.welcome-form #name');
  assert.equal(await alice.page.evaluate(() => localStorage.getItem('viktory.session')), null);

  // Bob's replay: Alice's seat is a former player's; the record verifies.
  await bob.page.goto('about:blank');
  await bob.page.goto(`/#/replay/${gameId}`);
  await bob.page.waitForSelector('#verify-record');
  await bob.page.waitForFunction(() => /a former player/.test(document.body.textContent));
  assert.doesNotMatch(await bob.page.textContent('body'), /Alice/);
  await bob.page.click('#verify-record');
  await bob.page.waitForSelector('#verify-status[data-verdict]', { timeout: 30000 });
  assert.equal(await bob.page.getAttribute('#verify-status', 'data-verdict'), 'verified', await bob.page.textContent('#verify-verdict'));
  await bob.page.screenshot({ path: screenshotPath('leaving-replay.png') });

  // His game page: the players panel and the chat say so too.
  await bob.page.goto('about:blank');
  await bob.page.goto(`/#/game/${gameId}`);
  await bob.page.waitForSelector('#chat li');
  await bob.page.waitForFunction(() => /a former player/.test(document.getElementById('chat')?.textContent));
  assert.match(await bob.page.textContent('#chat'), /\(deleted\)/);
  assert.doesNotMatch(await bob.page.textContent('#chat'), /good game/);
  await bob.page.screenshot({ path: screenshotPath('leaving-game.png') });
  const summary = await (await fetch(`${server.url}/api/games/${gameId}`)).json();
  assert.equal(summary.seats[0].former, true);
  assert.deepEqual(alice.errors.filter((e) => !/401|auth/.test(e)), []);
  assert.deepEqual(bob.errors, []);
});
