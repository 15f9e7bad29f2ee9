// The JavaScript view delta (web-client/js/view_delta.js, used by the replay page) agrees with
// the server's: the C++ tool view_delta_samples prints the views and deltas of random games for
// every viewer, and applying each delta here must give exactly the view the server made.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { serverBinary, repoRoot } from './lib/harness.js';
import { applyViewDelta } from '../../web-client/js/view_delta.js';

function samplesBinary() {
  // Built next to the server: <build>/server/viktory-server -> <build>/tests/protocol/.
  const build = path.dirname(path.dirname(serverBinary()));
  return path.join(build, 'tests', 'protocol', 'view_delta_samples');
}

test('applying the server\'s deltas in JavaScript gives the server\'s views', () => {
  const bin = samplesBinary();
  assert.ok(existsSync(bin), `${bin} is missing: build the tests (scripts/test.sh does)`);
  const out = execFileSync(bin, { cwd: repoRoot, maxBuffer: 256 * 1024 * 1024, encoding: 'utf8' });
  const current = new Map(); // "game/viewer" -> view
  let checked = 0;
  let deltas = 0;
  for (const line of out.split('\n')) {
    if (!line) continue;
    const sample = JSON.parse(line);
    const key = `${sample.game}/${sample.viewer}`;
    if (sample.delta === undefined && sample.view) {
      current.set(key, sample.view);
      continue;
    }
    const before = current.get(key);
    if (sample.final) {
      assert.deepEqual(before, sample.final, `${key}: last view`);
      checked += 1;
      continue;
    }
    const frozen = JSON.stringify(before);
    const after = applyViewDelta(before, sample.delta);
    assert.equal(JSON.stringify(before), frozen, 'the earlier view is left as it was');
    deltas += 1;
    if (sample.view) {
      assert.deepEqual(after, sample.view, `${key} at seq ${sample.seq}`);
      checked += 1;
    }
    current.set(key, after);
  }
  assert.ok(deltas > 1000, `only ${deltas} deltas`);
  assert.ok(checked > 300, `only ${checked} views compared`);
});

test('a delta that does not fit the view is refused', () => {
  const view = { turn: 1, hexes: [{ hex: 0 }], units: [{ id: 2 }], players: [{ index: 0 }] };
  assert.throws(() => applyViewDelta(view, { hexes: [{ hex: 5 }] }));
  assert.throws(() => applyViewDelta(view, { units_removed: [7] }));
  assert.throws(() => applyViewDelta(view, { set: { units: [] } }));
  assert.throws(() => applyViewDelta(view, { hex_count: 2 }));
  assert.deepEqual(applyViewDelta(view, { units: [{ id: 1 }, { id: 3 }] }).units.map((u) => u.id), [1, 2, 3]);
  assert.deepEqual(applyViewDelta(view, { set: { turn: 2 }, unset: ['turn'] }).turn, undefined);
});
