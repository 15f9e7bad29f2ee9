// Hidden information: under independent exploration a player's page never holds the terrain of
// a hex he has not seen — not in the DOM, not in any WebSocket frame it received.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { signIn, waitForGameState, useTable } from './lib/harness.js';
import { playUntil } from './lib/bot.js';

const TERRAINS = ['water', 'plains', 'grassland', 'forest', 'mountain'];

let server;
let browser;
let alice;
let bob;

useTable(
  ['Alice', 'Bob'],
  (table) => {
    ({ server, browser } = table);
    [alice, bob] = table.players;
  },
);

// Every (hex, terrain) pair found anywhere in a player's frames: hexes of views and
// tile_revealed events alike.
function terrainMentions(frames) {
  const found = [];
  const walk = (node) => {
    if (Array.isArray(node)) {
      for (const x of node) walk(x);
    } else if (node && typeof node === 'object') {
      if (typeof node.terrain === 'string' && Number.isInteger(node.hex)) found.push({ hex: node.hex, terrain: node.terrain, known: node.known });
      for (const v of Object.values(node)) walk(v);
    }
  };
  walk(frames);
  return found;
}

test('independent exploration: no page ever gets terrain of a hex its player has not seen', async () => {
  await signIn(alice, 'Ann');
  await signIn(bob, 'Ben');
  await alice.page.check('#independent_exploration');
  await alice.page.click('#create-game');
  await alice.page.waitForSelector('#waiting .seat-list');
  const gameId = Number(alice.page.url().match(/#\/game\/(\d+)/)[1]);
  await bob.page.goto(`/#/game/${gameId}`);
  await bob.page.click('#join-game');
  await waitForGameState(alice.page, (s) => s.view.options.independent_exploration === true);
  await waitForGameState(bob.page, (s) => s.view.options.independent_exploration === true);

  // Play until each player knows hexes the other does not (both explored on their own).
  const states = await playUntil([alice, bob], (ss) => {
    if (!ss[0] || !ss[1] || ss[0].view.turn < 4) return false;
    const known = ss.map((s) => new Set(s.view.hexes.filter((h) => h.known).map((h) => h.hex)));
    const onlyA = [...known[0]].filter((h) => !known[1].has(h));
    const onlyB = [...known[1]].filter((h) => !known[0].has(h));
    return onlyA.length > 0 && onlyB.length > 0;
  }, { avoidBattle: true });

  for (const [k, player] of [alice, bob].entries()) {
    const view = states[k].view;
    const otherView = states[1 - k].view;
    const known = new Set(view.hexes.filter((h) => h.known).map((h) => h.hex));
    const unknownToMe = view.hexes.filter((h) => !h.known).map((h) => h.hex);
    const seenByOtherOnly = otherView.hexes.filter((h) => h.known && !known.has(h.hex));
    assert.ok(seenByOtherOnly.length > 0, 'the test is meaningful: the other player knows hexes this one does not');

    // 1. Views: terrain only on known hexes, never on others.
    for (const hx of view.hexes) {
      if (hx.known) assert.ok('terrain' in hx, `known hex ${hx.label} carries its terrain`);
      else assert.ok(!('terrain' in hx), `hex ${hx.label} is unknown but has terrain`);
    }

    // 2. Every frame the page received: terrain only for hexes this player knows by now
    //    (knowledge only grows, so the final view is the right yardstick).
    const mentions = terrainMentions(player.frames);
    assert.ok(mentions.length > 0, 'frames were recorded');
    for (const m of mentions) {
      assert.ok(known.has(m.hex), `a frame carried terrain ${m.terrain} of hex ${m.hex}, which this player does not know`);
    }

    // 3. The DOM: data-terrain and terrain classes only on known hexes; unknown hexes are
    //    face-down tiles, and their tooltips name no terrain.
    const dom = await player.page.$$eval('.layer-tiles [data-hex]', (els) =>
      els.map((e) => ({ hex: Number(e.dataset.hex), known: e.dataset.known === '1', terrain: e.dataset.terrain || null, cls: e.getAttribute('class') })),
    );
    assert.equal(dom.length, view.hexes.length);
    for (const d of dom) {
      if (!known.has(d.hex)) {
        assert.equal(d.terrain, null, `DOM has terrain for unknown hex ${d.hex}`);
        assert.ok(!TERRAINS.some((t) => d.cls.includes(`terrain-${t}`)), `DOM class names terrain for unknown hex ${d.hex}`);
      }
    }
    // Tooltips and the names screen readers read out (aria-label) alike.
    const titles = await player.page.$$eval('.layer-hits [data-hit-hex]', (els) => els.map((e) => ({ hex: Number(e.dataset.hitHex), text: `${e.textContent} ${e.getAttribute('aria-label')}` })));
    for (const t of titles) {
      if (known.has(t.hex)) continue;
      for (const name of ['Water', 'Plains', 'Grassland', 'Forest', 'Mountain']) {
        assert.ok(!t.text.includes(name), `tooltip of unknown hex ${t.hex} says ${name}`);
      }
    }
    // The hexes only the other player has seen are drawn face down on this page.
    for (const hx of seenByOtherOnly) {
      const d = dom.find((x) => x.hex === hx.hex);
      assert.ok(d && !d.known && d.cls.includes('unknown'));
    }
    assert.ok(unknownToMe.length >= seenByOtherOnly.length);
  }
  // The page HTML as a whole never names the terrain of the other player's private hexes in a
  // data attribute.
  const html = await alice.page.content();
  const aliceKnown = new Set(states[0].view.hexes.filter((h) => h.known).map((h) => h.hex));
  for (const m of html.matchAll(/data-hex="(\d+)"[^>]*data-terrain="(\w+)"/g)) {
    assert.ok(aliceKnown.has(Number(m[1])), `HTML names terrain of hex ${m[1]}`);
  }
  assert.deepEqual(alice.errors, []);
  assert.deepEqual(bob.errors, []);
});
