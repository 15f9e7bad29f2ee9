// Checks a game record in the browser (docs/fair-play.md) with verifier.wasm: the rules engine
// and the verifier compiled to WebAssembly from the same C++ as `viktory-verify`, so the page
// replays the game with the engine's own generator and rules; this module only moves text in
// and out. SHA-256 runs inside the module as well, so the check also works over plain HTTP,
// where browsers offer no WebCrypto.
//
//   import { verifyRecord } from './verify.js';
//   const report = await verifyRecord(recordText, { witness: witnessText });
//   // {verified, failure?, summary, notes, seed?, actions, rolls, dice, tiles, witness_checked}
//   // a malformed record: {verified: false, unreadable: true, failure, summary}

// Through the page's import map where there is one (the server's index.html names the verifier
// with its version, so the browser may keep it: docs/server.md).
const DEFAULT_URL = new URL(
  typeof import.meta.resolve === 'function' ? import.meta.resolve('../verify/verifier.wasm') : '../verify/verifier.wasm',
  import.meta.url,
);

let defaultModule = null;

// Compiles the verifier once. `source`: a URL (default: /verify/verifier.wasm next to this
// module's folder), the module's bytes, or an already compiled WebAssembly.Module.
export function loadVerifier(source = DEFAULT_URL) {
  if (source instanceof WebAssembly.Module) return Promise.resolve(source);
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) return WebAssembly.compile(source);
  if (source === DEFAULT_URL && defaultModule) return defaultModule;
  const loading = (async () => {
    const response = await fetch(source);
    if (!response.ok) throw new Error(`the verifier is not available (${response.status} for ${response.url})`);
    // compileStreaming needs the application/wasm type; a proxy may serve another.
    if (typeof WebAssembly.compileStreaming === 'function' && /application\/wasm/.test(response.headers.get('content-type') || '')) {
      return WebAssembly.compileStreaming(response);
    }
    return WebAssembly.compile(await response.arrayBuffer());
  })();
  if (source === DEFAULT_URL) {
    defaultModule = loading;
    loading.catch(() => { defaultModule = null; });
  }
  return loading;
}

// The few WASI calls the C and C++ libraries may make: writes to stdout/stderr are collected
// (an abort message would land there), files do not exist, anything else is "not supported".
const ERRNO_BADF = 8;
const ERRNO_NOSYS = 52;

function wasiImports(state) {
  const known = {
    fd_write(fd, iovs, iovsLength, writtenPointer) {
      const view = new DataView(state.memory.buffer);
      let written = 0;
      for (let i = 0; i < iovsLength; i += 1) {
        const pointer = view.getUint32(iovs + 8 * i, true);
        const length = view.getUint32(iovs + 8 * i + 4, true);
        if (fd === 1 || fd === 2) state.output += new TextDecoder().decode(new Uint8Array(state.memory.buffer, pointer, length));
        written += length;
      }
      view.setUint32(writtenPointer, written, true);
      return fd === 1 || fd === 2 ? 0 : ERRNO_BADF;
    },
    fd_close: () => ERRNO_BADF,
    fd_seek: () => ERRNO_BADF,
    proc_exit(code) {
      throw new Error(`the verifier exited (${code})`);
    },
  };
  const namespace = new Proxy(known, {
    get: (target, name) => (name in target ? target[name] : () => ERRNO_NOSYS),
  });
  return { wasi_snapshot_preview1: namespace };
}

function asText(value) {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

// A fresh instance of the verifier module, initialised, with the state its imports write to.
async function freshInstance(verifier) {
  const module = await loadVerifier(verifier);
  const state = { memory: null, output: '' };
  const instance = await WebAssembly.instantiate(module, wasiImports(state));
  const exports = instance.exports;
  state.memory = exports.memory;
  exports._initialize();
  return { exports, state };
}

// Verifies `record` (its JSON text, or the parsed object) and optionally a `witness` (what
// the player's client saw). Each call gets a fresh instance: a malformed record stops the
// module with a trap, which leaves its stack unwound.
export async function verifyRecord(record, { witness = null, verifier } = {}) {
  const { exports, state } = await freshInstance(verifier);

  const encoder = new TextEncoder();
  const put = (text) => {
    const bytes = encoder.encode(text);
    const pointer = exports.verifier_alloc(bytes.length);
    new Uint8Array(exports.memory.buffer, pointer, bytes.length).set(bytes);
    return [pointer, bytes.length];
  };
  const [recordPointer, recordLength] = put(asText(record));
  const [witnessPointer, witnessLength] = witness === null ? [0, 0] : put(asText(witness));

  let trap = null;
  try {
    exports.verifier_verify(recordPointer, recordLength, witnessPointer, witnessLength);
  } catch (error) {
    if (!(error instanceof WebAssembly.RuntimeError)) throw error;
    trap = error;
  }
  // The report: the verifier's, or the "unreadable" one it left before trapping.
  const text = new TextDecoder().decode(
    new Uint8Array(exports.memory.buffer, exports.verifier_output_ptr(), exports.verifier_output_len()),
  );
  try {
    return JSON.parse(text);
  } catch {
    const detail = state.output.trim() || (trap ? trap.message : 'no report');
    return { verified: false, unreadable: true, failure: `the verifier stopped: ${detail}`, summary: `unreadable: ${detail}` };
  }
}

// A player's contribution commitment (docs/fair-play.md): the 64 hex digits of
// SHA-256("viktory contribution v1\0" || contribution) for 32 bytes, computed by the module (no
// WebCrypto on plain HTTP).
export async function contributionCommitment(contribution, { verifier } = {}) {
  if (!(contribution instanceof Uint8Array) || contribution.length !== 32) throw new Error('a contribution is 32 bytes');
  const { exports } = await freshInstance(verifier);
  if (typeof exports.verifier_contribution_commitment !== 'function') throw new Error('the verifier cannot hash contributions (an older verifier.wasm)');
  const pointer = exports.verifier_alloc(32);
  new Uint8Array(exports.memory.buffer, pointer, 32).set(contribution);
  exports.verifier_contribution_commitment(pointer);
  return new TextDecoder().decode(new Uint8Array(exports.memory.buffer, exports.verifier_output_ptr(), exports.verifier_output_len()));
}
