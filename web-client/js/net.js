// Everything that talks to the server: the small HTTP API and the WebSocket protocol
// (docs/protocol.md). The rest of the client never builds a frame itself.
//
// The WebSocket connection reconnects by itself with exponential backoff, re-authenticates,
// re-subscribes (lobby, watched games) and resynchronises each game: every "game.update"
// carries the next seq and the change of this client's view since the seq before (a view
// delta, ./view_delta.js); a gap (missed frames), a delta that does not fit or a reconnect asks
// for a full "game.state". The static board (hex coordinates, labels, perimeter) comes once per
// game and connection ("game.board") and is merged into every view handed on (./board_data.js);
// a view for a game whose board is missing asks for it ("game.board") before it is shown.

import { needsBoard, withBoard } from './board_data.js';
import { applyViewDelta } from './view_delta.js';
import { t } from './i18n.js';
import { serverErrorText } from './errors.js';
import { answerRound, withCommitment } from './contribution.js';

const SESSION_KEY = 'viktory.session';

// ---------------------------------------------------------------------------------------------
// Session (display name + secret token), kept in localStorage.

export function loadSession() {
  try {
    const raw = localStorage.getItem(SESSION_KEY);
    if (!raw) return null;
    const session = JSON.parse(raw);
    if (session && typeof session.token === 'string' && session.token) return session;
  } catch {
    // A broken entry is treated as no session.
  }
  return null;
}

export function saveSession(session) {
  localStorage.setItem(SESSION_KEY, JSON.stringify(session));
}

export function clearSession() {
  localStorage.removeItem(SESSION_KEY);
}

// ---------------------------------------------------------------------------------------------
// HTTP API

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

async function apiFetch(path, { method = 'GET', body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
    });
  } catch {
    throw new ApiError(0, 'network', t('net.unreachable'));
  }
  let data = null;
  const text = await response.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = null;
    }
  }
  if (!response.ok) {
    const err = (data && (data.error || data)) || {};
    throw new ApiError(
      response.status,
      err.code || `http_${response.status}`,
      err.code ? serverErrorText(err.code, err.message) : err.message || t('net.requestFailed', { status: response.status }),
    );
  }
  return data;
}

export const api = {
  createSession: (name) => apiFetch('/api/session', { method: 'POST', body: { name } }),
  // The page's language, for the server's texts to this player (mails, pushes: docs/protocol.md).
  setLanguage: (token, language) => apiFetch('/api/account/language', { method: 'POST', token, body: { language } }),
  openGames: () => apiFetch('/api/games'),
  myGames: (token) => apiFetch('/api/my-games', { token }),
  game: (gameId, token, invite) =>
    apiFetch(
      `/api/games/${encodeURIComponent(gameId)}${invite ? `?invite=${encodeURIComponent(invite)}` : ''}`,
      { token },
    ),
  // One page of the replay of a finished game (docs/protocol.md): the view after action
  // `from`, then the steps up to `to` (the server may stop earlier; the page says where).
  // Views of `seat` when the token holds that seat, else the spectator's.
  replay: (gameId, token, { seat, from, to, invite } = {}) => {
    const query = new URLSearchParams();
    if (seat !== null && seat !== undefined) query.set('seat', String(seat));
    if (from !== undefined) query.set('from', String(from));
    if (to !== undefined) query.set('to', String(to));
    if (invite) query.set('invite', invite);
    const q = query.toString();
    return apiFetch(`/api/games/${encodeURIComponent(gameId)}/replay${q ? `?${q}` : ''}`, { token });
  },
  // The look back on a finished game (docs/protocol.md): {"status": "pending"} until it is done.
  analysis: (gameId, token, invite) =>
    apiFetch(`/api/games/${encodeURIComponent(gameId)}/analysis${invite ? `?invite=${encodeURIComponent(invite)}` : ''}`, { token }),
  // The computer levels' ratings, and a signed-in player's chances against them (docs/ai.md,
  // "Levels by rating").
  computerLevels: (token) => apiFetch('/api/computer-levels', { token }),
  // Players' records (docs/protocol.md, "Players' records"): the token is optional (it shows
  // the caller what his privacy allows him); `query` holds the filters and the cursor.
  ladder: (token, query) => apiFetch(`/api/ladder?${new URLSearchParams(query)}`, { token }),
  finished: (token, query) => apiFetch(`/api/finished?${new URLSearchParams(query)}`, { token }),
  player: (token, playerId) => apiFetch(`/api/players/${encodeURIComponent(playerId)}`, { token }),
  privacy: (token) => apiFetch('/api/profile/privacy', { token }),
  setPrivacy: (token, visibleTo) => apiFetch('/api/profile/privacy', { method: 'POST', token, body: { visible_to: visibleTo } }),
};

