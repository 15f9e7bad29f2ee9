// Fair play in the browser (docs/fair-play.md): web-client/js/verify.js runs verifier.wasm, the
// engine and verifier compiled to WebAssembly, on records produced by the C++ side
// (viktory-record-sample), and must reach the same verdict, word for word, as viktory-verify.

import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, existsSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launchBrowser, serverBinary, repoRoot } from './lib/harness.js';
import { verifyRecord, loadVerifier } from '../../web-client/js/verify.js';
import { newWitness, noteStart, noteUpdate } from '../../web-client/js/witness.js';

// Tools of the same build tree as the server: <build>/server/viktory-server ->
// <build>/protocol/viktory-verify and <build>/tests/protocol/viktory-record-sample.
const buildDir = path.dirname(path.dirname(serverBinary()));
const verifyBin = process.env.VIKTORY_VERIFY_BIN || path.join(buildDir, 'protocol', 'viktory-verify');
const sampleBin = process.env.VIKTORY_RECORD_SAMPLE_BIN || path.join(buildDir, 'tests', 'protocol', 'viktory-record-sample');
const wasmPath = path.join(repoRoot, 'web-client', 'verify', 'verifier.wasm');

let workDir;
let server;
let browser;

const CONTENT_TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css', '.svg': 'image/svg+xml', '.wasm': 'application/wasm' };
const POLICY = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'; connect-src 'self'";

