// The game page: the map, what to do now, the players, the battle, log and chat.
//
// The page is thin: the server's view says what is on the table, the server's "legal" list says
// what this player may do. Every highlight and button below is made from that list; the page
// never decides a rule. (The one display convention it knows is that a die of 3 or less is a
// hit [10.1], to colour dice faces.)

import { Board, HIGHLIGHT_STYLE, describeHex, diceRow } from './board.js';
import { DecisionCard, confirmDialog, choiceDialog, modal } from './dialogs.js';
import {
  h,
  seatStyle,
  toast,
  plural,
  timeAgo,
  UNIT_NAME,
  UNIT_LETTER,
  UNIT_TYPES,
  TERRAIN_NAME,
  PHASE_NAME,
  VICTORY_NAME,
  TILE_MIX_NAME,
} from './util.js';

const UNIT_ACTION_KINDS = new Set(['move', 'embark', 'disembark', 'bombard']);
const HEX_ACTION_KINDS = new Set(['place_capital', 'build_town', 'upgrade_city', 'start_battle']);

// Splits the legal actions by how the player reaches them in the UI.
export function classifyLegal(legal) {
  const c = {
    unit: new Map(), // unit id -> [move/embark/disembark/bombard]
    hex: new Map(), // hex -> [place_capital/build_town/upgrade_city/start_battle]
    place: new Map(), // unit type -> [place_reserve]
    casualty: [],
    retreat: [],
    eliminate: [],
    continueBattle: null,
    endPhase: null,
    concede: null,
    count: 0,
  };
  const push = (map, key, a) => {
    if (!map.has(key)) map.set(key, []);
    map.get(key).push(a);
  };
  for (const a of legal || []) {
    if (UNIT_ACTION_KINDS.has(a.kind)) push(c.unit, a.unit, a);
    else if (HEX_ACTION_KINDS.has(a.kind)) push(c.hex, a.hex, a);
    else if (a.kind === 'place_reserve') push(c.place, a.unit_type, a);
    else if (a.kind === 'choose_casualty') c.casualty.push(a);
    else if (a.kind === 'retreat') c.retreat.push(a);
    else if (a.kind === 'eliminate_unit') c.eliminate.push(a);
    else if (a.kind === 'continue_battle') c.continueBattle = a;
    else if (a.kind === 'end_phase') c.endPhase = a;
    else if (a.kind === 'concede') c.concede = a;
    if (a.kind !== 'concede') c.count += 1;
  }
  return c;
}

export function mountGame(root, ctx, { gameId, invite }) {
  const page = new GamePage(root, ctx, Number(gameId), invite);
  page.start();
  return page;
}

class GamePage {
  constructor(root, ctx, gameId, invite) {
    this.root = root;
    this.ctx = ctx;
    this.gameId = gameId;
    this.invite = invite || loadInvite(gameId);
    this.channel = ctx.channel || ctx.conn.watchGame(gameId, this.invite);
    this.state = null;
    this.seats = this.channel.seats;
    this.ui = {
      selectedUnit: null,
      selectedHex: null,
      mode: null, // null | 'build_town' | 'upgrade_city' | 'place:<type>'
      hoverHex: null,
      previewHex: null,
      busy: false,
    };
    this.trails = [];
    this.lastRoll = null;
    this.gameOverShown = false;
    this.wasMyMove = false;
    this.listeners = [];
  }

  start() {
    this.build();
    this.on(this.channel, 'state', (e) => this.onState(e.detail));
    this.on(this.channel, 'seats', (e) => {
      this.seats = e.detail;
      this.render();
    });
    this.on(this.channel, 'chat', () => this.renderChat());
    this.on(this.channel, 'notice', (e) => {
      if (e.detail.code === 'game_unavailable') {
        this.fatal = e.detail.message;
        this.state = null;
        this.render();
      }
      toast(e.detail.message, 'error');
    });
    this.on(this.channel, 'error', (e) => {
      const code = e.detail.code;
      const fatal = {
        // A private game without its invitation answers like a game that does not exist.
        not_found: 'There is no such game. (A private game needs its invitation link.)',
        forbidden: 'This game is private: you need its invitation link to see it.',
        no_spectators: 'The creator of this game allows no spectators while it runs. Come back for the replay when it is over.',
        game_damaged: "This game's stored data is damaged, so the server cannot open it.",
        game_unavailable: "The server's storage failed; this game is unavailable for now. Try again later.",
      }[code];
      if (fatal && (!this.state || code === 'no_spectators')) {
        this.fatal = fatal;
        this.state = null;
        this.render();
        return;
      }
      toast(e.detail.message || code, 'error');
    });
    if (this.channel.state) this.onState({ state: this.channel.state, events: [], full: true });
    else this.render();
  }

  on(target, name, fn) {
    target.addEventListener(name, fn);
    this.listeners.push(() => target.removeEventListener(name, fn));
  }

  destroy() {
    for (const off of this.listeners) off();
    this.card.hide();
    if (!this.ctx.channel && this.ctx.conn) this.ctx.conn.unwatchGame(this.gameId);
    document.title = 'VIKTORY II';
  }

  // ----------------------------------------------------------------------------------------
  // Skeleton

  build() {
    this.els = {};
    const e = this.els;
    e.prompt = h('div', { class: 'prompt', id: 'prompt', 'aria-live': 'polite' });
    e.actions = h('div', { class: 'action-bar', id: 'action-bar' });
    e.mapWrap = h('div', { class: 'map-wrap', id: 'map' });
    e.hover = h('div', { class: 'hover-info', id: 'hover-info' });
    e.zoom = h(
      'div',
      { class: 'zoom-controls' },
      h('button', { type: 'button', class: 'btn btn-small', title: 'Zoom in', 'aria-label': 'Zoom in', onclick: () => this.board.setZoom(this.board.zoom * 1.4) }, '+'),
      h('button', { type: 'button', class: 'btn btn-small', title: 'Zoom out', 'aria-label': 'Zoom out', onclick: () => this.board.setZoom(this.board.zoom / 1.4) }, '−'),
      h('button', { type: 'button', class: 'btn btn-small', title: 'Whole map', onclick: () => this.board.setZoom(1) }, 'Fit'),
      h(
        'label',
        { class: 'coords-toggle' },
        h('input', { type: 'checkbox', onchange: (ev) => this.board.setShowCoords(ev.target.checked) }),
        ' labels',
      ),
    );
    e.cardHost = h('div', { class: 'card-host' });
    e.mapPane = h('section', { class: 'map-pane' }, e.prompt, e.actions, h('div', { class: 'map-frame' }, e.mapWrap, e.zoom, e.hover, e.cardHost));
    e.players = h('div', { class: 'panel players-panel', id: 'players' });
    e.selection = h('div', { class: 'panel selection-panel', id: 'selection' });
    e.battle = h('div', { class: 'panel battle-panel', id: 'battle' });
    e.log = h('ol', { class: 'log-list', id: 'log' });
    e.chatList = h('ol', { class: 'chat-list', id: 'chat' });
    e.chatInput = h('input', { type: 'text', maxlength: 500, placeholder: 'Say something…', 'aria-label': 'Chat message', id: 'chat-input' });
    e.chatForm = h(
      'form',
      {
        class: 'chat-form',
        onsubmit: (ev) => {
          ev.preventDefault();
          this.sendChat();
        },
      },
      e.chatInput,
      h('button', { type: 'submit', class: 'btn btn-small' }, 'Send'),
    );
    e.meta = h('div', { class: 'panel meta-panel', id: 'meta' });
    e.side = h(
      'aside',
      { class: 'side' },
      e.players,
      e.selection,
      e.battle,
      h('details', { class: 'panel log-panel', open: true }, h('summary', {}, 'Game log'), e.log),
      h('details', { class: 'panel chat-panel', open: true }, (e.chatTitle = h('summary', { id: 'chat-title' }, 'Chat')), e.chatList, e.chatForm),
      e.meta,
    );
    e.waiting = h('section', { class: 'waiting-room', id: 'waiting' });
    e.pageGrid = h('div', { class: 'game-page' }, e.mapPane, e.side);
    this.root.replaceChildren(e.waiting, e.pageGrid);
    this.board = new Board(e.mapWrap, {
      onHexClick: (hex) => this.onHexClick(hex),
      onHexHover: (hex) => {
        this.ui.hoverHex = hex;
        this.renderHover();
      },
    });
    this.card = new DecisionCard(e.cardHost);
    // For tests and curious players: the page's current data (never more than the server sent).
    window.__viktoryGame = this;
  }

