// Issue 22 in the browser: the pages of players' records (docs/client.md, "Players' records"):
// a player's profile (#/player/<id>), the finished games (#/finished) with their filters and
// pages, the ladder (#/ladder), the privacy choice on the account page and the "rated" box of
// the create form.
//
// The finished games are real games on a real server: created and joined through each page's
// WebSocket, then conceded [5.1]. A game conceded in its first round does not count for the
// ratings (docs/server.md, "Unrated games"), so the rated ones are first given a position of
// Player Turn 3 (the scenario tool writes the snapshot of seq 0, as lib/harness.js's
// loadPosition does, for several games and one restart of the server).
//
// Alice, Bob and Dave play; Carol is a stranger with a German browser (she must see the pages
// in German, tested with the catalogs' telltales as tests/browser/i18n.test.js does).

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { launchBrowser, newPlayer, repoRoot, scenarioBinary, screenshotPath, signIn, startServer } from './lib/harness.js';

// Enough room for a few dozen games made in a few seconds (the default is 20 messages a second,
// and 12 reveal rounds an hour per player, 24 per address: docs/server.md, "Limits").
const SERVER_ARGS = ['--rate-limit', '400', '--reveal-rounds-per-hour', '1000'];

let server;
let browser;
let alice;
let bob;
let dave;
let carol;
const ids = {};

// A 2-player position at Player Turn 3: both players' first turns are over, so a concession
// now ends a game that counts [5.1].
const RATED_POSITION = {
  options: { players: 2 },
  phase: 'build',
  turn: 3,
  current: 0,
  hexes: {
    E3: { terrain: 'plains', town: 0, capital: 0 },
    E4: 'plains',
    E7: { terrain: 'plains', town: 1, capital: 1 },
  },
  units: ['0 infantry E3', '1 infantry E7'],
};

// One request through a page's connection: the messages it caused (or the error's code).
async function request(player, type, payload) {
  const reply = await player.page.evaluate(
    ([type, payload]) => window.__viktory.conn.request(type, payload).then(({ seen }) => ({ seen }), (e) => ({ error: e.code || String(e) })),
    [type, payload],
  );
  assert.ok(!reply.error, `${type} ${JSON.stringify(payload)}: ${reply.error}`);
  return reply.seen;
}

// A game of these players (the first creates it, the others join). It starts when full, once
// every seat's browser has revealed its contribution (docs/fair-play.md): wait for that.
async function newGame(players, options = {}) {
  const seen = await request(players[0], 'game.create', { seats: players.length, ...options });
  const gameId = seen.find((m) => m.type === 'game.created').game_id;
  for (const p of players.slice(1)) await request(p, 'game.join', { game_id: gameId });
  for (let i = 0; ; i += 1) {
    const { body } = await getJson(`/api/games/${gameId}`);
    if (body.status === 'running') break;
    assert.ok(i < 200, `game ${gameId} did not start: ${JSON.stringify(body.reveal)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return gameId;
}

const concede = (player, gameId) => request(player, 'game.action', { game_id: gameId, seq: 0, action: { kind: 'concede' } });

// A connection watches at most 16 games (docs/server.md, "Limits"): let go of a finished one.
async function unwatch(players, gameId) {
  for (const p of players) await p.page.evaluate((id) => window.__viktory.conn.sendRaw({ type: 'game.unwatch', game_id: id }), gameId);
}

async function getJson(target, token) {
  const response = await fetch(`${server.url}${target}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  return { status: response.status, body: await response.json() };
}

const tokenOf = (player) => player.page.evaluate(() => window.__viktory.ctx.session.token);
const idOf = (player) => player.page.evaluate(() => window.__viktory.ctx.session.player_id);

// Gives started games (seq 0) the rated position, with one restart of the server.
async function loadRatedPositions(gameIds) {
  const out = execFileSync(scenarioBinary(), ['-', '--compact'], { input: JSON.stringify(RATED_POSITION), encoding: 'utf8' });
  const text = JSON.stringify(JSON.parse(out).state).replaceAll("'", "''");
  await server.stop({ keepDir: true });
  const sql = gameIds.map((id) => `INSERT OR REPLACE INTO snapshots(game_id, seq, state) VALUES(${Number(id)}, 0, '${text}');`).join('\n');
  execFileSync('sqlite3', ['-bail', server.db], { input: sql, encoding: 'utf8' });
  server = await startServer({ port: server.port, dir: server.dir, args: SERVER_ARGS });
  for (const p of [alice, bob, dave, carol]) {
    await p.context.setOffline(true);
    await p.context.setOffline(false);
    await p.page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'online');
  }
}

// The telltales of English on a German page (see tests/browser/i18n.test.js).
const catalog = (lang) => JSON.parse(readFileSync(path.join(repoRoot, 'web-client', 'i18n', `${lang}.json`), 'utf8'));
const forms = (entry) => (typeof entry === 'object' ? Object.values(entry) : [entry]);
function englishTelltales() {
  const german = Object.values(catalog('de')).flatMap(forms);
  const pieces = new Set();
  for (const text of Object.values(catalog('en')).flatMap(forms)) {
    for (const piece of text.split(/\{\w+\}/)) {
      const trimmed = piece.trim();
      if (trimmed.length >= 8 && !german.some((o) => o.includes(trimmed))) pieces.add(trimmed);
    }
  }
  return [...pieces];
}
async function englishOn(page) {
  const text = await page.evaluate(() => document.body.innerText);
  return englishTelltales().filter((p) => text.includes(p));
}

async function noSidewaysScroll(page) {
  const { scroll, width } = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth }));
  assert.ok(scroll <= width, `the page scrolls sideways: ${scroll} > ${width}`);
}

