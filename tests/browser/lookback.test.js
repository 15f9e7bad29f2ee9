// The look back on a finished game's replay page (js/lookback.js, GET /api/games/<id>/analysis):
// a game of two computers (heuristic against random) is played to its end; its replay shows
// "Analysing the game…" until the server's analysis is done, then the chart: one line per
// player in his seat colour, the largest falls marked; choosing one says what the computer
// would have played and moves the replay there. On a desktop and on a phone (390 px, no
// sideways scrolling), in English and in German.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { useTable, newPlayer, signIn, screenshotPath, sleep } from './lib/harness.js';

let table;
useTable(['Watcher'], (t) => (table = t), { signedIn: true });

async function request(player, type, payload) {
  const reply = await player.page.evaluate(
    ([type, payload]) => window.__viktory.conn.request(type, payload).then(({ seen }) => ({ seen }), (e) => ({ error: e.code || String(e) })),
    [type, payload],
  );
  assert.ok(!reply.error, `${type} ${JSON.stringify(payload)}: ${reply.error}`);
  return reply.seen;
}

async function getJson(target) {
  const response = await fetch(`${table.server.url}${target}`);
  return { status: response.status, body: await response.json() };
}

let gameId;

test('a running game has no look back; a finished one is analysed once', async () => {
  const [watcher] = table.players;
  const seen = await request(watcher, 'game.create', {
    seats: 2,
    play: false,
    computers: [
      { seat: 0, level: 'heuristic' },
      { seat: 1, level: 'random' },
    ],
  });
  gameId = seen.find((m) => m.type === 'game.created').game_id;
  // Watched, the game of computers plays on.
  await watcher.page.goto(`/#/game/${gameId}`);
  // Computers play fast: the game may be over already (then 202, its analysis begun, or 200).
  const early = await getJson(`/api/games/${gameId}/analysis`);
  if (early.status === 409) {
    assert.equal(early.body.error.code, 'game_running');
  } else {
    assert.ok([200, 202].includes(early.status), `unexpected ${early.status}`);
    assert.equal((await getJson(`/api/games/${gameId}`)).body.status, 'finished');
  }
  for (let i = 0; i < 600; i += 1) {
    const summary = await getJson(`/api/games/${gameId}`);
    if (summary.body.status === 'finished') break;
    await sleep(250);
  }
  assert.equal((await getJson(`/api/games/${gameId}`)).body.status, 'finished');
});

async function checkChart(page, name) {
  await page.goto(`/#/replay/${gameId}`);
  await page.waitForSelector('#lookback svg.lookback-chart', { timeout: 60000 });
  assert.equal(await page.locator('#lookback path.lookback-line').count(), 2, 'one line per player');
  const noSideways = await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1);
  assert.ok(noSideways, 'the page does not scroll sideways');
  const box = await page.locator('#lookback svg.lookback-chart').boundingBox();
  assert.ok(box.width >= 250, `the chart is wide enough to read (${box.width} px)`);
  const marks = await page.locator('#lookback circle.lookback-mark').count();
  assert.equal(marks, await page.locator('#lookback .lookback-drops button').count(), 'a mark per fall, and a button');
  if (marks > 0) {
    const before = await page.evaluate(() => window.__viktoryReplay.index);
    await page.locator('#lookback .lookback-drops button').first().click();
    await page.waitForSelector('#lookback-computer');
    assert.ok((await page.textContent('#lookback-computer')).length > 10);
    await page.waitForFunction((b) => window.__viktoryReplay.index !== b, before);
  }
  await page.locator('#lookback').scrollIntoViewIfNeeded();
  await page.screenshot({ path: screenshotPath(`lookback-${name}.png`), fullPage: false });
  return marks;
}

test('the replay shows the chart, pending first, and a fall moves the replay (desktop)', async () => {
  const [watcher] = table.players;
  await watcher.page.goto(`/#/replay/${gameId}`);
  // The analysis starts with the first request: the page says it is under way (or already
  // shows the chart, on a fast machine).
  await watcher.page.waitForSelector('#lookback-pending, #lookback svg', { timeout: 20000 });
  await checkChart(watcher.page, 'desktop');
  // Computed once: asked again, it is there at once.
  const again = await getJson(`/api/games/${gameId}/analysis`);
  assert.equal(again.status, 200);
  assert.equal(again.body.status, 'done');
  assert.equal(again.body.points[again.body.points.length - 1].final, true);
  assert.deepEqual(table.players[0].errors, []);
});

test('on a phone, in German', async () => {
  const phone = await newPlayer(table.browser, table.server, { viewport: { width: 390, height: 844 }, locale: 'de-DE', touch: true });
  await signIn(phone, 'Handy');
  await checkChart(phone.page, 'phone-de');
  assert.equal(await phone.page.textContent('#lookback h2'), 'Gewinnchancen');
  const text = await phone.page.textContent('#lookback');
  for (const english of ['Chances of winning', 'Where chances fell', 'The computer would', 'turn ']) {
    assert.ok(!text.includes(english), `no English left: ${english}`);
  }
  assert.match(text, /Zug \d+/);
  assert.deepEqual(phone.errors, []);
});
