// The battle view's record (web-client/js/game/fire.js), as a module: a hit chosen in a later
// action (the defender picks his casualty after the attacker's fire: a `unit_hit` that arrives
// with the next action's events) belongs to the fire that caused it, live and at the replay's
// steps; and "1 die", never "1 dice".

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './lib/harness.js';

// The module's words come from the message catalogs, which js/i18n.js fetches when it loads:
// here from the files of the web root (English, the language of a browser-less Node).
const realFetch = globalThis.fetch;
globalThis.fetch = async (url, ...rest) => {
  const m = /\/i18n\/([\w-]+)\.json$/.exec(String(url));
  if (!m) return realFetch(url, ...rest);
  return new Response(await readFile(path.join(repoRoot, 'web-client', 'i18n', `${m[1]}.json`)), { headers: { 'Content-Type': 'application/json' } });
};
const { absorbBattleEvents, stepBattle, FIRE_TEXT, sourcesText } = await import('../../web-client/js/game/fire.js');

const HEX = 17;
const started = { kind: 'battle_started', player: 0, other_player: 1, hex: HEX };
const attackerFire = { kind: 'dice_rolled', player: 0, hex: HEX, dice: [1, 3, 5], purpose: 'attacker_fire', fire: { entitled: 3, sources: [{ source: 'infantry', dice: 3 }] } };
// Action 2: the defender chooses the casualty of the 3 (the 1's was the firer's, in action 1).
const hitByFirer = { kind: 'unit_hit', player: 1, hex: HEX, unit: 8, unit_type: 'cavalry', value: 1 };
const hitChosenLater = { kind: 'unit_hit', player: 1, hex: HEX, unit: 9, unit_type: 'infantry', value: 0 };
const defenderFire = { kind: 'dice_rolled', player: 1, hex: HEX, dice: [2], purpose: 'defender_fire', fire: { entitled: 1, sources: [{ source: 'town', dice: 1 }] } };
const hitOnAttacker = { kind: 'unit_hit', player: 0, hex: HEX, unit: 3, unit_type: 'infantry', value: 0 };
const ended = { kind: 'battle_ended', player: 0, hex: HEX };

const steps = [
  { seq: 10, events: [{ kind: 'turn_started', player: 0, value: 5 }] },
  { seq: 11, events: [started, attackerFire, hitByFirer] },
  { seq: 12, events: [hitChosenLater, defenderFire] },
  { seq: 13, events: [hitOnAttacker, ended] },
];

test('live: a hit chosen with the next action goes to the fire that caused it', () => {
  let record = null;
  for (const step of steps) record = absorbBattleEvents(record, step.events);
  assert.equal(record.fires.length, 2);
  const [attack, defence] = record.fires;
  assert.deepEqual(attack.hits.map((x) => [x.type, x.byFirer]), [['cavalry', true], ['infantry', false]]);
  assert.deepEqual(defence.hits.map((x) => [x.owner, x.type]), [[0, 'infantry']]);
  assert.deepEqual(record.ended, { winner: 0 });
  // After the Battle is over, a later bombardment of the same hex adds nothing to it.
  absorbBattleEvents(record, [{ kind: 'unit_hit', player: 1, hex: HEX, unit: 4, unit_type: 'infantry', value: 0 }]);
  assert.equal(defence.hits.length, 1);
});

test('replay: a step shows the fires it rolled and the fires it chose hits for, rounds counted from the start', () => {
  const at12 = stepBattle(steps.slice(0, 3));
  assert.deepEqual(at12.fires.map((f) => f.purpose), ['attacker_fire', 'defender_fire']);
  assert.deepEqual(at12.fires[0].hits.map((x) => x.type), ['cavalry', 'infantry']);
  assert.deepEqual(at12.fires.map((f) => f.round), [1, 1]);
  const at13 = stepBattle(steps);
  assert.deepEqual(at13.fires.map((f) => f.purpose), ['defender_fire']);
  assert.deepEqual(at13.fires[0].hits.map((x) => x.type), ['infantry']);
  // A step of no Battle, and a Battle whose start is not among the steps.
  assert.equal(stepBattle(steps.slice(0, 1)), null);
  assert.equal(stepBattle(steps.slice(2, 3)), null);
});

test('one die, two dice: numbers and plurals from Intl', () => {
  assert.equal(FIRE_TEXT.dice(1), '1 die');
  assert.equal(FIRE_TEXT.dice(3), '3 dice');
  assert.equal(FIRE_TEXT.fewerDice(1), '1 die fewer');
  assert.equal(FIRE_TEXT.averagedLine(1), '1 averaged pair: 1 hit, the target choosing [15.4]');
  assert.equal(sourcesText({ sources: [{ source: 'infantry', dice: 2 }], suppressed: 1, averaged_pairs: 1 }), 'Infantry 2 · −1 suppressed [12.31] · 1 pair averaged [15.4]');
});