before(async () => {
  server = await startServer({ args: SERVER_ARGS });
  browser = await launchBrowser();
  alice = await newPlayer(browser, server);
  bob = await newPlayer(browser, server);
  dave = await newPlayer(browser, server);
  carol = await newPlayer(browser, server, { locale: 'de-DE' });
  await signIn(alice, 'Alice');
  await signIn(bob, 'Bob');
  await signIn(dave, 'Dave');
  await signIn(carol, 'Carol');
  for (const [name, p] of Object.entries({ alice, bob, dave, carol })) ids[name] = await idOf(p);

  // Three rated 2-player games: Alice beats Bob twice, Dave beats Bob once.
  const rated = [await newGame([alice, bob]), await newGame([alice, bob]), await newGame([dave, bob])];
  await loadRatedPositions(rated);
  for (const id of rated) await concede(bob, id);
  for (const id of rated) await unwatch([alice, bob, dave], id);
  // Twenty 2-player games conceded in their first round (unrated): Alice concedes every fifth.
  for (let i = 0; i < 20; i += 1) {
    const id = await newGame([alice, bob]);
    await concede(i % 5 === 0 ? alice : bob, id);
    await unwatch([alice, bob], id);
  }
  // Two 3-player games: Bob and Dave concede, Alice wins.
  ids.threePlayer = [];
  for (let i = 0; i < 2; i += 1) {
    const id = await newGame([alice, bob, dave]);
    await concede(bob, id);
    await concede(dave, id);
    await unwatch([alice, bob, dave], id);
    ids.threePlayer.push(id);
  }
  ids.rated = rated;
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('the profile shows games played and won by player count and condition, the rating with its chart, recent games with links', async () => {
  const { page } = dave;
  await page.goto(`/#/player/${ids.alice}`);
  await page.waitForSelector('#profile-name');
  assert.equal(await page.textContent('#profile-name'), 'Alice');
  // 2 rated + 20 unrated (4 conceded by her) 2-player games, 2 3-player games won.
  assert.equal(await page.textContent('#profile-totals'), '24 games played, 20 won');
  const rows = (selector) => page.$$eval(`${selector} tbody tr`, (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
  assert.deepEqual(await rows('#profile-by-players'), [
    ['2 players', '22', '18'],
    ['3 players', '2', '2'],
  ]);
  const byVictory = await rows('#profile-by-victory');
  assert.equal(byVictory.reduce((sum, r) => sum + Number(r[1]), 0), 24);

  // Her 2-player rating, as the server has it, with its two changes on the chart.
  const profile = (await getJson(`/api/players/${ids.alice}`)).body;
  const two = profile.ratings.find((r) => r.players === 2);
  assert.ok(two.rating > 0, JSON.stringify(two));
  assert.equal(profile.ratings.length, 1, 'unrated games make no rating');
  const ratingRows = await rows('#profile-ratings');
  assert.equal(ratingRows.length, 1);
  assert.deepEqual(ratingRows[0].slice(0, 3), ['2 players', (Math.round(two.rating * 10) / 10).toFixed(1).replace(/\.0$/, ''), '2']);
  assert.equal(await page.locator('#profile-ratings .rating-chart circle').count(), 2);

  // Recent games: the newest ten, each with its replay, its record and the opponents' profiles.
  const recent = page.locator('#profile-recent .finished-row');
  assert.equal(await recent.count(), 10);
  const newest = recent.first();
  assert.equal(await newest.getAttribute('data-game-id'), String(ids.threePlayer[1]));
  assert.equal(await newest.locator('a.finished-open').getAttribute('href'), `#/replay/${ids.threePlayer[1]}`);
  assert.equal(await newest.locator('a[download]').getAttribute('href'), `/api/games/${ids.threePlayer[1]}/record`);
  assert.deepEqual(await newest.locator('a.player-name').evaluateAll((as) => as.map((a) => [a.textContent, a.getAttribute('href')])), [
    ['Bob', `#/player/${ids.bob}`],
    ['Dave', `#/player/${ids.dave}`],
  ]);
  assert.equal(await newest.locator('.finished-result').textContent(), 'won');
  assert.equal(await page.locator('.profile-actions').count(), 1, 'the place for the follow button');
  // Follow her from her profile (js/friends.js): the server keeps it, a reload shows it.
  const follow = page.locator('.profile-actions .follow-button');
  await follow.waitFor();
  assert.equal(await follow.getAttribute('aria-pressed'), 'false');
  await follow.click();
  await page.waitForSelector('.profile-actions .follow-button[aria-pressed="true"]');
  await page.reload();
  await page.waitForSelector('.profile-actions .follow-button[aria-pressed="true"]');
  await page.locator('.profile-actions .follow-button').click();
  await page.waitForSelector('.profile-actions .follow-button[aria-pressed="false"]');
  assert.doesNotMatch(await page.textContent('#profile'), /null|undefined|NaN/);
  await page.screenshot({ path: screenshotPath('records-profile.png'), fullPage: true });

  // A name links to that player's profile.
  await newest.locator('a.player-name', { hasText: 'Bob' }).click();
  await page.waitForFunction(() => document.getElementById('profile-name') && document.getElementById('profile-name')?.textContent === 'Bob');
  assert.equal(await page.textContent('#profile-totals'), '25 games played, 4 won');
});

test('privacy "nobody" hides the profile from a stranger, who is told so; the player still sees his own', async () => {
  await bob.page.goto('/#/account');
  await bob.page.waitForSelector('#privacy-visible-to:not([disabled])');
  assert.equal(await bob.page.inputValue('#privacy-visible-to'), 'everyone');
  const saved = bob.page.waitForResponse((r) => r.url().endsWith('/api/profile/privacy') && r.request().method() === 'POST');
  await bob.page.selectOption('#privacy-visible-to', 'nobody');
  assert.equal((await saved).status(), 200);
  await bob.page.reload();
  await bob.page.waitForSelector('#privacy-visible-to:not([disabled])');
  assert.equal(await bob.page.inputValue('#privacy-visible-to'), 'nobody', 'the account page shows the stored choice');
  assert.equal((await getJson('/api/profile/privacy', await tokenOf(bob))).body.visible_to, 'nobody');

  // Carol, a stranger (in German): a sentence, no profile.
  await carol.page.goto(`/#/player/${ids.bob}`);
  await carol.page.waitForSelector('#profile-message');
  assert.equal(await carol.page.textContent('#profile-message'), 'Dieser Spieler zeigt sein Profil nicht: Seine Partien und Zahlen kannst du nicht sehen.');
  assert.equal(await carol.page.locator('#profile-name').count(), 0);
  assert.deepEqual(await englishOn(carol.page), []);
  await carol.page.goto(`/#/finished?player=${ids.bob}`);
  await carol.page.waitForSelector('#finished-list .profile-hidden');
  assert.equal(await carol.page.locator('#finished-list .finished-row').count(), 0);

  // Bob himself still sees it, and whom it is shown to.
  await bob.page.goto(`/#/player/${ids.bob}`);
  await bob.page.waitForSelector('#profile-name');
  assert.equal(await bob.page.textContent('#profile-totals'), '25 games played, 4 won');
  assert.match(await bob.page.textContent('#profile-visibility'), /nobody/);
});

test('the finished list: tabs, a filter by player count, pages with the server cursor, rows open replays', async () => {
  const { page } = alice;
  const requested = [];
  page.on('request', (r) => {
    if (r.url().includes('/api/finished')) requested.push(new URL(r.url()).searchParams);
  });
  await page.goto('/#/');
  await page.click('#lobby-finished');
  await page.waitForSelector('#finished-list .finished-row');
  // "Mine" first: 24 of hers (the newest 20 on this page).
  assert.equal(requested.at(-1).get('player'), 'me');
  assert.equal(await page.locator('#finished-list .finished-row').count(), 20);
  assert.equal(await page.getAttribute('[data-tab="mine"]', 'aria-current'), 'page');

  await page.click('[data-tab="all"]');
  await page.waitForFunction(() => document.querySelector('[data-tab="all"]').getAttribute('aria-current') === 'page' && document.querySelectorAll('#finished-list .finished-row').length === 20);
  const firstPage = await page.$$eval('#finished-list .finished-row', (rows) => rows.map((r) => Number(r.dataset.gameId)));
  assert.deepEqual(firstPage, [...firstPage].sort((a, b) => b - a), 'newest first');
  assert.ok(await page.isDisabled('#finished-newer'));

  // Older: the server's cursor; 25 public games in all, so five on the second page.
  await page.click('#finished-older');
  await page.waitForFunction(() => document.querySelectorAll('#finished-list .finished-row').length === 5);
  assert.equal(requested.at(-1).get('before'), String(firstPage.at(-1)));
  const secondPage = await page.$$eval('#finished-list .finished-row', (rows) => rows.map((r) => Number(r.dataset.gameId)));
  assert.ok(Math.max(...secondPage) < Math.min(...firstPage));
  assert.deepEqual(secondPage.slice(-3), [...ids.rated].reverse(), 'the oldest games: the three rated ones');
  await page.click('#finished-newer');
  await page.waitForFunction((first) => document.querySelector('#finished-list .finished-row').dataset.gameId === String(first), firstPage[0]);
  assert.equal(await page.locator('#finished-list .finished-row').count(), 20);

  // Filters: 3-player games; rated games.
  await page.selectOption('#finished-players', '3');
  await page.waitForFunction(() => document.querySelectorAll('#finished-list .finished-row').length === 2);
  assert.equal(requested.at(-1).get('players'), '3');
  assert.equal(requested.at(-1).get('before'), null, 'a new filter starts at the newest');
  assert.deepEqual(await page.$$eval('#finished-list .finished-row', (rows) => rows.map((r) => Number(r.dataset.gameId))), [...ids.threePlayer].reverse());
  await page.selectOption('#finished-players', '');
  await page.selectOption('#finished-rated', 'true');
  await page.waitForFunction(() => document.querySelectorAll('#finished-list .finished-row').length === 3);
  assert.equal(await page.locator('#finished-list .tag-rated').count(), 3);
  await page.screenshot({ path: screenshotPath('records-finished.png'), fullPage: true });

  // A player's tab (from a profile), then a row opens the replay.
  await page.goto(`/#/finished?player=${ids.dave}`);
  await page.waitForFunction(() => document.querySelectorAll('#finished-list .finished-row').length === 3);
  // The tab says "A player's games" until the player's name has come (its own request).
  await page.waitForFunction(() => document.querySelector('[data-tab="player"]')?.textContent === 'Games of Dave');
  await page.locator('#finished-list .finished-row a.finished-open').first().click();
  await page.waitForFunction(() => /^#\/replay\/\d+$/.test(location.hash));
  assert.equal(page.url().split('#')[1], `/replay/${ids.threePlayer[1]}`);
});

test('the ladder: one per player count, best first, names link to profiles, a hidden player without his name', async () => {
  const ladder = (await getJson('/api/ladder?players=2', await tokenOf(carol))).body.entries;
  assert.equal(ladder.length, 3);
  const { page } = carol;
  await page.goto('/#/ladder');
  await page.waitForSelector('#ladder-table tbody tr');
  const rows = await page.$$eval('#ladder-table tbody tr', (trs) => trs.map((tr) => [...tr.children].map((c) => c.textContent.trim())));
  assert.deepEqual(
    rows.map((r) => r[0]),
    ['1', '2', '3'],
  );
  const ratings = ladder.map((e) => e.rating);
  assert.deepEqual(ratings, [...ratings].sort((a, b) => b - a));
  // Alice (two wins) over Dave (one) over Bob (three losses), Bob hidden from Carol.
  assert.deepEqual(
    rows.map((r) => r[1]),
    ['Alice', 'Dave', 'verborgener Spieler'],
  );
  assert.deepEqual(await page.$$eval('#ladder-table a.player-name', (as) => as.map((a) => a.getAttribute('href'))), [`#/player/${ids.alice}`, `#/player/${ids.dave}`]);
  assert.equal(await page.locator('#ladder-table tbody tr:nth-child(3) a').count(), 0);
  assert.deepEqual(await englishOn(page), []);
  await page.screenshot({ path: screenshotPath('records-ladder-de.png'), fullPage: true });

  // Another player count: nobody yet.
  await page.click('[data-players="3"]');
  await page.waitForFunction(() => location.hash === '#/ladder?players=3' && !document.querySelector('#ladder-table tbody tr'));
  await page.click('[data-players="2"]');
  await page.locator('#ladder-table a.player-name', { hasText: 'Alice' }).click();
  await page.waitForSelector('#profile-name');
  assert.equal(await page.textContent('#profile-name'), 'Alice');
  assert.deepEqual(await englishOn(page), []);
  await page.screenshot({ path: screenshotPath('records-profile-de.png'), fullPage: true });
});

test('the create form sends "rated"; a computer seat unchecks and disables it', async () => {
  const { page } = dave;
  const sent = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => sent.push(String(f.payload))));
  await page.goto('/#/');
  await page.reload(); // a fresh socket, so its sent frames are seen
  await page.waitForSelector('#create-form');
  await page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'online');
  assert.ok(await page.isChecked('#rated'));
  assert.ok(!(await page.isDisabled('#rated')));
  await page.selectOption('#seat-kind-1', 'heuristic');
  assert.ok(!(await page.isChecked('#rated')));
  assert.ok(await page.isDisabled('#rated'));
  assert.match(await page.textContent('#rated-help'), /computer/);
  await page.selectOption('#seat-kind-1', 'human');
  assert.ok(await page.isChecked('#rated'), 'back to a human: the box as it was');

  await page.uncheck('#rated');
  await page.click('#create-game');
  await page.waitForFunction(() => /^#\/game\/\d+$/.test(location.hash));
  const created = sent.map((text) => JSON.parse(text)).find((m) => m.type === 'game.create');
  assert.equal(created.rated, false);
  const gameId = Number(page.url().match(/#\/game\/(\d+)/)[1]);
  assert.equal((await getJson(`/api/games/${gameId}`)).body.rated, false);
  await page.goto('/#/');
});

// docs/ai.md, "Levels by rating": a player rated with two players reads his own rating and his
// chance against each computer level below the create form's seat choices.
test('a rated player sees his chance against each computer level and his rating', async () => {
  const { page } = alice;
  await page.goto('/#/');
  const help = page.locator('#computer-levels-help');
  await help.waitFor();
  const levels = (await getJson('/api/computer-levels', await tokenOf(alice))).body;
  const two = levels.yours.find((r) => r.players === 2);
  assert.ok(two && two.games === 2, JSON.stringify(levels.yours));
  // Her chances are in the line below the choices (a select is too narrow for them), in the
  // levels' order, each as the server computed it.
  const text = await help.textContent();
  const names = { random: 'Computer (random moves)', heuristic: 'Computer (fast)', search: 'Computer (strong)' };
  const chances = levels.levels.map((level) => {
    const chance = Math.round(level.your_chance * 100);
    assert.ok(chance > 0 && chance <= 100, JSON.stringify(level));
    return `${names[level.level]} ${level.bound === 'at_most' ? 'over' : '≈'} ${chance}%`;
  });
  assert.ok(text.endsWith(`Your rating with two players: ${Math.round(two.rating)} (2 games). Your chances: ${chances.join(', ')}.`), text);
  // The stronger the level, the smaller her chance.
  const byLevel = Object.fromEntries(levels.levels.map((l) => [l.level, l.your_chance]));
  assert.ok(byLevel.random > byLevel.heuristic && byLevel.heuristic > byLevel.search, JSON.stringify(byLevel));
  await page.screenshot({ path: screenshotPath('create-computer-levels-rated.png') });
  // A stranger (no token) gets the levels but no chances.
  const stranger = (await getJson('/api/computer-levels')).body;
  assert.equal(stranger.yours, null);
  assert.ok(stranger.levels.every((l) => !('your_chance' in l)));
});

test('phone width: the profile, the finished list and the ladder fit 390 px', async () => {
  const phone = await newPlayer(browser, server, { viewport: { width: 390, height: 844 }, touch: true });
  for (const [hash, ready, name] of [
    [`/#/player/${ids.alice}`, '#profile-name', 'records-profile-phone.png'],
    ['/#/finished?tab=all', '#finished-list .finished-row', 'records-finished-phone.png'],
    ['/#/ladder', '#ladder-table tbody tr', 'records-ladder-phone.png'],
  ]) {
    await phone.page.goto(hash);
    await phone.page.waitForSelector(ready);
    await noSidewaysScroll(phone.page);
    await phone.page.screenshot({ path: screenshotPath(name), fullPage: true });
  }
  await phone.context.close();
  for (const p of [alice, bob, carol, dave, phone]) assert.deepEqual(p.errors, [], 'no script errors');
});