  // ----------------------------------------------------------------------------------------
  // State

  onState({ state, events, full }) {
    const prevTurn = this.state ? this.state.view.turn : null;
    const prevSeq = this.state ? this.state.seq : null;
    // A game that was already over when the page opened needs no "game over" announcement.
    if (!this.state && state.view.phase === 'game_over') this.gameOverShown = true;
    // After an undo the trails of the taken-back moves must go.
    if (full && prevSeq !== null && state.seq < prevSeq) this.trails = [];
    this.state = state;
    this.absorbEvents(events || [], full);
    if (prevTurn !== null && state.view.turn !== prevTurn) this.trails = [];
    const c = classifyLegal(state.legal);
    // Keep a selection only while it can still do something.
    if (this.ui.selectedUnit !== null && !c.unit.has(this.ui.selectedUnit)) this.ui.selectedUnit = null;
    const active = state.view.active_unit;
    if (active !== undefined && active >= 0 && c.unit.has(active)) this.ui.selectedUnit = active;
    if (this.ui.mode === 'build_town' && ![...c.hex.values()].flat().some((a) => a.kind === 'build_town')) this.ui.mode = null;
    if (this.ui.mode === 'upgrade_city' && ![...c.hex.values()].flat().some((a) => a.kind === 'upgrade_city')) this.ui.mode = null;
    if (this.ui.mode && this.ui.mode.startsWith('place:') && !c.place.has(this.ui.mode.slice(6))) this.ui.mode = null;
    this.render();
    this.notifyIfMyMove(c);
  }

  absorbEvents(events, full) {
    if (full) return;
    for (const ev of events) {
      if (ev.kind === 'turn_started') this.trails = [];
      if ((ev.kind === 'unit_moved' || ev.kind === 'unit_retreated' || ev.kind === 'unit_disembarked' || ev.kind === 'unit_embarked') && ev.from_hex >= 0 && ev.hex >= 0 && ev.from_hex !== ev.hex) {
        this.trails.push({ from: ev.from_hex, to: ev.hex, owner: ev.player });
        if (this.trails.length > 40) this.trails.shift();
      }
      if (ev.kind === 'dice_rolled' && Array.isArray(ev.dice)) {
        this.lastRoll = { player: ev.player, hex: ev.hex, dice: ev.dice, purpose: ev.purpose, seq: this.state.seq };
      }
    }
  }

  get view() {
    return this.state ? this.state.view : null;
  }

  get mySeat() {
    return this.state && this.state.you ? this.state.you.seat : this.seatFromSeats();
  }

  seatFromSeats() {
    if (!this.seats || !this.ctx.session) return null;
    const mine = this.seats.seats.find((x) => x.player_id === this.ctx.session.player_id);
    return mine ? mine.seat : null;
  }

  playerName(seat) {
    const st = seatStyle(seat);
    const entry = this.seats && this.seats.seats ? this.seats.seats.find((x) => x.seat === seat) : null;
    return entry && entry.name ? entry.name : st.name;
  }

  // A name with its colour swatch and colour word (never colour alone).
  who(seat) {
    const st = seatStyle(seat);
    const you = seat === this.mySeat ? ' (you)' : '';
    return h(
      'span',
      { class: 'who' },
      h('span', { class: 'swatch', style: `background:${st.fill};border-color:${st.edge}` }),
      h('b', {}, this.playerName(seat)),
      h('span', { class: 'who-color' }, ` ${st.name}${you}`),
    );
  }

  whoText(seat) {
    return seat === this.mySeat ? 'You' : `${this.playerName(seat)} (${seatStyle(seat).name})`;
  }

  unitsById() {
    const m = new Map();
    for (const u of this.view.units) m.set(u.id, u);
    return m;
  }

  hexInfo(hex) {
    return this.view.hexes.find((x) => x.hex === hex) || null;
  }

  label(hex) {
    const hx = this.hexInfo(hex);
    return hx ? hx.label : `#${hex}`;
  }

  // Something of another player stands there (for choosing an icon only).
  enemyAt(hex) {
    const me = this.mySeat;
    const hx = this.hexInfo(hex);
    if (hx && hx.town_owner !== undefined && hx.town_owner >= 0 && hx.town_owner !== me) return true;
    return this.view.units.some((u) => u.place === 'map' && u.hex === hex && u.owner !== me);
  }

  targetHex(action, units) {
    if (action.kind === 'embark') {
      const carrier = units.get(action.carrier);
      return carrier ? carrier.hex : -1;
    }
    return action.hex;
  }

  // ----------------------------------------------------------------------------------------
  // Rendering

  render() {
    const status = this.seats ? this.seats.status : null;
    const started = !!this.state;
    this.els.waiting.hidden = started;
    this.els.pageGrid.hidden = !started;
    if (!started) {
      this.renderWaitingRoom(status);
      document.title = 'VIKTORY II';
      return;
    }
    const c = classifyLegal(this.state.legal);
    this.renderBoard(c);
    this.renderPrompt(c);
    this.renderActions(c);
    this.renderPlayers();
    this.renderSelection(c);
    this.renderBattle();
    this.renderLog();
    this.renderChat();
    this.renderMeta(c);
    this.renderDecision(c);
    this.renderHover();
    this.renderGameOver();
    document.title = `${this.isMyMove(c) ? '▶ Your move · ' : ''}VIKTORY II · Game ${this.gameId}`;
  }

  isMyMove(c) {
    return this.view.phase !== 'game_over' && this.mySeat !== null && this.view.decider === this.mySeat && c.count > 0;
  }