// Serves web-client/ on a free port of 127.0.0.1; {url, close()}.
async function serveWebClient() {
  const root = path.join(repoRoot, 'web-client');
  const http = createServer((request, response) => {
    const urlPath = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    if (urlPath === '/blank.html') {
      response.writeHead(200, { 'content-type': CONTENT_TYPES['.html'], 'content-security-policy': POLICY });
      response.end('<!doctype html><title>verify</title>');
      return;
    }
    const file = path.join(root, urlPath === '/' ? 'index.html' : urlPath);
    if (!file.startsWith(root + path.sep) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': CONTENT_TYPES[path.extname(file)] || 'application/octet-stream', 'content-security-policy': POLICY });
    response.end(readFileSync(file));
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${http.address().port}`, close: () => new Promise((resolve) => http.close(resolve)) };
}

before(async () => {
  for (const file of [verifyBin, sampleBin, wasmPath]) {
    assert.ok(existsSync(file), `${file} is missing: build the targets viktory-verify, viktory-record-sample and verifier_wasm`);
  }
  workDir = mkdtempSync(path.join(tmpdir(), 'viktory-verify-'));
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.close();
  if (workDir) rmSync(workDir, { recursive: true, force: true });
});

// A finished random game's record, what seat `seat`'s client saw (the C++ side's witness), and
// the game.update messages that seat received, all made by the C++ side.
function sampleGame(seed, players, seat = 0) {
  const recordFile = path.join(workDir, `record-${seed}-${players}.json`);
  const witnessFile = path.join(workDir, `witness-${seed}-${players}.json`);
  const updatesFile = path.join(workDir, `updates-${seed}-${players}.json`);
  execFileSync(sampleBin, [String(seed), String(players), recordFile, '--witness', String(seat), witnessFile, updatesFile]);
  return {
    record: readFileSync(recordFile, 'utf8'),
    witness: readFileSync(witnessFile, 'utf8'),
    updates: JSON.parse(readFileSync(updatesFile, 'utf8')),
  };
}

// viktory-verify's report as JSON (exit 1 is a verdict too, not an error).
function nativeReport(recordText) {
  const file = path.join(workDir, 'native-input.json');
  writeFileSync(file, recordText);
  const run = spawnSync(verifyBin, [file, '--json'], { encoding: 'utf8' });
  assert.ok(run.status === 0 || run.status === 1, `viktory-verify exited ${run.status}: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

function withFirstDieChanged(recordText) {
  const record = JSON.parse(recordText);
  const action = record.actions.find((a) => a.dice);
  assert.ok(action, 'the sample game rolled no dice');
  action.dice[0].dice[0] = (action.dice[0].dice[0] % 6) + 1;
  return JSON.stringify(record);
}

function withFirstTileChanged(recordText) {
  const record = JSON.parse(recordText);
  const action = record.actions.find((a) => a.tiles);
  assert.ok(action, 'the sample game revealed no tiles');
  action.tiles[0].terrain = action.tiles[0].terrain === 'forest' ? 'mountain' : 'forest';
  return JSON.stringify(record);
}

function withSecretChanged(recordText) {
  const record = JSON.parse(recordText);
  const secret = record.reveal.secret;
  record.reveal.secret = (secret[0] === '0' ? '1' : '0') + secret.slice(1);
  return JSON.stringify(record);
}

test('the WebAssembly verifier reaches the same verdict as viktory-verify, word for word', async () => {
  const verifier = await loadVerifier(readFileSync(wasmPath));
  for (const players of [2, 3, 4, 5, 6]) {
    const { record } = sampleGame(40 + players, players);
    for (const [what, text] of [
      ['untouched', record],
      ['die changed', withFirstDieChanged(record)],
      ['tile changed', withFirstTileChanged(record)],
      ['secret changed', withSecretChanged(record)],
    ]) {
      const wasm = await verifyRecord(text, { verifier });
      assert.deepEqual(wasm, nativeReport(text), `${players} players, ${what}`);
      assert.equal(wasm.verified, what === 'untouched', `${players} players, ${what}: ${wasm.summary}`);
    }
  }
});

test('witness.js keeps from game.update messages what the player saw, and the record matches it', async () => {
  const verifier = await loadVerifier(readFileSync(wasmPath));
  for (const [players, seat] of [[2, 1], [3, 2]]) {
    const { record, witness, updates } = sampleGame(60 + players, players, seat);
    const expected = JSON.parse(witness);
    const kept = newWitness({ gameId: expected.game_id, seat });
    noteStart(kept, {
      commitment: expected.commitment,
      contributionCommitments: expected.contribution_commitments,
      contribution: expected.contribution,
      firstPlayer: expected.first_player,
    });
    for (const update of updates) noteUpdate(kept, update);
    assert.ok(kept.seen.length > 0);
    assert.deepEqual(kept, expected);
    const report = await verifyRecord(record, { witness: kept, verifier });
    assert.equal(report.verified, true, report.summary);
    assert.equal(report.witness_checked, true);
  }
});

test('verify.js in Chromium: a finished game verifies, a tampered one fails with the reason', async () => {
  server = await serveWebClient();
  browser = await launchBrowser();
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (error) => errors.push(error.message));
  // A blank page of the same origin: the module is imported as the replay page will.
  await page.goto(`${server.url}/blank.html`);
  const { record, witness } = sampleGame(7, 2);
  const inPage = (recordText, witnessText = null) =>
    page.evaluate(async ([r, w]) => {
      const { verifyRecord: verify } = await import('/js/verify.js');
      return verify(r, { witness: w });
    }, [recordText, witnessText]);

  const good = await inPage(record);
  assert.equal(good.verified, true, good.summary);
  assert.match(good.summary, /^verified: \d+ actions, \d+ rolls \(\d+ dice\), \d+ tiles; seed 0x[0-9a-f]{16}$/);
  assert.ok(good.rolls > 0 && good.tiles > 0);

  const seen = await inPage(record, witness);
  assert.equal(seen.verified, true, seen.summary);
  assert.equal(seen.witness_checked, true);

  const die = await inPage(withFirstDieChanged(record));
  assert.equal(die.verified, false);
  assert.match(die.failure, /^action \d+ \(turn \d+\): the record says seat [01] \(Player [AB]\) rolled [1-6](, [1-6])* for .+ at [A-Z]\d+; the seed gives [1-6](, [1-6])*$/);
  assert.equal(die.failure, nativeReport(withFirstDieChanged(record)).failure);

  const secret = await inPage(withSecretChanged(record));
  assert.equal(secret.verified, false);
  assert.match(secret.failure, /^the revealed secret and salt do not match the commitment: SHA-256 gives [0-9a-f]{16}\.\.\., the record commits to [0-9a-f]{16}\.\.\.$/);

  const otherWitness = JSON.parse(witness);
  const entry = otherWitness.seen.find((e) => e.dice);
  entry.dice[0].dice[0] = (entry.dice[0].dice[0] % 6) + 1;
  const mismatch = await inPage(record, JSON.stringify(otherWitness));
  assert.equal(mismatch.verified, false);
  assert.match(mismatch.failure, new RegExp(`^action ${entry.seq} \\(turn \\d+\\): the record says .*; your client saw [1-6]`));

  const broken = await inPage('{"format": "viktory-game-record", "version": 1, "options": ');
  assert.equal(broken.verified, false);
  assert.equal(broken.unreadable, true);
  assert.match(broken.failure, /^record: not valid JSON: /);

  // The page keeps working after a trap: each verification has its own instance.
  const again = await inPage(record);
  assert.equal(again.verified, true);
  assert.deepEqual(errors, []);
});
