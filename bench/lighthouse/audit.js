// Lighthouse on every page of the web client against a real server (docs/performance.md,
// "Client: first load, repeat visit, Lighthouse"), mobile (Lighthouse's simulated phone) and
// desktop, plus the bytes of a first load and of a returning visit, counted with the DevTools
// protocol. Heavy, so not part of CI.
//
//   cd bench/lighthouse && npm ci && (cd ../../tests/browser && npm ci)
//   VIKTORY_SERVER_BIN=build/server/viktory-server node audit.js [--web-root DIR] [--runs N]
//
// The pages: the name form (a browser without a session), the lobby, a game (both players
// seated, setup), a finished game's replay, the account page. The session of the player whose
// pages are measured is kept between runs (Lighthouse's storage reset is off); the HTTP cache,
// the service worker and its caches are cleared before each run, so each run is a first load.

import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { chromium } from '../../tests/browser/node_modules/playwright-core/index.mjs';
import { startServer, launchBrowser, newPlayer, signIn, waitForGameState, repoRoot } from '../../tests/browser/lib/harness.js';
import { playUntil } from '../../tests/browser/lib/bot.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const webRoot = path.resolve(option('--web-root', path.join(repoRoot, 'web-client')));
const runs = Number(option('--runs', '1'));
const chromeFlags = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];

// Bytes the page at `url` downloads (headers and bodies as sent, compressed), counted from
// Network.loadingFinished and WebSocket frames, in a new tab of `context`.
async function countBytes(context, url, { settle = 2500 } = {}) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let http = 0;
  let requests = 0;
  let fromCache = 0;
  let ws = 0;
  cdp.on('Network.loadingFinished', (e) => {
    http += e.encodedDataLength;
    requests += 1;
  });
  cdp.on('Network.requestServedFromCache', () => {
    fromCache += 1;
  });
  cdp.on('Network.webSocketFrameReceived', (e) => {
    ws += Buffer.byteLength(e.response.payloadData);
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(settle);
  await cdp.detach();
  await page.close();
  return { http, requests, fromCache, ws };
}

async function clearCache(context, origins) {
  const page = context.pages()[0] || (await context.newPage());
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.clearBrowserCache');
  for (const origin of origins) {
    await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'cache_storage,service_workers' });
  }
  await cdp.detach();
}

async function main() {
  const server = await startServer({ args: ['--web-root', webRoot] });
  const other = `http://localhost:${server.port}`; // another origin: a browser without a session
  const chrome = await chromeLauncher.launch({ chromePath: process.env.CHROME_PATH || '/usr/bin/chromium', chromeFlags });
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
  const context = browser.contexts()[0];
  const helper = await launchBrowser();
  try {
    // Alice (measured) and Bob (in a browser of his own) play one game to its end (Bob concedes),
    // then start another that stays in its setup.
    const alicePage = await context.newPage();
    const alice = { context, page: alicePage, frames: [], rawFrames: [], errors: [] };
    // The harness's signIn, with a whole URL (this context has no base URL).
    await alicePage.goto(`${server.url}/`);
    await alicePage.fill('#name', 'Alice');
    await alicePage.click('form.welcome-form button[type=submit]');
    await alicePage.waitForSelector('#create-form');
    const bob = await newPlayer(helper, server);
    await signIn(bob, 'Bob');
    const startGame = async () => {
      await alicePage.click('#create-game');
      await alicePage.waitForSelector('#waiting .seat-list');
      const gameId = Number(alicePage.url().match(/#\/game\/(\d+)/)[1]);
      await bob.page.goto('about:blank'); // a fresh page: no game-over dialog in the way
      await bob.page.goto(`${server.url}/#/game/${gameId}`);
      await bob.page.click('#join-game');
      await waitForGameState(alicePage, (s) => s.view.phase === 'setup');
      return gameId;
    };
    const finished = await startGame();
    await playUntil([alice, bob], (states) => states[0] && states[0].seq >= 10, { maxActions: 60, avoidBattle: true });
    await bob.page.evaluate(() => window.__viktoryGame.channel.act({ kind: 'concede' }));
    await waitForGameState(alicePage, (s) => s.view.phase === 'game_over');
    await alicePage.goto('about:blank');
    await alicePage.goto(`${server.url}/#/`);
    const playing = await startGame();
    await alicePage.goto('about:blank');

    const pages = [
      ['name form', `${other}/`],
      ['lobby', `${server.url}/#/`],
      ['game', `${server.url}/#/game/${playing}`],
      ['replay', `${server.url}/#/replay/${finished}`],
      ['account', `${server.url}/#/account`],
    ];
    const origins = [server.url, other];
    const rows = [];
    for (const [name, url] of pages) {
      await clearCache(context, origins);
      const first = await countBytes(context, url);
      const repeat = await countBytes(context, url);
      const row = { page: name, firstLoad: first, repeatVisit: repeat };
      for (const formFactor of ['mobile', 'desktop']) {
        const scores = [];
        for (let run = 0; run < runs; run += 1) {
          await clearCache(context, origins);
          const result = await lighthouse(
            url,
            { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: true, onlyCategories: ['performance', 'accessibility', 'best-practices'] },
            formFactor === 'desktop' ? desktopConfig : undefined,
          );
          const lhr = result.lhr;
          const audit = (id) => lhr.audits[id] && lhr.audits[id].numericValue;
          scores.push({
            performance: Math.round(lhr.categories.performance.score * 100),
            accessibility: Math.round(lhr.categories.accessibility.score * 100),
            bestPractices: Math.round(lhr.categories['best-practices'].score * 100),
            lcpMs: Math.round(audit('largest-contentful-paint')),
            fcpMs: Math.round(audit('first-contentful-paint')),
            tbtMs: Math.round(audit('total-blocking-time')),
            cls: Number((audit('cumulative-layout-shift') || 0).toFixed(3)),
            bytes: Math.round(audit('total-byte-weight')),
            requests: (lhr.audits['network-requests'].details.items || []).length,
            failed: Object.values(lhr.audits)
              .filter((a) => a.score !== null && a.score < 1 && ['accessibility', 'best-practices'].some((c) => lhr.categories[c].auditRefs.some((r) => r.id === a.id && r.weight > 0)))
              .map((a) => a.id),
          });
        }
        // The median run by performance score.
        scores.sort((a, b) => a.performance - b.performance);
        row[formFactor] = scores[Math.floor(scores.length / 2)];
      }
      rows.push(row);
      console.log(JSON.stringify(row));
    }
    console.log('\n| page | first load (bytes, requests) | repeat visit HTTP (bytes, requests, from cache) | repeat WS bytes | mobile perf | LCP | CLS | TBT | desktop perf | a11y | best practices |');
    console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
    for (const r of rows) {
      const m = r.mobile;
      const d = r.desktop;
      console.log(
        `| ${r.page} | ${(r.firstLoad.http / 1024).toFixed(1)} KiB, ${r.firstLoad.requests} | ${(r.repeatVisit.http / 1024).toFixed(1)} KiB, ${r.repeatVisit.requests}, ${r.repeatVisit.fromCache} | ${(r.repeatVisit.ws / 1024).toFixed(1)} KiB | ${m.performance} | ${(m.lcpMs / 1000).toFixed(1)} s | ${m.cls} | ${m.tbtMs} ms | ${d.performance} | ${m.accessibility} | ${m.bestPractices} |`,
      );
    }
  } finally {
    await helper.close();
    await browser.close().catch(() => {});
    await chrome.kill();
    await server.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
