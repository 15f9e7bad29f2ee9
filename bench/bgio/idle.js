// Idle connections: the server's resident memory before and after opening N connections that
// then do nothing. ours: WebSocket /ws, signed in (welcome received), one player for all;
// peer: socket.io on the game's namespace over WebSocket, connected.
// Usage: node idle.js ours|peer PORT SERVER_PID N   -> RESULT {json}. Bounded: 240 s.
const fs = require('fs');

const [, , system, port, pid, count] = process.argv;
const connections = Math.min(Number(count), 5000);
setTimeout(() => { console.error('idle.js: time limit reached'); process.exit(2); }, 240000).unref();
const rssKb = () => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))[1]);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function openOurs(token) {
  const WebSocket = require('ws');
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/ws`);
    ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString());
      if (m.type === 'welcome') resolve(ws);
      else if (m.type === 'error') reject(new Error(m.message));
    });
    ws.on('error', reject);
  });
}

function openPeer() {
  const { io } = require('socket.io-client');
  return new Promise((resolve, reject) => {
    const s = io(`http://127.0.0.1:${port}/toyviktory`, { transports: ['websocket'], forceNew: true, reconnection: false });
    s.on('connect', () => resolve(s));
    s.on('connect_error', reject);
  });
}

(async () => {
  let token = null;
  if (system === 'ours') {
    const r = await fetch(`http://127.0.0.1:${port}/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ name: 'idle' }) });
    token = (await r.json()).token;
  }
  await sleep(1000);
  const before = rssKb();
  const open = [];
  while (open.length < connections) {
    const batch = [];
    for (let i = 0; i < 50 && open.length + batch.length < connections; i++) batch.push(system === 'ours' ? openOurs(token) : openPeer());
    open.push(...(await Promise.all(batch)));
  }
  await sleep(3000);
  const after = rssKb();
  console.log('RESULT ' + JSON.stringify({ system, connections, rss_before_kb: before, rss_after_kb: after,
    kb_per_connection: +((after - before) / connections).toFixed(2) }));
  for (const c of open) { try { if (system === 'ours') c.terminate(); else c.close(); } catch { /* closing anyway */ } }
  process.exit(0);
})().catch((e) => { console.error(e); process.exit(1); });
