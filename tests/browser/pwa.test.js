// Coming back is instant, and the game installs like an app (docs/client.md, "Installing and
// coming back"): a returning browser downloads a few KB (its versioned files stay in its cache,
// the rest answers 304), Chromium's own installability check passes (web app manifest, icons,
// service worker), the service worker shows the offline page without a network, and the pages
// honour reduced motion, show a focus ring that stands out, keep their layout still while the
// account page loads, and each has a heading and a title of its own.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { useTable, newPlayer, signIn, browserArgs } from './lib/harness.js';

let server;
let browser;
let alice;

useTable(
  ['Alice'],
  (table) => {
    ({ server, browser } = table);
    [alice] = table.players;
  },
  { signedIn: true },
);

// What a new tab of `context` downloads to show `url`: HTTP (headers and bodies as they came
// over the wire, compressed) and WebSocket frames, counted with the DevTools protocol.
async function downloads(context, url, settleMs = 1500) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const counts = { http: 0, ws: 0, responses: [] };
  const urls = new Map();
  cdp.on('Network.responseReceived', (e) => urls.set(e.requestId, `${e.response.status} ${e.response.url.replace(server.url, '')}`));
  cdp.on('Network.loadingFinished', (e) => {
    counts.http += e.encodedDataLength;
    counts.responses.push(`${urls.get(e.requestId)}: ${e.encodedDataLength}`);
  });
  cdp.on('Network.webSocketFrameReceived', (e) => {
    counts.ws += Buffer.byteLength(e.response.payloadData);
  });
  await page.goto(url, { waitUntil: 'load' });
  await page.waitForTimeout(settleMs);
  await cdp.detach();
  return { page, ...counts };
}

async function workerReady(page) {
  return page.evaluate(async () => {
    const registration = await navigator.serviceWorker.ready;
    return registration.active ? registration.active.state : null;
  });
}

test('a returning browser downloads under 20 KB: versioned files from its cache, the rest 304', async () => {
  // Twice: as a player's browser is (with the service worker, which hands navigations to the
  // network through navigation preload, out of the page's sight), and without a worker, where
  // the page's own events see every request, the document's too.
  for (const serviceWorkers of ['allow', 'block']) {
    const context = await browser.newContext({ baseURL: server.url, serviceWorkers, locale: 'en-US' });
    const player = { context, page: await context.newPage() };
    await signIn(player, `Back ${serviceWorkers}`);
    await player.page.close();
    const first = await downloads(context, '/#/');
    await first.page.waitForSelector('#create-form');
    if (serviceWorkers === 'allow') assert.equal(await workerReady(first.page), 'activated');
    await first.page.close();

    const again = await downloads(context, '/#/');
    await again.page.waitForSelector('#create-form');
    const detail = `${again.http} bytes of HTTP, ${again.ws} of WebSocket:\n${again.responses.join('\n')}`;
    assert.ok(again.http + again.ws < 20 * 1024, `the lobby again (${serviceWorkers}): ${detail}`);
    // Nothing the cache holds came again: no module, no style sheet, no icon has a body.
    assert.ok(!again.responses.some((r) => /^200 \/(js|css|icons)\/.*: [1-9]\d{2,}$/.test(r)), detail);
    if (serviceWorkers === 'block') {
      // The page itself was asked again and came as a 304: headers only (DevTools reports the
      // cached copy's 200).
      const document = again.responses.find((r) => /^200 \/: /.test(r));
      assert.ok(document && Number(document.split(': ')[1]) < 1024, `the page is revalidated: ${detail}`);
    }
    console.log(`repeat visit of the lobby (service workers ${serviceWorkers}): ${again.http} B HTTP + ${again.ws} B WebSocket`);
    await again.page.close();
    await context.close();
  }
});

test("Chromium's installability check passes: manifest with 192 and 512 px icons (and maskable), service worker", async () => {
  // A browser with a profile on disk: Chromium installs nothing from an incognito context, which
  // every other test's context is.
  const profile = mkdtempSync(path.join(tmpdir(), 'viktory-profile-'));
  const installer = await chromium.launchPersistentContext(profile, { executablePath: process.env.CHROMIUM_BIN || '/usr/bin/chromium', args: browserArgs, baseURL: server.url });
  try {
    await checkInstallable(installer);
  } finally {
    await installer.close();
    rmSync(profile, { recursive: true, force: true });
  }
});

