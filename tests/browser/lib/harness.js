// Test harness: starts the real viktory-server on a free port with a temporary database,
// launches the system Chromium through playwright-core (never downloads a browser), and gives
// each simulated player his own browser context with every WebSocket frame recorded.

import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, existsSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { before, after } from 'node:test';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const repoRoot = path.resolve(here, '..', '..', '..');
// Screenshots go to tests/browser/test-output/screenshots (ignored by git) unless
// VIKTORY_SCREENSHOT_DIR names another folder: `npm run screenshots` refreshes docs/screenshots.
export const screenshotDir = process.env.VIKTORY_SCREENSHOT_DIR
  ? path.resolve(process.env.VIKTORY_SCREENSHOT_DIR)
  : path.join(repoRoot, 'tests', 'browser', 'test-output', 'screenshots');

export function serverBinary() {
  const configured = process.env.VIKTORY_SERVER_BIN || 'build/server/viktory-server';
  return path.isAbsolute(configured) ? configured : path.join(repoRoot, configured);
}

// Starts the server; port 0 lets it pick a free port, read back from its "listening on" line.
// Returns {url, port, pid, stop(), dir, db}.
// Servers started by this test file and not stopped yet (a test may restart its server, see
// loadPosition): useTable's teardown stops whatever is still running.
const runningServers = new Set();

// `args`: more command-line flags for the server (e.g. an SMTP relay).
export async function startServer({ port = 0, dir, args = [] } = {}) {
  const bin = serverBinary();
  if (!existsSync(bin)) {
    throw new Error(`server binary not found: ${bin} (build it, or set VIKTORY_SERVER_BIN)`);
  }
  const workDir = dir || mkdtempSync(path.join(tmpdir(), 'viktory-browser-'));
  const db = path.join(workDir, 'test.db');
  const child = spawn(
    bin,
    ['--port', String(port), '--bind', '127.0.0.1', '--db', db, '--web-root', path.join(repoRoot, 'web-client'), '--log-level', 'info', ...args],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const listening = new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk.toString();
      const m = output.match(/listening on [^\s:]+:(\d+)/);
      if (m) resolve(Number(m[1]));
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('exit', (code) => reject(new Error(`server exited early (code ${code}):\n${output}`)));
    setTimeout(() => reject(new Error(`server did not start in time:\n${output}`)), 15000);
  });
  const actualPort = await listening;
  const server = {
    url: `http://127.0.0.1:${actualPort}`,
    port: actualPort,
    pid: child.pid,
    dir: workDir,
    db,
    output: () => output,
    async stop({ keepDir = false } = {}) {
      runningServers.delete(server);
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        process.kill(child.pid, 'SIGTERM');
        const timer = setTimeout(() => {
          if (child.exitCode === null) process.kill(child.pid, 'SIGKILL');
        }, 5000);
        await exited;
        clearTimeout(timer);
      }
      if (!keepDir) rmSync(workDir, { recursive: true, force: true });
    },
  };
  runningServers.add(server);
  return server;
}

// The scenario tool: VIKTORY_SCENARIO_BIN, else next to the server binary's build tree
// (<build>/server/viktory-server -> <build>/protocol/viktory-scenario).
export function scenarioBinary() {
  const configured = process.env.VIKTORY_SCENARIO_BIN;
  if (configured) return path.isAbsolute(configured) ? configured : path.join(repoRoot, configured);
  return path.join(path.dirname(path.dirname(serverBinary())), 'protocol', 'viktory-scenario');
}

// Gives a game that has just started (seq 0, no action yet) a position written as a scenario
// (docs/scenario-format.md), so a test can start from a Frigate with cargo, a City about to
// fall, scripted dice...: the scenario tool turns the position into a game state, the server
// is stopped, the state is stored the way the server stores its own snapshots (the snapshot of
// seq 0) with the sqlite3 tool, and the server is started again on the same port and database.
// Pages reconnect by themselves and are sent the new position; the pages of `players` are
// told at once that the network is back (instead of waiting for their backoff). Returns the
// restarted server.
export async function loadPosition(server, gameId, scenario, players = []) {
  const bin = scenarioBinary();
  if (!existsSync(bin)) throw new Error(`scenario tool not found: ${bin} (build it, or set VIKTORY_SCENARIO_BIN)`);
  const out = execFileSync(bin, ['-', '--compact'], { input: JSON.stringify(scenario), encoding: 'utf8' });
  const state = JSON.parse(out).state;
  await server.stop({ keepDir: true });
  const sql = (q) => execFileSync('sqlite3', ['-bail', server.db], { input: q, encoding: 'utf8' });
  const actions = Number(sql(`SELECT COUNT(*) FROM actions WHERE game_id = ${Number(gameId)};`).trim());
  if (actions !== 0) throw new Error(`loadPosition: game ${gameId} already has ${actions} actions`);
  const text = JSON.stringify(state).replaceAll("'", "''");
  sql(`INSERT OR REPLACE INTO snapshots(game_id, seq, state) VALUES(${Number(gameId)}, 0, '${text}');`);
  const restarted = await startServer({ port: server.port, dir: server.dir });
  for (const p of players) {
    await p.context.setOffline(true);
    await p.context.setOffline(false);
  }
  return restarted;
}