  notifyIfMyMove(c) {
    const mine = this.isMyMove(c);
    if (mine && !this.wasMyMove && document.hidden && 'Notification' in window && Notification.permission === 'granted') {
      try {
        const n = new Notification('VIKTORY II: your move', { body: `Game ${this.gameId}: ${PHASE_NAME[this.view.phase] || ''}`, tag: `viktory-${this.gameId}` });
        n.onclick = () => window.focus();
      } catch {
        // Some browsers only allow notifications from a service worker; the title still shows it.
      }
    }
    this.wasMyMove = mine;
  }

  // Which hexes light up, and as what.
  highlights(c) {
    const map = new Map();
    const units = this.unitsById();
    const mode = this.ui.mode;
    if (mode && mode.startsWith('place:')) {
      for (const a of c.place.get(mode.slice(6)) || []) map.set(a.hex, 'place');
      return map;
    }
    if (this.ui.selectedUnit !== null) {
      for (const a of c.unit.get(this.ui.selectedUnit) || []) {
        const hex = this.targetHex(a, units);
        if (hex < 0) continue;
        let kind = a.kind;
        if (a.kind === 'move' || a.kind === 'disembark') kind = this.enemyAt(hex) ? 'battle' : a.kind === 'move' ? 'move' : 'disembark';
        // A bombard target outranks a plain move mark on the same hex: both stay reachable
        // through the chooser on click.
        if (!map.has(hex) || kind === 'bombard') map.set(hex, kind);
      }
    }
    for (const [hex, acts] of c.hex) {
      if (map.has(hex)) continue;
      for (const a of acts) {
        if (mode === 'build_town' && a.kind !== 'build_town') continue;
        if (mode === 'upgrade_city' && a.kind !== 'upgrade_city') continue;
        const kind = { place_capital: 'capital', build_town: 'build', upgrade_city: 'upgrade', start_battle: 'start_battle' }[a.kind];
        map.set(hex, kind);
      }
    }
    if (!mode && this.ui.selectedUnit === null) {
      for (const acts of c.place.values()) for (const a of acts) if (!map.has(a.hex)) map.set(a.hex, 'place');
    }
    for (const a of c.retreat) if (!map.has(a.hex)) map.set(a.hex, 'retreat');
    if (this.ui.previewHex !== null && this.ui.previewHex !== undefined) map.set(this.ui.previewHex, 'choice');
    return map;
  }

  renderBoard(c) {
    const view = this.view;
    const actionableUnits = new Set(c.unit.keys());
    const actionable = new Set();
    const units = this.unitsById();
    for (const id of actionableUnits) {
      const u = units.get(id);
      if (u && u.place === 'map') actionable.add(u.hex);
    }
    const selected = this.ui.selectedUnit !== null ? units.get(this.ui.selectedUnit) : null;
    this.board.render(view, {
      highlights: this.highlights(c),
      selectedHex: selected ? selected.hex : this.ui.selectedHex,
      selectedUnit: this.ui.selectedUnit,
      actionable,
      actionableUnits,
      moves: this.trails,
      battleHex: view.battle ? view.battle.hex : view.bombard ? view.bombard.hex : null,
      pendingBattles: view.pending_battles || [],
    });
  }

  renderPrompt(c) {
    const view = this.view;
    const me = this.mySeat;
    const p = this.els.prompt;
    p.replaceChildren();
    p.className = 'prompt';
    const phaseLine = h(
      'div',
      { class: 'phase-line' },
      view.phase === 'setup' ? '' : `Turn ${view.turn} · `,
      PHASE_NAME[view.phase] || view.phase,
      view.phase === 'game_over' ? '' : [' · playing: ', this.who(view.current)],
    );
    let title;
    let text = '';
    if (view.phase === 'game_over') {
      p.classList.add('over');
      title = this.resultText();
      text = 'The game is over. You can watch the replay step by step.';
    } else if (this.isMyMove(c)) {
      p.classList.add('mine');
      ({ title, text } = this.instructions(c));
    } else if (me === null) {
      title = 'You are watching this game.';
      text = `Waiting for ${this.whoText(view.decider)}.`;
    } else {
      title = `Waiting for ${this.whoText(view.decider)}`;
      text = this.waitingReason();
    }
    p.append(phaseLine, h('div', { class: 'prompt-title', id: 'prompt-title' }, title), text ? h('div', { class: 'prompt-text' }, text) : null);
  }

  resultText() {
    const w = this.view.winners || [];
    const how = VICTORY_NAME[this.view.ended_by] || this.view.ended_by;
    if (w.length === 0) return `Game over (${how}).`;
    const names = w.map((s) => this.whoText(s));
    const verb = w.length === 1 && w[0] === this.mySeat ? 'win' : w.length === 1 ? 'wins' : 'win';
    return `${names.join(' and ')} ${verb} — ${how}.`;
  }

  waitingReason() {
    const view = this.view;
    if (view.battle) return `Battle at ${this.label(view.battle.hex)}: ${stageText(view.battle.stage)}.`;
    if (view.bombard) return `Bombardment of ${this.label(view.bombard.hex)}: hits are being assigned.`;
    if (view.elimination) return `${this.whoText(view.elimination.player)} must return units to stock after losing a Town.`;
    if (view.phase === 'setup') return 'Players place their Capitals in turn.';
    return `${PHASE_NAME[view.phase] || view.phase}.`;
  }

  instructions(c) {
    const view = this.view;
    if (c.casualty.length) return { title: 'Choose a casualty', text: 'Make your choice in the box at the bottom of the map.' };
    if (c.continueBattle || c.retreat.length) return { title: 'Retreat or fight on?', text: 'Make your choice in the box at the bottom of the map.' };
    if (c.eliminate.length) return { title: 'Return units to stock', text: 'You lost a Town or City: choose the units it supported.' };
    const hexKinds = new Set([...c.hex.values()].flat().map((a) => a.kind));
    if (hexKinds.has('place_capital')) return { title: 'Place your Capital', text: 'Click one of the highlighted hexes (★).' };
    if (view.phase === 'build') {
      const parts = [];
      if (hexKinds.has('build_town')) parts.push('build a Town (house mark)');
      if (hexKinds.has('upgrade_city')) parts.push('upgrade a Town to a City (tower mark)');
      if (parts.length) return { title: 'Your Build phase', text: `Click a highlighted hex to ${parts.join(' or ')} — or end the Build phase.` };
      return { title: 'Your Build phase', text: 'Nothing to build now. End the Build phase to move your units.' };
    }
    if (view.phase === 'movement') {
      const battles = [...c.hex.values()].flat().filter((a) => a.kind === 'start_battle').length;
      const selected = this.ui.selectedUnit !== null ? this.unitsById().get(this.ui.selectedUnit) : null;
      if (selected) {
        return { title: `${UNIT_NAME[selected.type]} selected`, text: 'Click a highlighted hex to act with it, or click another of your units.' };
      }
      let text = c.unit.size ? 'Click one of your units (dashed outline) to see where it can go.' : 'No unit can move any more.';
      if (battles) text += ` ${plural(battles, 'battle')} to fight: click a ⚔ hex or a “Fight” button.`;
      else text += ' End the phase when you are done.';
      return { title: 'Move and fight', text };
    }
    if (view.phase === 'reserve') {
      if (c.place.size) return { title: 'Place your Reserve', text: 'Click a highlighted hex (+) to place a unit there, or pick a type first. Units you keep stay in the Reserve.' };
      return { title: 'Reserve placement', text: 'Nothing to place. End your turn.' };
    }
    return { title: 'Your move', text: '' };
  }

