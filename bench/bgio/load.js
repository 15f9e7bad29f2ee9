// Load driver for the boardgame.io yardstick, measuring what viktory-loadgen measures: GAMES
// matches of PLAYERS seats over raw socket.io (WebSocket transport); every match is set up
// before any plays; then each seat sends a move as soon as it is its turn, ACTIONS moves per
// match. Latency is from sending a move to EVERY seat of that match having its update.
// Server CPU: utime+stime of SERVER_PID (from /proc) over the playing window only.
// Bytes: every WebSocket payload received by the seats in the window.
// Usage: node load.js --port P --api-port A --games G --players N --actions M
//                     [--server-pid PID] [--timeout S]
// Prints one line: RESULT {json}. Bounded: exits after --timeout seconds whatever happens.
const fs = require('fs');
const { io } = require('socket.io-client');

function args() {
  const out = { port: 8000, apiPort: 8002, games: 10, players: 2, actions: 200, serverPid: 0, timeout: 300 };
  const names = { '--port': 'port', '--api-port': 'apiPort', '--games': 'games', '--players': 'players',
    '--actions': 'actions', '--server-pid': 'serverPid', '--timeout': 'timeout' };
  for (let i = 2; i < process.argv.length; i += 2) {
    const key = names[process.argv[i]];
    if (!key) throw new Error(`unknown flag ${process.argv[i]}`);
    out[key] = Number(process.argv[i + 1]);
  }
  return out;
}

const o = args();
const api = `http://127.0.0.1:${o.apiPort}`;
setTimeout(() => { console.error('load.js: time limit reached'); process.exit(2); }, o.timeout * 1000).unref();

const clockTicks = 100; // USER_HZ on Linux
function cpuSeconds(pid) {
  if (!pid) return 0;
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / clockTicks; // utime, stime
}

async function post(path, body) {
  const response = await fetch(api + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response.json();
}

const stats = { measuring: false, latencies: [], actions: 0, bytes: 0, errors: 0 };
let playing = false;
const starters = [];
let finished = 0;
let onAllFinished = null;

async function setUpMatch() {
  const { matchID } = await post('/games/toyviktory/create', { numPlayers: o.players });
  const seats = [];
  for (let p = 0; p < o.players; p++) {
    const { playerCredentials } = await post(`/games/toyviktory/${matchID}/join`, { playerID: String(p), playerName: `p${p}` });
    seats.push({ id: String(p), credentials: playerCredentials, socket: null, state: null });
  }
  const pending = new Map(); // the _stateID awaited -> { sentAt, told }
  let sent = 0;
  let lastActedFrom = -1;
  let done = false;
  let unitTurn = 0;
  const finish = () => {
    if (done) return;
    done = true;
    if (++finished === o.games && onAllFinished) onAllFinished();
  };
  const maybeAct = (seat) => {
    const s = seat.state;
    if (!playing || done || !s || s.ctx.currentPlayer !== seat.id || s._stateID <= lastActedFrom) return;
    if (sent >= o.actions) {
      if (pending.size === 0) finish();
      return;
    }
    lastActedFrom = s._stateID;
    const mine = s.G.units.filter((u) => u.owner === seat.id);
    const unit = mine[unitTurn++ % mine.length];
    pending.set(s._stateID + 1, { sentAt: performance.now(), told: 0 });
    sent += 1;
    seat.socket.emit('update', { type: 'MAKE_MOVE', payload: { type: 'move', args: [unit.id, Math.floor(Math.random() * s.G.hexes.length)], playerID: seat.id, credentials: seat.credentials } }, s._stateID, matchID, seat.id);
  };
  let synced = 0;
  const ready = new Promise((resolve) => {
    for (const seat of seats) {
      const socket = io(`http://127.0.0.1:${o.port}/toyviktory`, { transports: ['websocket'], forceNew: true, reconnection: false, timeout: 60000 });
      seat.socket = socket;
      socket.io.on('open', () => {
        socket.io.engine.on('packet', (packet) => {
          if (stats.measuring && typeof packet.data === 'string') stats.bytes += 1 + Buffer.byteLength(packet.data);
        });
      });
      socket.on('connect', () => socket.emit('sync', matchID, seat.id, seat.credentials, o.players));
      socket.on('sync', (_, info) => {
        seat.state = info.state;
        if (++synced === o.players) resolve();
        maybeAct(seat);
      });
      socket.on('update', (_, state) => {
        seat.state = state;
        const p = pending.get(state._stateID);
        if (p && ++p.told === o.players) {
          pending.delete(state._stateID);
          if (stats.measuring) { stats.latencies.push(performance.now() - p.sentAt); stats.actions += 1; }
        }
        for (const other of seats) maybeAct(other);
      });
      socket.on('connect_error', (e) => { stats.errors += 1; console.error('connect_error', e.message); });
    }
  });
  starters.push(() => seats.forEach(maybeAct));
  await ready;
  return seats;
}

(async () => {
  const everySeat = [];
  for (let i = 0; i < o.games; i += 10) {
    const batch = [];
    for (let j = i; j < Math.min(o.games, i + 10); j++) batch.push(setUpMatch());
    everySeat.push(...(await Promise.all(batch)).flat());
  }
  const allDone = new Promise((resolve) => { onAllFinished = resolve; });
  const cpu0 = cpuSeconds(o.serverPid);
  const t0 = performance.now();
  stats.measuring = true;
  playing = true;
  starters.forEach((start) => start());
  await allDone;
  stats.measuring = false;
  const seconds = (performance.now() - t0) / 1000;
  const serverCpu = cpuSeconds(o.serverPid) - cpu0;
  stats.latencies.sort((a, b) => a - b);
  const q = (p) => (stats.latencies.length ? stats.latencies[Math.min(stats.latencies.length - 1, Math.round(p * (stats.latencies.length - 1)))] : 0);
  const n = stats.actions;
  console.log('RESULT ' + JSON.stringify({
    system: 'boardgame.io', games: o.games, players: o.players, actions: n, seconds: +seconds.toFixed(2),
    actions_per_s: +(n / seconds).toFixed(1), p50_ms: +q(0.5).toFixed(2), p99_ms: +q(0.99).toFixed(2),
    server_cpu_s: +serverCpu.toFixed(2), cpu_s_per_1000_actions: n ? +((serverCpu / n) * 1000).toFixed(3) : 0,
    bytes_per_seat_per_action: n ? Math.round(stats.bytes / n / o.players) : 0, errors: stats.errors }));
  for (const seat of everySeat) seat.socket.close();
  process.exit(stats.errors === 0 && n > 0 ? 0 : 1);
})().catch((e) => { console.error(e); process.exit(1); });