export const browserArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

export async function launchBrowser() {
  return chromium.launch({ executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium', args: browserArgs });
}

// A player: his own context (own localStorage = own session), a page, and all WebSocket frames
// the page received, parsed. `touch`: a touch screen without a mouse (a phone); `timezoneId`:
// the browser's time zone; `locale`: the browser's language (English unless a test asks for
// another: the page speaks the browser's language, js/i18n.js).
export async function newPlayer(browser, server, { viewport = { width: 1400, height: 900 }, touch = false, timezoneId, locale = 'en-US' } = {}) {
  const context = await browser.newContext({ viewport, baseURL: server.url, locale, ...(touch ? { hasTouch: true, isMobile: true } : {}), ...(timezoneId ? { timezoneId } : {}) });
  const page = await context.newPage();
  const player = { context, page, frames: [], rawFrames: [], errors: [] };
  page.on('websocket', (ws) => {
    ws.on('framereceived', (frame) => {
      const text = typeof frame.payload === 'string' ? frame.payload : frame.payload.toString('utf8');
      player.rawFrames.push(text);
      try {
        player.frames.push(JSON.parse(text));
      } catch {
        // not JSON: kept raw only
      }
    });
  });
  page.on('pageerror', (err) => player.errors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !/Failed to load resource|WebSocket/.test(msg.text())) player.errors.push(msg.text());
  });
  return player;
}

export function ensureScreenshotDir() {
  mkdirSync(screenshotDir, { recursive: true });
  return screenshotDir;
}

export function screenshotPath(name) {
  return path.join(ensureScreenshotDir(), name);
}

// The usual table of a test file: before its tests, a server, a browser and one page per name
// (signed in under that name when `signedIn`); after them, the browser and every server still
// running (also one a test restarted) are closed. `onReady` gets { server, browser, players }
// once everything is up.
export function useTable(names, onReady, { signedIn = false } = {}) {
  let server;
  let browser;
  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const players = [];
    for (const name of names) players.push(await newPlayer(browser, server));
    if (signedIn) {
      for (let i = 0; i < names.length; i += 1) await signIn(players[i], names[i]);
    }
    onReady({ server, browser, players });
  });
  after(async () => {
    if (browser) await browser.close();
    for (const running of [...runningServers]) await running.stop();
  });
}

// Signs in through the name form.
export async function signIn(player, name) {
  const { page } = player;
  await page.goto('/');
  await page.fill('#name', name);
  await page.click('form.welcome-form button[type=submit]');
  await page.waitForSelector('#create-form');
  await page.waitForFunction(() => document.getElementById('conn-status').dataset.status === 'online');
}

// The state the game page currently holds (what the server sent it).
export async function gameState(page) {
  return page.evaluate(() => {
    const g = window.__viktoryGame;
    return g && g.state ? JSON.parse(JSON.stringify(g.state)) : null;
  });
}

// Waits until predicate(state, arg) holds for the page's game state. Polls from the test side:
// the page's Content-Security-Policy rightly forbids compiling code inside the page.
export async function waitForGameState(page, predicate, arg, timeout = 15000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const state = await gameState(page);
    if (state && predicate(state, arg)) return state;
    if (Date.now() > deadline) {
      throw new Error(`waitForGameState timed out: ${predicate.toString()} (seq ${state ? state.seq : 'none'})`);
    }
    await sleep(40);
  }
}

// Clicks the centre of a hex on the map like a player would.
export async function clickHex(page, hex) {
  const point = await page.evaluate((h) => window.__viktoryGame.board.hexScreenPoint(h), hex);
  if (!point) throw new Error(`hex ${hex} is not on the map`);
  await page.mouse.click(point.x, point.y);
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