// ---------------------------------------------------------------------------------------------
// WebSocket connection

const BACKOFF_START_MS = 500;
const BACKOFF_MAX_MS = 10000;
const PING_EVERY_MS = 20000;
const SILENCE_LIMIT_MS = 45000; // no frame at all for this long: the socket is dead
const REQUEST_TIMEOUT_MS = 15000;

export class ProtocolError extends Error {
  constructor(code, message) {
    super(message || code);
    this.code = code;
  }
}

// Events (EventTarget): "status" {detail: {status, attempt}}, "welcome" {detail: msg},
// "message" {detail: msg} for every frame, "authfailed" {detail: msg}.
// status: "connecting" (first time), "online", "reconnecting", "offline" (stopped).
export class Connection extends EventTarget {
  constructor(token, { url } = {}) {
    super();
    this.token = token;
    this.url = url || defaultSocketUrl();
    this.ws = null;
    this.status = 'connecting';
    this.attempt = 0;
    this.nextReq = 1;
    this.pending = new Map(); // req -> {resolve, reject, timer}
    this.games = new Map(); // game_id -> GameChannel
    this.lobbyWanted = false;
    this.stopped = false;
    this.lastFrameAt = 0;
    this.everOnline = false;
    this.me = null;
    this.timer = null;
    this.pingTimer = null;
    this.onBrowserOnline = () => this.reconnectNow();
    window.addEventListener('online', this.onBrowserOnline);
  }

  start() {
    this.stopped = false;
    this.open();
  }

  stop() {
    this.stopped = true;
    window.removeEventListener('online', this.onBrowserOnline);
    clearTimeout(this.timer);
    clearInterval(this.pingTimer);
    if (this.ws) this.ws.close();
    this.setStatus('offline');
  }

  // Drop the socket and connect again at once (the browser came back online, or a test).
  reconnectNow() {
    if (this.stopped) return;
    this.attempt = 0;
    clearTimeout(this.timer);
    if (this.ws && this.ws.readyState === WebSocket.OPEN && this.status === 'online') return;
    if (this.ws) {
      const old = this.ws;
      this.ws = null;
      old.close();
    }
    this.open();
  }

  setStatus(status) {
    if (this.status === status) return;
    this.status = status;
    this.dispatchEvent(new CustomEvent('status', { detail: { status, attempt: this.attempt } }));
  }

