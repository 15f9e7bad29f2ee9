// The committed fixture.json is what the openskill package computes today for cases.mjs: the
// C++ test (tests/server/rating_test.cpp) reads that file, so it must not drift from the
// reference. Run with `npm ci && node --test` in this folder (scripts/test.sh does).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { expected } from "./generate.mjs";

test("fixture.json equals openskill's updates for every case", () => {
  const committed = JSON.parse(readFileSync(new URL("./fixture.json", import.meta.url), "utf8"));
  const fresh = expected();
  assert.equal(committed.cases.length, fresh.cases.length, "the number of cases");
  for (let i = 0; i < fresh.cases.length; i += 1) {
    const want = fresh.cases[i];
    const got = committed.cases[i];
    assert.equal(got.name, want.name);
    assert.deepEqual(got.ranks, want.ranks, want.name);
    assert.deepEqual(got.before, want.before, want.name);
    got.after.forEach((p, k) => {
      for (const key of ["mu", "sigma", "ordinal"]) {
        assert.ok(Math.abs(p[key] - want.after[k][key]) < 1e-12,
          `${want.name}: player ${k} ${key} ${p[key]} != ${want.after[k][key]}`);
      }
    });
  }
});
