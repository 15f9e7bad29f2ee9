// The page's side of the verifier's worker (./verify_worker.js): WebAssembly is compiled there,
// under that script's own Content-Security-Policy, never in the page (docs/fair-play.md,
// "Implementation"). One worker, started when first needed; requests are answered in order.

let worker = null;
let nextId = 1;
const waiting = new Map(); // id -> {resolve, reject}

function workerUrl() {
  // Through the page's import map: the versioned URL the server gave the worker's script.
  return typeof import.meta.resolve === 'function' ? import.meta.resolve('./verify_worker.js') : new URL('./verify_worker.js', import.meta.url).href;
}

function start() {
  if (worker) return worker;
  worker = new Worker(workerUrl(), { type: 'module', name: 'verifier' });
  worker.addEventListener('message', (event) => {
    const { id, result, error } = event.data || {};
    const entry = waiting.get(id);
    if (!entry) return;
    waiting.delete(id);
    if (error !== undefined) entry.reject(new Error(error));
    else entry.resolve(result);
  });
  worker.addEventListener('error', (event) => {
    // The script could not load or run: every request fails, the next one starts afresh.
    const message = event.message || 'the verifier could not start';
    for (const entry of waiting.values()) entry.reject(new Error(message));
    waiting.clear();
    worker.terminate();
    worker = null;
  });
  return worker;
}

function ask(message, transfer = []) {
  const w = start();
  const id = nextId++;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    w.postMessage({ ...message, id }, transfer);
  });
}

// The verifier's report on a record (text or object), with this client's witness (or null).
export function verifyInWorker(record, { witness = null } = {}) {
  return ask({ op: 'verify', record: typeof record === 'string' ? record : JSON.stringify(record), witness });
}

// The contribution commitment of 32 bytes, as 64 hex digits.
export function commitmentInWorker(contribution) {
  return ask({ op: 'commitment', contribution: new Uint8Array(contribution) });
}