  open() {
    if (this.stopped) return;
    clearTimeout(this.timer);
    this.setStatus(this.everOnline ? 'reconnecting' : 'connecting');
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch {
      this.scheduleReconnect();
      return;
    }
    this.ws = ws;
    ws.addEventListener('open', () => {
      if (this.ws !== ws) return;
      this.lastFrameAt = Date.now();
      ws.send(JSON.stringify({ type: 'auth', token: this.token }));
    });
    ws.addEventListener('message', (event) => {
      if (this.ws !== ws) return;
      this.lastFrameAt = Date.now();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return; // not ours to understand
      }
      if (msg && typeof msg === 'object') this.handle(msg);
    });
    ws.addEventListener('close', () => {
      if (this.ws !== ws) return;
      this.ws = null;
      clearInterval(this.pingTimer);
      this.failPending('disconnected', t('net.connectionLost'));
      if (!this.stopped) this.scheduleReconnect();
    });
    ws.addEventListener('error', () => {
      // "close" follows and does the work.
    });
  }

  scheduleReconnect() {
    this.attempt += 1;
    this.setStatus(this.everOnline ? 'reconnecting' : 'connecting');
    this.dispatchEvent(
      new CustomEvent('status', { detail: { status: this.status, attempt: this.attempt } }),
    );
    const base = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** (this.attempt - 1));
    const delay = base / 2 + Math.random() * (base / 2); // jitter so clients spread out
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.open(), delay);
  }

  failPending(code, message) {
    for (const [, entry] of this.pending) {
      clearTimeout(entry.timer);
      entry.reject(new ProtocolError(code, message));
    }
    this.pending.clear();
  }

  handle(msg) {
    if (msg.type === 'welcome') {
      this.me = { player_id: msg.player_id, name: msg.name };
      this.attempt = 0;
      this.everOnline = true;
      this.setStatus('online');
      this.startHeartbeat();
      // Resubscribe: whatever happened while we were away arrives as full states.
      if (this.lobbyWanted) this.sendRaw({ type: 'lobby.subscribe', ...(this.lobbyPage || {}) });
      for (const channel of this.games.values()) channel.resync();
      this.dispatchEvent(new CustomEvent('welcome', { detail: msg }));
    } else if (msg.type === 'error' && msg.code === 'auth_failed') {
      // The token is not (or no longer) known to the server: a new session is needed.
      this.stop();
      this.dispatchEvent(new CustomEvent('authfailed', { detail: msg }));
      return;
    }
    // Every message a request caused arrives before its "ack" (docs/protocol.md), so the
    // messages seen while a request is pending are handed to it with the ack.
    for (const entry of this.pending.values()) entry.seen.push(msg);
    if (msg.req !== undefined && this.pending.has(msg.req) &&
        (msg.type === 'ack' || msg.type === 'error')) {
      const entry = this.pending.get(msg.req);
      this.pending.delete(msg.req);
      clearTimeout(entry.timer);
      if (msg.type === 'error') {
        const err = new ProtocolError(msg.code, serverErrorText(msg.code, msg.message));
        err.reason = msg.reason;
        if (msg.server !== undefined) err.server = msg.server; // game_elsewhere (./elsewhere.js)
        entry.reject(err);
      } else {
        entry.resolve({ ack: msg, seen: entry.seen });
      }
    }
    // Fair play's reveal round is answered wherever the player is (lobby, another game).
    if (msg.type === 'game.commit_request' || msg.type === 'game.reveal_request') answerRound(this, msg);
    if (msg.game_id !== undefined && this.games.has(Number(msg.game_id))) {
      this.games.get(Number(msg.game_id)).handle(msg);
    }
    this.dispatchEvent(new CustomEvent('message', { detail: msg }));
  }

  startHeartbeat() {
    clearInterval(this.pingTimer);
    this.pingTimer = setInterval(() => {
      if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return;
      if (Date.now() - this.lastFrameAt > SILENCE_LIMIT_MS) {
        // Half-open TCP connection: no pong for a long time. Start over.
        const dead = this.ws;
        this.ws = null;
        dead.close();
        this.scheduleReconnect();
        return;
      }
      this.sendRaw({ type: 'ping' });
    }, PING_EVERY_MS);
  }

  sendRaw(obj) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(obj));
    return true;
  }

  isOnline() {
    return this.status === 'online' && this.ws && this.ws.readyState === WebSocket.OPEN;
  }

  // Sends a request; resolves at its "ack" with {ack, seen: [messages received meanwhile]},
  // rejects with a ProtocolError at its "error".
  request(type, payload = {}) {
    // Taking a seat commits to this browser's contribution to the game's luck
    // (./contribution.js): the commitment is hashed first.
    if ((type === 'game.create' || type === 'game.join') && !('contribution_commitment' in payload) && this.isOnline()) {
      return withCommitment(type, payload).then((withIt) => this.request(type, { ...withIt, contribution_commitment: withIt.contribution_commitment || null }));
    }
    if (!this.isOnline()) {
      return Promise.reject(
        new ProtocolError('offline', t('net.notConnected')),
      );
    }
    const req = this.nextReq++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(req);
        reject(new ProtocolError('timeout', t('net.timeout')));
      }, REQUEST_TIMEOUT_MS);
      this.pending.set(req, { resolve, reject, timer, seen: [] });
      this.sendRaw({ ...payload, type, req });
    });
  }

  // `page`: which page of the open list to watch ({speed, offset, limit}, docs/protocol.md);
  // subscribing again replaces it.
  subscribeLobby(page = {}) {
    this.lobbyWanted = true;
    this.lobbyPage = page;
    if (this.isOnline()) this.sendRaw({ type: 'lobby.subscribe', ...page });
  }

  unsubscribeLobby() {
    this.lobbyWanted = false;
    if (this.isOnline()) this.sendRaw({ type: 'lobby.unsubscribe' });
  }

  // The channel of one game: watching it keeps a full, current copy of what we may see.
  watchGame(gameId, invite) {
    gameId = Number(gameId);
    let channel = this.games.get(gameId);
    if (!channel) {
      channel = new GameChannel(this, gameId);
      this.games.set(gameId, channel);
    }
    if (invite) channel.invite = invite;
    if (this.isOnline()) channel.resync();
    return channel;
  }

  unwatchGame(gameId) {
    gameId = Number(gameId);
    const channel = this.games.get(gameId);
    if (!channel) return;
    this.games.delete(gameId);
    if (this.isOnline()) this.sendRaw({ type: 'game.unwatch', game_id: gameId });
  }
}