async function checkInstallable(context) {
  const page = await context.newPage();
  await page.goto('/');
  await page.fill('#name', 'Installer');
  await page.click('form.welcome-form button[type=submit]');
  await page.waitForSelector('#create-form');
  assert.equal(await workerReady(page), 'activated');
  const href = await page.getAttribute('link[rel=manifest]', 'href');
  assert.match(href, /^manifest\.webmanifest\?v=[0-9a-f]{16}$/);
  const manifestUrl = new URL(href, server.url);
  const manifest = await (await fetch(manifestUrl)).json();
  assert.equal(manifest.name, 'VIKTORY II');
  assert.ok(manifest.short_name);
  assert.equal(manifest.start_url, '/');
  assert.equal(manifest.display, 'standalone');
  assert.match(manifest.theme_color, /^#[0-9a-f]{6}$/);
  assert.match(manifest.background_color, /^#[0-9a-f]{6}$/);
  // Each PNG is what it claims: its width and height from its IHDR chunk.
  const sizes = { any: [], maskable: [] };
  for (const icon of manifest.icons.filter((i) => i.type === 'image/png')) {
    const response = await fetch(new URL(icon.src, manifestUrl));
    assert.equal(response.status, 200, icon.src);
    assert.equal(response.headers.get('content-type'), 'image/png');
    const png = Buffer.from(await response.arrayBuffer());
    const [width, height] = [png.readUInt32BE(16), png.readUInt32BE(20)];
    assert.equal(`${width}x${height}`, icon.sizes, icon.src);
    sizes[icon.purpose].push(width);
  }
  assert.ok(sizes.any.includes(192) && sizes.any.includes(512), JSON.stringify(sizes));
  assert.ok(sizes.maskable.includes(512), JSON.stringify(sizes));

  const cdp = await context.newCDPSession(page);
  const parsed = await cdp.send('Page.getAppManifest');
  assert.deepEqual(parsed.errors, [], JSON.stringify(parsed.errors));
  assert.equal(new URL(parsed.url).pathname, '/manifest.webmanifest');
  const verdict = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(verdict.installabilityErrors, [], JSON.stringify(verdict.installabilityErrors));
  await cdp.detach();
  await page.close();
}

test('without a network, the service worker shows the offline page', async () => {
  const player = await newPlayer(browser, server);
  await signIn(player, 'Olga');
  assert.equal(await workerReady(player.page), 'activated');
  await player.page.reload();
  await player.page.waitForSelector('#create-form');
  await player.context.setOffline(true);
  try {
    await player.page.goto('about:blank');
    await player.page.goto('/#/account').catch(() => {});
    await player.page.waitForSelector('#offline h1');
    assert.equal(await player.page.textContent('#offline h1'), 'You are offline');
    assert.equal(await player.page.title(), 'Offline · VIKTORY II');
  } finally {
    await player.context.setOffline(false);
  }
  // Back online: the game again.
  await player.page.goto('about:blank');
  await player.page.goto('/#/');
  await player.page.waitForSelector('#create-form');
  await player.context.close();
});

test('reduced motion: no pulsing, glowing or fading, and scrolling jumps', async () => {
  const page = await alice.context.newPage();
  await page.goto('/#/');
  await page.waitForSelector('#create-form');
  // The connection pill pulses while it connects.
  const pulse = () =>
    page.evaluate(() => {
      const pill = document.getElementById('conn-status');
      pill.dataset.status = 'connecting';
      const style = getComputedStyle(pill);
      return { name: style.animationName, count: style.animationIterationCount, seconds: parseFloat(style.animationDuration) };
    });
  const moving = await pulse();
  assert.equal(moving.name, 'pulse');
  assert.equal(moving.count, 'infinite');
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const still = await pulse();
  assert.equal(still.count, '1', JSON.stringify(still));
  assert.ok(still.seconds < 0.01, JSON.stringify(still));
  // A toast fades with a transition of half a second; not then.
  const fade = await page.evaluate(() => {
    const toast = document.createElement('div');
    toast.className = 'toast';
    document.body.append(toast);
    const seconds = parseFloat(getComputedStyle(toast).transitionDuration);
    toast.remove();
    return seconds;
  });
  assert.ok(fade < 0.01, `transition ${fade}s`);
  assert.equal(await page.evaluate(async () => (await import('/js/util.js')).scrollBehavior()), 'auto');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  assert.equal(await page.evaluate(async () => (await import('/js/util.js')).scrollBehavior()), 'smooth');
  await page.close();
});

// WCAG relative luminance and contrast of two CSS rgb() colours.
function contrast(a, b) {
  const lum = (css) => {
    const [r, g, bl] = css.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('the focus ring stands out at least 3:1 on the light cards and on the dark top bar', async () => {
  const page = await alice.context.newPage();
  await page.goto('/#/');
  await page.waitForSelector('#create-form');
  const ringOn = async (selector) => {
    await page.focus(selector);
    return page.evaluate((sel) => {
      const el = document.querySelector(sel);
      const style = getComputedStyle(el);
      // The surface around it: the first ancestor with a background of its own.
      let surface = el.parentElement;
      while (surface && getComputedStyle(surface).backgroundColor === 'rgba(0, 0, 0, 0)') surface = surface.parentElement;
      const shadowColours = (style.boxShadow.match(/rgba?\([^)]*\)/g) || []);
      return {
        focusVisible: el.matches(':focus-visible'),
        outline: style.outlineColor,
        outlineWidth: parseFloat(style.outlineWidth),
        shadow: shadowColours,
        surface: surface ? getComputedStyle(surface).backgroundColor : 'rgb(255, 255, 255)',
      };
    }, selector);
  };
  // Keyboard focus (Tab), so that :focus-visible applies as for a keyboard player.
  await page.keyboard.press('Tab');
  const onCard = await ringOn('#create-game');
  assert.ok(onCard.outlineWidth >= 2, JSON.stringify(onCard));
  const cardContrast = contrast(onCard.outline, onCard.surface);
  assert.ok(cardContrast >= 3, `outline ${onCard.outline} on ${onCard.surface}: ${cardContrast.toFixed(2)}:1`);
  const onBar = await ringOn('.topbar .brand');
  const best = Math.max(contrast(onBar.outline, onBar.surface), ...onBar.shadow.map((c) => contrast(c, onBar.surface)));
  assert.ok(best >= 3, `ring ${onBar.outline} / ${onBar.shadow.join(', ')} on ${onBar.surface}: ${best.toFixed(2)}:1`);
  await page.close();
});

test('each page has an h1 and a title of its own; the account page does not shift as it loads', async () => {
  const phone = await newPlayer(browser, server, { viewport: { width: 412, height: 823 } });
  await phone.context.addInitScript(() => {
    window.__shift = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) if (!entry.hadRecentInput) window.__shift += entry.value;
    }).observe({ type: 'layout-shift', buffered: true });
  });
  const titles = new Set();
  const page = phone.page;
  const check = async (hash, selector) => {
    await page.goto(`/${hash}`);
    await page.waitForSelector(selector);
    await page.waitForTimeout(300);
    const h1 = await page.locator('h1').count();
    const title = await page.title();
    assert.equal(h1, 1, `${hash}: ${h1} h1`);
    assert.ok(!titles.has(title), `${hash}: the title "${title}" again`);
    titles.add(title);
  };
  await check('#/', '.welcome-form');
  await signIn(phone, 'Phone');
  await check('#/', '#create-form');
  await page.goto('about:blank');
  await check('#/account', '#notifications #push-state');
  const shift = await page.evaluate(() => window.__shift);
  assert.ok(shift < 0.05, `the account page shifted by ${shift.toFixed(3)}`);
  await page.goto('/#/');
  await page.waitForSelector('#create-form');
  await page.click('#create-game');
  await page.waitForSelector('#waiting .seat-list');
  const gameTitle = await page.title();
  assert.match(gameTitle, /^Game \d+ · VIKTORY II$/);
  assert.equal(await page.locator('h1:visible').count(), 1);
  await phone.context.close();
});
