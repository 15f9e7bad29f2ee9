// The dedicated worker that runs the WebAssembly verifier (./verify.js): the game record's check
// and the players' contribution commitments. Only this script's response carries
// 'wasm-unsafe-eval' in its Content-Security-Policy (server/net/static_files.cpp); the page itself
// may compile no WebAssembly. Messages: {id, op: 'verify', record, witness} and
// {id, op: 'commitment', contribution: Uint8Array(32)}; answers {id, result} or {id, error}.

import { verifyRecord, contributionCommitment } from './verify.js';

self.addEventListener('message', async (event) => {
  const { id, op } = event.data || {};
  try {
    let result;
    if (op === 'verify') result = await verifyRecord(event.data.record, { witness: event.data.witness ?? null });
    else if (op === 'commitment') result = await contributionCommitment(event.data.contribution);
    else throw new Error(`unknown request ${op}`);
    self.postMessage({ id, result });
  } catch (err) {
    self.postMessage({ id, error: String((err && err.message) || err) });
  }
});