function defaultSocketUrl() {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${location.host}/ws`;
}

// One game as seen by this client. Events (EventTarget):
//  "state"  {detail: {state, events}}: the whole current state changed (full or update);
//  "seats"  {detail: msg}: seats/status of the game changed;
//  "chat"   {detail: msg}: a chat line arrived (msg.channel: "players" or "spectators");
//  "notice" {detail: msg}: the server reloaded the game after a storage failure, or cannot
//           show it for now (msg.code "storage_error" / "game_unavailable");
//  "error"  {detail: msg}: an error frame about this game without a pending request.
// state = {game_id, seq, you, view, legal, can_undo, log:[{seq,text}], chat:[...]}.
export class GameChannel extends EventTarget {
  constructor(connection, gameId) {
    super();
    this.conn = connection;
    this.gameId = gameId;
    this.state = null;
    this.seats = null;
    this.chat = [];
    this.resyncing = false;
    this.invite = null; // private games: lets a spectator or joiner watch
    this.board = null; // the static board (game.board), merged into every view
    this.heldForBoard = null; // a game.state that waits for its board
    this.updatesAfterHeld = []; // game.update messages that came after it, applied after it
    this.boardAsked = false;
    this.boardJustArrived = false;
  }

  get seq() {
    return this.state ? this.state.seq : -1;
  }

  resync() {
    this.resyncing = true;
    const msg = { game_id: this.gameId };
    if (this.invite) msg.invite = this.invite;
    this.conn.request('game.watch', msg).catch((err) => {
      // A lost connection resyncs again on reconnect; anything else (no such game, private
      // game without invitation) is for the page to show.
      if (!['offline', 'disconnected', 'timeout'].includes(err.code)) {
        this.emit('error', { code: err.code, message: err.message, server: err.server });
      }
    });
  }

  // Asks for the board again (the server sends it once per connection; this one is missing
  // or is not the one the view goes with). A failure resyncs, which asks again.
  requestBoard() {
    if (this.boardAsked) return;
    this.boardAsked = true;
    this.conn.request('game.board', { game_id: this.gameId }).then(
      () => {
        this.boardAsked = false;
      },
      (err) => {
        this.boardAsked = false;
        this.heldForBoard = null;
        this.updatesAfterHeld = [];
        if (['offline', 'disconnected', 'timeout'].includes(err.code)) return; // reconnect resyncs
        this.resync();
      },
    );
  }

  // The view with the board merged in, or null when the board is needed and missing (it is
  // asked for then).
  merged(view, boardId) {
    if (boardId !== undefined && this.board && this.board.id !== boardId) this.board = null;
    if (!needsBoard(view)) return view;
    if (this.board) {
      try {
        return withBoard(view, this.board);
      } catch {
        // The board the server just sent does not fit either: show the view as it is rather
        // than ask again and again.
        if (this.boardJustArrived) return view;
        this.board = null; // not this view's board
      }
    }
    this.requestBoard();
    return null;
  }

  handle(msg) {
    switch (msg.type) {
      case 'game.board': {
        this.board = msg.board;
        const held = this.heldForBoard;
        const after = this.updatesAfterHeld;
        this.heldForBoard = null;
        this.updatesAfterHeld = [];
        this.boardJustArrived = true;
        try {
          if (held) this.handle(held);
        } finally {
          this.boardJustArrived = false;
        }
        // The updates sent after the held state are not in it: apply them in order now.
        if (held) for (const update of after) this.handle(update);
        break;
      }
      case 'game.state': {
        const view = this.merged(msg.view, msg.board);
        if (view === null) {
          this.heldForBoard = msg; // shown when the board arrives
          this.updatesAfterHeld = [];
          return;
        }
        this.resyncing = false;
        this.chat = Array.isArray(msg.chat) ? msg.chat.slice() : this.chat;
        this.state = {
          game_id: msg.game_id,
          seq: msg.seq,
          you: msg.you || { seat: null },
          view,
          legal: msg.legal || [],
          can_undo: !!msg.can_undo,
          log: Array.isArray(msg.log) ? msg.log.slice() : [],
          chat: this.chat,
        };
        this.emit('state', { state: this.state, events: [], full: true });
        break;
      }
      case 'game.update': {
        if (this.heldForBoard) {
          // The held state was sent before this update, so it does not include it: keep the
          // update for when the board arrives (a few at most; beyond that start again).
          if (this.updatesAfterHeld.length < 64) this.updatesAfterHeld.push(msg);
          else this.resync();
          return;
        }
        if (!this.state || this.resyncing) {
          if (!this.resyncing) this.resync();
          return; // the full state we asked for will include this update
        }
        if (msg.seq <= this.state.seq) return; // already seen
        if (msg.seq !== this.state.seq + 1) {
          this.resync(); // a gap: some update was lost
          return;
        }
        // The server sends the change of our view (or, rarely, the whole view).
        let view = msg.view;
        if (view === undefined) {
          try {
            view = applyViewDelta(this.state.view, msg.delta);
          } catch {
            this.resync(); // it does not fit what we hold: start again from a full state
            return;
          }
        }
        // The hexes the update sent lack the board's fields: put them back.
        view = this.merged(view);
        if (view === null) {
          this.resync(); // the board is asked for; the full state follows it
          return;
        }
        const log = this.state.log.concat(Array.isArray(msg.log) ? msg.log : []);
        this.state = {
          ...this.state,
          seq: msg.seq,
          view,
          legal: msg.legal || [],
          can_undo: !!msg.can_undo,
          you: msg.you || this.state.you,
          log,
        };
        this.emit('state', { state: this.state, events: msg.events || [], full: false });
        break;
      }
      case 'game.seats':
        this.seats = msg;
        this.emit('seats', msg);
        break;
      case 'chat':
        this.chat = this.chat.concat([msg]);
        if (this.state) this.state.chat = this.chat;
        this.emit('chat', msg);
        break;
      case 'chat.hidden':
        // An operator hid a line (docs/protocol.md, "Chat comforts"): it leaves the page.
        this.chat = this.chat.filter((m) => m.id !== msg.id);
        if (this.state) this.state.chat = this.chat;
        this.emit('chat', msg);
        break;
      case 'game.reveal':
        // Fair play: the game is over and its secret is public (./fair_play.js).
        this.emit('reveal', msg);
        break;
      case 'game.clock':
        // The game's clock (seats/clocks): deadline, stage, skips, its log lines.
        this.clock = { ...msg.clock, received_at: Date.now() };
        this.emit('clock', { clock: this.clock, line: msg.line });
        break;
      case 'game.notice':
        // The server had to reload the game (or cannot show it for now): say so.
        this.emit('notice', { ...msg, message: serverErrorText(msg.code, msg.message) });
        break;
      case 'error':
        // After "stale" the server sends a fresh game.state by itself.
        if (msg.req === undefined) this.emit('error', { ...msg, message: serverErrorText(msg.code, msg.message) });
        break;
      default:
        break;
    }
  }

  emit(name, detail) {
    this.dispatchEvent(new CustomEvent(name, { detail }));
  }

  // Sends one action of the legal list; the server answers with a game.update (or an error).
  act(action) {
    const p = this.conn.request('game.action', {
      game_id: this.gameId,
      seq: this.seq,
      action,
    });
    return p;
  }

  undo() {
    return this.conn.request('game.undo', { game_id: this.gameId, seq: this.seq });
  }

  sendChat(text) {
    return this.conn.request('chat.send', { game_id: this.gameId, text });
  }

  join(seat, invite) {
    const payload = { game_id: this.gameId };
    if (seat !== undefined && seat !== null) payload.seat = seat;
    if (invite) payload.invite = invite;
    return this.conn.request('game.join', payload);
  }

  leave() {
    return this.conn.request('game.leave', { game_id: this.gameId });
  }

  start() {
    return this.conn.request('game.start', { game_id: this.gameId });
  }

  // A new invitation code for a private game (its creator only); the old one stops working.
  // Resolves with the code.
  async newInvite() {
    const { seen } = await this.conn.request('game.invite', { game_id: this.gameId });
    const answer = seen.filter((m) => m.type === 'game.invite').pop();
    if (!answer) throw new ProtocolError('internal', t('net.noInvitation'));
    this.invite = answer.invite;
    return answer.invite;
  }
}