  renderActions(c) {
    const bar = this.els.actions;
    bar.replaceChildren();
    const view = this.view;
    if (view.phase === 'game_over') {
      bar.append(h('a', { class: 'btn btn-primary', href: `#/replay/${this.gameId}` }, 'Watch the replay'), h('a', { class: 'btn', href: '#/' }, 'Back to the lobby'));
      return;
    }
    const mine = this.isMyMove(c);
    const hexActs = [...c.hex.values()].flat();
    const modeBtn = (mode, label, count) =>
      h(
        'button',
        {
          type: 'button',
          class: `btn${this.ui.mode === mode ? ' btn-active' : ''}`,
          'aria-pressed': this.ui.mode === mode ? 'true' : 'false',
          onclick: () => {
            this.ui.mode = this.ui.mode === mode ? null : mode;
            this.ui.selectedUnit = null;
            this.render();
          },
        },
        label,
        count !== undefined ? h('span', { class: 'badge' }, String(count)) : null,
      );
    if (mine) {
      const towns = hexActs.filter((a) => a.kind === 'build_town').length;
      const cities = hexActs.filter((a) => a.kind === 'upgrade_city').length;
      if (towns) bar.append(modeBtn('build_town', 'Build Town', towns));
      if (cities) bar.append(modeBtn('upgrade_city', 'Upgrade to City', cities));
      for (const a of hexActs.filter((x) => x.kind === 'start_battle')) {
        bar.append(
          h('button', { type: 'button', class: 'btn btn-danger', dataset: { battleHex: a.hex }, onclick: () => this.send(a) }, `⚔ Fight at ${this.label(a.hex)}`),
        );
      }
      for (const type of UNIT_TYPES) {
        if (!c.place.has(type)) continue;
        const have = this.view.players[this.mySeat] ? this.view.players[this.mySeat].reserve[type] : '';
        bar.append(modeBtn(`place:${type}`, `Place ${UNIT_NAME[type]}`, have));
      }
      if (c.endPhase) {
        const label = { build: 'End Build phase', movement: 'End Movement phase', reserve: 'End turn', setup: 'Done' }[view.phase] || 'End phase';
        bar.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'end-phase', onclick: () => this.endPhase(c) }, label));
      }
    }
    if (this.mySeat !== null) {
      bar.append(
        h(
          'button',
          {
            type: 'button',
            class: 'btn',
            id: 'undo',
            disabled: !this.state.can_undo || this.ui.busy,
            title: this.state.can_undo ? 'Take back your last action' : 'Nothing to undo (revealed tiles and dice cannot be taken back)',
            onclick: () => this.undo(),
          },
          '↶ Undo',
        ),
      );
    }
  }

  renderPlayers() {
    const view = this.view;
    const panel = this.els.players;
    const opts = view.options || {};
    panel.replaceChildren(
      h('h2', {}, `Game ${this.gameId}`, h('span', { class: 'subtle' }, ` · ${VICTORY_NAME[opts.victory] || opts.victory || ''}${opts.independent_exploration ? ' · independent exploration' : ''}`)),
    );
    const list = h('ol', { class: 'player-list' });
    // Turn order: clockwise from the first player [4.0].
    const n = view.players.length;
    for (let k = 0; k < n; k += 1) {
      const seat = (view.first_player + k) % n;
      const p = view.players[seat];
      if (!p) continue;
      const st = seatStyle(seat);
      const flags = [];
      if (view.current === seat && view.phase !== 'game_over') flags.push(h('span', { class: 'tag tag-turn' }, 'turn'));
      if (view.decider === seat && view.decider !== view.current) flags.push(h('span', { class: 'tag tag-decide' }, 'deciding'));
      if (p.eliminated) flags.push(h('span', { class: 'tag tag-out' }, 'eliminated'));
      if (p.conceded) flags.push(h('span', { class: 'tag tag-out' }, 'conceded'));
      if (p.capital_hex >= 0 && !p.holds_capital && !p.eliminated) flags.push(h('span', { class: 'tag tag-warn' }, 'capital lost'));
      if (p.doomsday_coin) flags.push(h('span', { class: 'tag' }, 'doomsday coin'));
      if ((view.winners || []).includes(seat)) flags.push(h('span', { class: 'tag tag-win' }, 'winner'));
      const reserve = UNIT_TYPES.filter((t) => p.reserve && p.reserve[t] > 0).map((t) =>
        h('span', { class: 'mini-counter', style: `background:${st.fill};color:${st.ink};border-color:${st.edge}`, title: `${p.reserve[t]} ${UNIT_NAME[t]} in Reserve` }, `${UNIT_LETTER[t]}×${p.reserve[t]}`),
      );
      list.append(
        h(
          'li',
          { class: `player${view.current === seat ? ' current' : ''}${p.eliminated || p.conceded ? ' out' : ''}`, dataset: { seat } },
          h('div', { class: 'player-head' }, view.current === seat ? h('span', { class: 'turn-arrow', 'aria-hidden': 'true' }, '▶') : h('span', { class: 'turn-arrow' }), this.who(seat), h('span', { class: 'vp', title: 'Victory points: 1 per Town, 2 per City' }, `${p.victory_points} VP`)),
          h('div', { class: 'player-sub' }, flags, reserve.length ? h('span', { class: 'reserve' }, 'Reserve: ', reserve) : h('span', { class: 'reserve subtle' }, 'Reserve empty')),
        ),
      );
    }
    panel.append(list);
  }

  renderSelection(c) {
    const panel = this.els.selection;
    panel.replaceChildren();
    const units = this.unitsById();
    const selected = this.ui.selectedUnit !== null ? units.get(this.ui.selectedUnit) : null;
    const hex = selected ? selected.hex : this.ui.selectedHex;
    if (hex === null || hex === undefined || hex < 0) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    const hx = this.hexInfo(hex);
    panel.append(h('h2', {}, `Hex ${hx.label}`, h('span', { class: 'subtle' }, ` · ${hx.known && hx.terrain ? TERRAIN_NAME[hx.terrain] : 'unexplored'}`)));
    if (hx.town_owner !== undefined && hx.town_owner >= 0) {
      panel.append(h('p', {}, this.who(hx.town_owner), ` ${hx.city ? 'City' : 'Town'}${hx.capital_of !== undefined && hx.capital_of >= 0 ? ` · ${this.playerName(hx.capital_of)}'s Capital` : ''}${hx.built_this_turn ? ' · built this turn' : ''}`));
    }
    const here = this.view.units.filter((u) => u.place === 'map' && u.hex === hex);
    if (!here.length) {
      panel.append(h('p', { class: 'subtle' }, 'No units here.'));
    }
    const list = h('ul', { class: 'unit-chips' });
    const order = (u) => (u.carrier >= 0 ? u.carrier * 10 + 5 : u.id * 10);
    for (const u of here.sort((a, b) => a.owner - b.owner || order(a) - order(b))) {
      const st = seatStyle(u.owner);
      const can = c.unit.has(u.id);
      const status = [];
      if (u.owner === this.mySeat || u.owner === this.view.current) {
        status.push(`${u.moves_left} MP`);
        if (u.move_done) status.push('done');
        if (u.attacked) status.push('fought');
        if (u.transported) status.push('shipped');
      }
      if (u.carrier >= 0) status.push('aboard');
      const chip = h(
        can ? 'button' : 'span',
        {
          type: can ? 'button' : undefined,
          class: `unit-chip${u.id === this.ui.selectedUnit ? ' selected' : ''}${can ? ' can-act' : ''}${u.carrier >= 0 ? ' cargo' : ''}`,
          dataset: { unit: u.id },
          onclick: can
            ? () => {
                this.ui.selectedUnit = u.id;
                this.ui.mode = null;
                this.render();
              }
            : undefined,
        },
        h('span', { class: 'mini-counter', style: `background:${st.fill};color:${st.ink};border-color:${st.edge}` }, UNIT_LETTER[u.type]),
        ` ${UNIT_NAME[u.type]}`,
        status.length ? h('span', { class: 'subtle' }, ` · ${status.join(' · ')}`) : null,
      );
      list.append(h('li', {}, chip));
    }
    panel.append(list);
    if (selected) {
      const acts = c.unit.get(selected.id) || [];
      const kinds = [...new Set(acts.map((a) => a.kind))];
      const names = { move: 'move', embark: 'board a Frigate', disembark: 'land', bombard: 'bombard' };
      panel.append(h('p', { class: 'hint' }, `This ${UNIT_NAME[selected.type]} can ${kinds.map((k) => names[k]).join(', ')}: ${plural(new Set(acts.map((a) => this.targetHex(a, units))).size, 'highlighted hex', 'highlighted hexes')}.`));
      panel.append(h('button', { type: 'button', class: 'btn btn-small', onclick: () => this.clearSelection() }, 'Deselect'));
    }
  }

  clearSelection() {
    this.ui.selectedUnit = null;
    this.ui.selectedHex = null;
    this.render();
  }

  renderBattle() {
    const panel = this.els.battle;
    panel.replaceChildren();
    const view = this.view;
    const b = view.battle;
    const bombard = view.bombard;
    if (!b && !bombard && !this.lastRoll) {
      panel.hidden = true;
      return;
    }
    panel.hidden = false;
    if (b) {
      panel.append(
        h('h2', {}, `${b.naval ? 'Naval battle' : 'Battle'} at ${this.label(b.hex)}`, h('span', { class: 'subtle' }, ` · round ${b.round}`)),
        h('p', {}, this.who(b.attacker), ' attacks ', this.who(b.defender)),
        h('p', { class: 'stage' }, stageText(b.stage)),
      );
      if (b.attacker_dice && b.attacker_dice.length) panel.append(h('div', { class: 'dice-line' }, h('span', {}, 'Attacker: '), diceRow(b.attacker_dice)));
      if (b.defender_dice && b.defender_dice.length) panel.append(h('div', { class: 'dice-line' }, h('span', {}, 'Defender: '), diceRow(b.defender_dice)));
      if (b.picks_by_firer || b.picks_by_target) {
        panel.append(h('p', {}, `Hits to assign: ${b.picks_by_firer} chosen by the firer (1s), ${b.picks_by_target} by the target.`));
      }
      if (b.suppression) panel.append(h('p', {}, `Defender suppressed: ${b.suppression} fewer dice [12.31].`));
      if (b.marked && b.marked.length) panel.append(h('p', {}, 'Hit this round: ', this.unitList(b.marked)));
    } else if (bombard) {
      panel.append(
        h('h2', {}, `Bombardment of ${this.label(bombard.hex)}`),
        h('p', {}, this.who(bombard.firer), ' fires at ', this.who(bombard.target)),
        h('p', {}, `Hits to assign: ${bombard.picks_by_firer} chosen by the firer, ${bombard.picks_by_target} by the target.`),
      );
    }
    if (this.lastRoll && (!b || !(b.attacker_dice || []).length)) {
      const r = this.lastRoll;
      panel.append(h('div', { class: 'dice-line last-roll' }, h('span', {}, `Last roll (${this.whoText(r.player)}, ${rollPurpose(r.purpose)}${r.hex >= 0 ? ` at ${this.label(r.hex)}` : ''}): `), diceRow(r.dice)));
    }
    panel.append(h('p', { class: 'subtle legend' }, 'Dice of 3 or less hit (red); a 1 lets the firer choose the casualty (gold).'));
  }

  unitList(ids) {
    const units = this.unitsById();
    const counts = new Map();
    for (const id of ids) {
      const u = units.get(id);
      if (!u) continue;
      const key = `${u.owner}:${u.type}`;
      counts.set(key, (counts.get(key) || 0) + 1);
    }
    return [...counts].map(([key, n]) => {
      const [owner, type] = key.split(':');
      return `${n}× ${seatStyle(Number(owner)).name} ${UNIT_NAME[type]}`;
    }).join(', ');
  }

  renderLog() {
    const list = this.els.log;
    const log = this.state.log || [];
    const wasAtBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
    list.replaceChildren(...log.map((line) => h('li', { dataset: { seq: line.seq } }, line.text)));
    if (wasAtBottom || list.dataset.scrolled !== '1') {
      list.scrollTop = list.scrollHeight;
      list.dataset.scrolled = '1';
    }
  }

  renderChat() {
    const list = this.els.chatList;
    const chat = this.channel.chat || [];
    // Players chat among themselves; spectators read that and have a chat of their own, which
    // the players never see (a spectator could otherwise pass on tips).
    const spectator = this.seatFromSeats() === null;
    this.els.chatTitle.textContent = spectator ? 'Chat (you write to the spectators)' : 'Chat';
    this.els.chatInput.placeholder = spectator ? 'Say something to the other spectators…' : 'Say something…';
    list.replaceChildren(
      ...chat.map((m) =>
        h(
          'li',
          { class: m.channel === 'spectators' ? 'chat-spectator' : null },
          m.from_seat !== null && m.from_seat !== undefined ? h('span', { class: 'swatch', style: `background:${seatStyle(m.from_seat).fill};border-color:${seatStyle(m.from_seat).edge}` }) : null,
          h('b', {}, m.name || 'spectator'),
          m.channel === 'spectators' ? h('span', { class: 'subtle' }, ' (spectator)') : null,
          ': ',
          h('span', { class: 'chat-text' }, m.text),
          h('span', { class: 'subtle chat-time' }, ` ${timeAgo(m.at)}`),
        ),
      ),
    );
    list.scrollTop = list.scrollHeight;
  }

  renderMeta(c) {
    const panel = this.els.meta;
    panel.replaceChildren();
    const opts = this.view.options || {};
    panel.append(
      h('p', { class: 'subtle' }, `${opts.players} players · ${VICTORY_NAME[opts.victory] || opts.victory} · ${TILE_MIX_NAME[opts.tile_mix] || opts.tile_mix} tiles${opts.independent_exploration ? ' · independent exploration' : ''}`),
    );
    const row = h('div', { class: 'meta-buttons' });
    if ('Notification' in window && Notification.permission === 'default' && this.mySeat !== null) {
      row.append(h('button', { type: 'button', class: 'btn btn-small', onclick: () => Notification.requestPermission().then(() => this.render()) }, 'Notify me on my turn'));
    }
    if (c.concede && this.view.phase !== 'game_over') {
      row.append(h('button', { type: 'button', class: 'btn btn-small btn-danger', id: 'concede', onclick: () => this.concede(c.concede) }, 'Concede'));
    }
    // A private game's creator may invite spectators while it runs, too.
    const me = this.ctx.session ? this.ctx.session.player_id : null;
    if (this.seats && this.seats.private && this.seats.creator === me && this.view.phase !== 'game_over') {
      row.append(h('button', { type: 'button', class: 'btn btn-small', id: 'new-invite', onclick: () => this.newInvite() }, 'New invitation link'));
      if (this.invite) panel.append(this.inviteBox(this.seats, false));
    }
    row.append(h('a', { class: 'btn btn-small', href: '#/' }, 'Lobby'));
    panel.append(row);
  }

  renderHover() {
    const box = this.els.hover;
    const hex = this.ui.hoverHex;
    if (!this.view || hex === null || hex === undefined) {
      box.textContent = '';
      box.hidden = true;
      return;
    }
    const hx = this.hexInfo(hex);
    if (!hx) return;
    box.hidden = false;
    box.textContent = describeHex(this.view, hx);
  }

  renderGameOver() {
    if (this.view.phase !== 'game_over' || this.gameOverShown) return;
    this.gameOverShown = true;
    const mine = (this.view.winners || []).includes(this.mySeat);
    modal({
      title: mine ? 'Victory!' : 'Game over',
      body: [h('p', {}, this.resultText())],
      buttons: [
        { label: 'Close', value: 'close', kind: 'plain' },
        { label: 'Watch the replay', value: 'replay', kind: 'primary' },
      ],
      className: 'game-over',
    }).then((v) => {
      if (v === 'replay') location.hash = `#/replay/${this.gameId}`;
    });
  }

  // The decision card for choices the rules give a player, also out of turn.
  renderDecision(c) {
    const view = this.view;
    const units = this.unitsById();
    const preview = (hex) => (on) => {
      this.ui.previewHex = on ? hex : null;
      this.renderBoard(classifyLegal(this.state.legal));
    };
    if (c.casualty.length) {
      const ctxt = view.battle || view.bombard;
      const where = ctxt ? this.label(ctxt.hex) : '';
      const owners = new Set(c.casualty.map((a) => (units.get(a.unit) || {}).owner));
      const ownLosses = owners.size === 1 && owners.has(this.mySeat);
      const picks = view.battle ? view.battle : view.bombard;
      const lines = [];
      if (ownLosses) lines.push(`Your units were hit. Choose which unit is lost${picks ? ` (${picks.picks_by_target} to choose)` : ''}.`);
      else lines.push(`A roll of 1 is a tactical victory: you choose which enemy unit is lost${picks ? ` (${picks.picks_by_firer} to choose)` : ''}.`);
      if (view.battle) {
        const diceBox = h('div', { class: 'dice-lines' });
        if ((view.battle.attacker_dice || []).length) diceBox.append(h('div', { class: 'dice-line' }, h('span', {}, 'Attacker: '), diceRow(view.battle.attacker_dice)));
        if ((view.battle.defender_dice || []).length) diceBox.append(h('div', { class: 'dice-line' }, h('span', {}, 'Defender: '), diceRow(view.battle.defender_dice)));
        lines.push(diceBox);
      } else if (this.lastRoll) {
        lines.push(h('div', { class: 'dice-line' }, h('span', {}, 'Roll: '), diceRow(this.lastRoll.dice)));
      }
      const groups = groupUnits(c.casualty, units, (u) => `${u.owner}|${u.type}|${u.hex}|${u.carrier >= 0 ? 'c' : ''}`);
      this.card.show({
        key: `casualty-${this.state.seq}`,
        kind: 'choose_casualty',
        title: `${view.battle ? 'Battle' : 'Bombardment'} at ${where}: choose a casualty`,
        lines,
        groups: [
          {
            options: groups.map((g) => ({
              label: `${seatStyle(g.unit.owner).name} ${UNIT_NAME[g.unit.type]}${g.unit.carrier >= 0 ? ' (aboard)' : ''}`,
              detail: g.actions.length > 1 ? `${g.actions.length} of them` : '',
              onClick: () => this.send(g.actions[0]),
              onHover: preview(g.unit.hex),
              data: { unitType: g.unit.type, owner: g.unit.owner },
            })),
          },
        ],
      });
      return;
    }
    if (c.continueBattle || c.retreat.length) {
      const b = view.battle;
      const lines = [];
      if (b) {
        lines.push(`Battle at ${this.label(b.hex)}, round ${b.round}. Both sides still have units.`);
        if ((b.attacker_dice || []).length || (b.defender_dice || []).length) {
          lines.push(
            h('div', { class: 'dice-lines' },
              (b.attacker_dice || []).length ? h('div', { class: 'dice-line' }, h('span', {}, 'You rolled: '), diceRow(b.attacker_dice)) : null,
              (b.defender_dice || []).length ? h('div', { class: 'dice-line' }, h('span', {}, 'Defender rolled: '), diceRow(b.defender_dice)) : null),
          );
        }
      }
      const groups = [];
      if (c.continueBattle) {
        groups.push({ options: [{ label: '⚔ Fight another round', kind: 'danger', onClick: () => this.send(c.continueBattle), data: { choice: 'continue' } }] });
      }
      if (c.retreat.length) {
        const byTypeHex = groupUnits(c.retreat, units, (u, a) => `${u.type}|${a.hex}`);
        groups.push({
          heading: c.continueBattle ? 'Or retreat, unit by unit:' : 'Retreat your units, one by one:',
          options: byTypeHex.map((g) => ({
            label: `${UNIT_NAME[g.unit.type]} → ${this.label(g.actions[0].hex)}`,
            detail: g.actions.length > 1 ? `${g.actions.length} can go` : '',
            onClick: () => this.send(g.actions[0]),
            onHover: preview(g.actions[0].hex),
            data: { choice: 'retreat' },
          })),
        });
      }
      this.card.show({ key: `retreat-${b ? b.hex : ''}-${b ? b.round : ''}`, kind: 'retreat', title: c.continueBattle ? 'Retreat or fight on?' : 'Retreat', lines, groups });
      return;
    }
    if (c.eliminate.length) {
      const owed = view.elimination ? view.elimination.owed : [];
      const groups = groupUnits(c.eliminate, units, (u) => `${u.type}|${u.place}|${u.place === 'map' ? u.hex : ''}`);
      this.card.show({
        key: 'eliminate',
        kind: 'eliminate_unit',
        title: 'You lost a Town: return units to stock',
        lines: [`Still owed: ${owed.map((t) => UNIT_NAME[t]).join(', ') || '—'}. Units in your Reserve go first if you like; units on the map can be chosen too.`],
        groups: [
          {
            options: groups.map((g) => ({
              label: `${UNIT_NAME[g.unit.type]} ${g.unit.place === 'reserve' ? 'from your Reserve' : `at ${this.label(g.unit.hex)}`}`,
              detail: g.actions.length > 1 ? `${g.actions.length} there` : '',
              onClick: () => this.send(g.actions[0]),
              onHover: g.unit.place === 'map' ? preview(g.unit.hex) : undefined,
              data: { unitType: g.unit.type },
            })),
          },
        ],
      });
      return;
    }
    this.card.hide();
  }

  renderWaitingRoom(status) {
    const box = this.els.waiting;
    box.replaceChildren();
    if (this.fatal) {
      box.append(h('h1', {}, `Game ${this.gameId}`), h('p', { class: 'form-error', id: 'game-error' }, this.fatal), h('a', { class: 'btn', href: '#/' }, 'Back to the lobby'));
      return;
    }
    if (!this.seats) {
      box.append(h('p', { class: 'loading' }, 'Loading the game…'));
      return;
    }
    const seats = this.seats;
    const me = this.ctx.session ? this.ctx.session.player_id : null;
    const seated = seats.seats.some((x) => x.player_id === me);
    const isCreator = seats.creator === me;
    const opts = seats.options || {};
    box.append(h('h1', {}, `Game ${this.gameId}`));
    if (status === 'cancelled') {
      box.append(h('p', {}, 'This game was cancelled by its creator.'), h('a', { class: 'btn', href: '#/' }, 'Back to the lobby'));
      return;
    }
    box.append(
      h('p', { class: 'subtle' }, `${opts.players || seats.seats.length} seats · ${VICTORY_NAME[opts.victory] || ''} · ${TILE_MIX_NAME[opts.tile_mix] || ''} tiles${opts.independent_exploration ? ' · independent exploration' : ''}${seats.private ? ' · private' : ' · public'}`),
      h('p', {}, status === 'open' ? 'Waiting for players. The game starts when every seat is taken, or when the creator starts it.' : 'Starting…'),
    );
    const list = h('ol', { class: 'seat-list' });
    for (const seat of seats.seats) {
      const st = seatStyle(seat.seat);
      list.append(
        h(
          'li',
          { class: seat.player_id ? 'taken' : 'free', dataset: { seat: seat.seat } },
          h('span', { class: 'swatch', style: `background:${st.fill};border-color:${st.edge}` }),
          h('b', {}, st.name),
          ' — ',
          seat.name ? h('span', {}, seat.name, seat.player_id === me ? ' (you)' : '', seat.player_id === seats.creator ? ' · creator' : '') : h('span', { class: 'subtle' }, 'free seat'),
        ),
      );
    }
    box.append(list);
    const row = h('div', { class: 'button-row' });
    const free = seats.seats.some((x) => !x.player_id);
    if (!seated && free && status === 'open') {
      row.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'join-game', onclick: () => this.join() }, 'Join this game'));
    }
    if (seated && isCreator && status === 'open') {
      const count = seats.seats.filter((x) => x.player_id).length;
      row.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'start-game', disabled: count < 2, title: count < 2 ? 'At least 2 players are needed' : '', onclick: () => this.startGame() }, count < 2 ? 'Start now (needs 2 players)' : `Start now with ${count} players`));
    }
    if (seated && status === 'open') {
      row.append(h('button', { type: 'button', class: 'btn', onclick: () => this.leave() }, isCreator ? 'Cancel game' : 'Leave seat'));
    }
    row.append(h('a', { class: 'btn', href: '#/' }, 'Lobby'));
    box.append(row);
    if (status === 'open') box.append(this.inviteBox(seats, isCreator));
  }

  // The link to share. The server keeps only a hash of a private game's invitation, so the
  // code is known where it was received (this browser remembers it); the creator may always
  // make a new one (the old link then stops working).
  inviteBox(seats, isCreator) {
    const renew = isCreator && seats.private ? h('button', { type: 'button', class: 'btn btn-small', id: 'new-invite', onclick: () => this.newInvite() }, this.invite ? 'New link' : 'Make a link') : null;
    if (seats.private && !this.invite) {
      return h('div', { class: 'invite' }, h('p', { class: 'subtle' }, isCreator ? 'The invitation link is shown only in the browser that created the game. Make a new one here (any older link stops working).' : 'This game is private.'), renew);
    }
    const link = this.invite ? `${location.origin}${location.pathname}#/join/${this.gameId}/${this.invite}` : `${location.origin}${location.pathname}#/game/${this.gameId}`;
    const input = h('input', { type: 'text', readonly: true, value: link, class: 'invite-link', id: 'invite-link', 'aria-label': 'Invitation link' });
    return h(
      'div',
      { class: 'invite' },
      h('label', { for: 'invite-link' }, seats.private ? 'Invitation link (only people with this link can join or watch):' : 'Link to this game:'),
      h('div', { class: 'invite-row' }, input, h('button', { type: 'button', class: 'btn btn-small', onclick: () => copyText(input) }, 'Copy'), renew),
    );
  }

  async newInvite() {
    if (this.invite && !(await confirmDialog('Make a new invitation link?', 'The link you shared so far stops working.', { ok: 'New link' }))) return;
    try {
      this.invite = await this.channel.newInvite();
      saveInvite(this.gameId, this.invite);
      this.render();
      toast('A new invitation link is ready.');
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  // ----------------------------------------------------------------------------------------
  // Clicks

  onHexClick(hex) {
    if (!this.state || this.ui.busy) return;
    const c = classifyLegal(this.state.legal);
    const units = this.unitsById();
    const mode = this.ui.mode;
    if (mode && mode.startsWith('place:')) {
      const acts = (c.place.get(mode.slice(6)) || []).filter((a) => a.hex === hex);
      if (acts.length) return this.send(acts[0]);
    }
    if (this.ui.selectedUnit !== null) {
      const acts = (c.unit.get(this.ui.selectedUnit) || []).filter((a) => this.targetHex(a, units) === hex);
      if (acts.length) return this.chooseAndSend(acts, hex);
    }
    let hexActs = c.hex.get(hex) || [];
    if (mode === 'build_town') hexActs = hexActs.filter((a) => a.kind === 'build_town');
    if (mode === 'upgrade_city') hexActs = hexActs.filter((a) => a.kind === 'upgrade_city');
    if (hexActs.length) {
      if (!this.hasOwnActingUnits(hex, c)) return this.chooseAndSend(hexActs, hex);
      const options = hexActs.map((a) => ({ label: this.describeAction(a, units), value: a }));
      options.push({ label: 'Select one of your units here', value: 'select' });
      return choiceDialog(`What to do at ${this.label(hex)}?`, '', options).then((picked) => {
        if (picked === 'select') this.selectUnitAt(hex, c, mode);
        else if (picked) this.send(picked);
      });
    }
    if (!mode && this.ui.selectedUnit === null) {
      const places = [...c.place.values()].flat().filter((a) => a.hex === hex);
      if (places.length) return this.chooseAndSend(places, hex);
    }
    const retreats = c.retreat.filter((a) => a.hex === hex);
    if (retreats.length) return this.chooseAndSend(retreats, hex);
    if (this.selectUnitAt(hex, c, mode)) return;
    this.ui.selectedUnit = null;
    this.ui.selectedHex = this.ui.selectedHex === hex ? null : hex;
    this.render();
  }

  // Selects one of our units at hex; clicking the same hex again cycles through them.
  selectUnitAt(hex, c, mode) {
    const mine = this.view.units.filter((u) => u.place === 'map' && u.hex === hex && c.unit.has(u.id));
    if (!mine.length) return false;
    const current = mine.findIndex((u) => u.id === this.ui.selectedUnit);
    this.ui.selectedUnit = mine[(current + 1) % mine.length].id;
    this.ui.selectedHex = hex;
    this.ui.mode = mode && mode.startsWith('place:') ? null : mode;
    this.render();
    return true;
  }

  hasOwnActingUnits(hex, c) {
    return this.view.units.some((u) => u.place === 'map' && u.hex === hex && c.unit.has(u.id));
  }

  async chooseAndSend(actions, hex) {
    if (actions.length === 1) {
      const a = actions[0];
      if (a.kind === 'place_capital') {
        const hx = this.hexInfo(hex);
        const ok = await confirmDialog('Place your Capital here?', `Your Capital and its first Town go on ${hx.label}${hx.terrain ? ` (${TERRAIN_NAME[hx.terrain]})` : ''}. This cannot be changed later.`, { ok: 'Place Capital' });
        if (!ok) return;
      }
      return this.send(a);
    }
    const units = this.unitsById();
    // Units that look the same (e.g. three Infantry retreating to one hex) make one choice.
    const byLabel = new Map();
    for (const a of actions) {
      const label = this.describeAction(a, units);
      if (!byLabel.has(label)) byLabel.set(label, a);
    }
    if (byLabel.size === 1) return this.send(actions[0]);
    const options = [...byLabel].map(([label, a]) => ({ label, value: a }));
    const picked = await choiceDialog(`What to do at ${this.label(hex)}?`, '', options);
    if (picked) this.send(picked);
  }

  describeAction(a, units) {
    const u = a.unit !== undefined ? units.get(a.unit) : null;
    const name = u ? UNIT_NAME[u.type] : '';
    switch (a.kind) {
      case 'move': return this.enemyAt(a.hex) ? `${name}: move in and fight at ${this.label(a.hex)}` : `${name}: move to ${this.label(a.hex)}`;
      case 'embark': return `${name}: board the Frigate at ${this.label(this.targetHex(a, units))}`;
      case 'disembark': return `${name}: land at ${this.label(a.hex)}`;
      case 'bombard': return `${name}: bombard ${this.label(a.hex)}`;
      case 'retreat': return `${name}: retreat to ${this.label(a.hex)}`;
      case 'build_town': return `Build a Town at ${this.label(a.hex)}`;
      case 'upgrade_city': return `Upgrade the Town at ${this.label(a.hex)} to a City`;
      case 'start_battle': return `Start the battle at ${this.label(a.hex)}`;
      case 'place_capital': return `Place your Capital at ${this.label(a.hex)}`;
      case 'place_reserve': return `Place ${UNIT_NAME[a.unit_type]} at ${this.label(a.hex)}`;
      default: return HIGHLIGHT_STYLE[a.kind] ? HIGHLIGHT_STYLE[a.kind].text : a.kind;
    }
  }

  async send(action) {
    if (this.ui.busy) return;
    this.ui.busy = true;
    this.els.pageGrid.classList.add('busy');
    this.ui.previewHex = null;
    try {
      await this.channel.act(action);
      if (action.kind === 'build_town' || action.kind === 'upgrade_city') this.ui.mode = null;
      if (action.kind === 'start_battle') this.ui.selectedUnit = null;
    } catch (err) {
      // "stale": someone acted first; the server already sent the fresh state.
      if (err.code !== 'stale') toast(err.message || String(err), 'error');
    } finally {
      this.ui.busy = false;
      this.els.pageGrid.classList.remove('busy');
      if (this.state) this.render();
    }
  }

  async endPhase(c) {
    const view = this.view;
    const hexKinds = new Set([...c.hex.values()].flat().map((a) => a.kind));
    if (view.phase === 'build' && (hexKinds.has('build_town') || hexKinds.has('upgrade_city'))) {
      const ok = await confirmDialog('End the Build phase?', 'You have not built this turn. Skip building?', { ok: 'Skip building' });
      if (!ok) return;
    }
    if (view.phase === 'reserve' && c.place.size) {
      const ok = await confirmDialog('End your turn?', 'Units you did not place stay in your Reserve until a later turn.', { ok: 'End turn' });
      if (!ok) return;
    }
    this.ui.selectedUnit = null;
    this.ui.mode = null;
    this.send(c.endPhase);
  }

  async undo() {
    try {
      await this.channel.undo();
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  async concede(action) {
    const ok = await confirmDialog('Concede the game?', 'You leave the game for good: your pieces stop counting as a player. This cannot be undone.', { ok: 'Concede', danger: true });
    if (ok) this.send(action);
  }

  async sendChat() {
    const text = this.els.chatInput.value.trim();
    if (!text) return;
    try {
      await this.channel.sendChat(text);
      this.els.chatInput.value = '';
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  async join() {
    try {
      await this.channel.join(null, this.invite);
      this.channel.resync();
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  async leave() {
    try {
      await this.channel.leave();
      location.hash = '#/';
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  async startGame() {
    try {
      await this.channel.start();
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }
}

// Legal actions grouped by the unit they name (units that look the same in the UI share a
// button; the first action of a group is the one sent).
function groupUnits(actions, units, keyOf) {
  const groups = new Map();
  for (const a of actions) {
    const u = units.get(a.unit);
    if (!u) continue;
    const key = keyOf(u, a);
    if (!groups.has(key)) groups.set(key, { unit: u, actions: [] });
    groups.get(key).actions.push(a);
  }
  return [...groups.values()];
}

export function stageText(stage) {
  return {
    assign_pre_fire: 'pre-battle Artillery fire — hits are being assigned',
    assign_attacker_fire: "attacker's fire — hits are being assigned",
    assign_defender_fire: "defender's fire — hits are being assigned",
    retreat_option: 'the attacker chooses: retreat or fight another round',
    retreating: 'the attacker is retreating',
  }[stage] || stage;
}

function rollPurpose(p) {
  return { bombard: 'bombardment', pre_battle_fire: 'pre-battle fire', attacker_fire: 'attacker fire', defender_fire: 'defender fire', doomsday: 'Doomsday Clock' }[p] || p || 'roll';
}

function copyText(input) {
  input.select();
  if (navigator.clipboard) {
    navigator.clipboard.writeText(input.value).then(() => toast('Link copied.'), () => toast('Select the link and copy it.'));
  } else {
    toast('Select the link and copy it.');
  }
}

export function saveInvite(gameId, invite) {
  try {
    localStorage.setItem(`viktory.invite.${gameId}`, invite);
  } catch {
    // Storage full or blocked: the link is still shown while the page is open.
  }
}

export function loadInvite(gameId) {
  try {
    return localStorage.getItem(`viktory.invite.${gameId}`);
  } catch {
    return null;
  }
}
