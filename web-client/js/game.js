// The game page: the map, what to do now, the players, the battle, log and chat.
//
// The page is thin: the server's view says what is on the table, the server's "legal" list says
// what this player may do. Every highlight and button is made from that list; the page never
// decides a rule. (The one display convention it knows is that a die of 3 or less is a hit
// [10.1], to colour dice faces.)
//
// This file holds the page's state and the flow (state in, clicks out); each panel lives in its
// own module under game/ and is drawn by a function that takes the page.

import { Board } from './board.js';
import { DecisionCard, confirmDialog, choiceDialog, modal } from './dialogs.js';
import { t, formatNumber } from './i18n.js';
import { h, seatStyle, toast, touchScreen, PHASE_NAME, TERRAIN_NAME, scrollBehavior } from './util.js';
import { classifyLegal } from './game/legal.js';
import { describeAction, joinAnd, resultText } from './game/text.js';
import { renderPrompt } from './game/prompt.js';
import { renderActions, landingFrigates } from './game/actions.js';
import { renderPlayers } from './game/players.js';
import { tickClock } from './game/clock.js';
import { followToServer } from './elsewhere.js';
import { renderSelection } from './game/selection.js';
import { renderBattle } from './game/battle.js';
import { renderDecision } from './game/decisions.js';
import { renderLog, renderChat } from './game/log.js';
import { renderMeta } from './game/meta.js';
import { renderWaitingRoom } from './game/waiting.js';
import { absorbEvents, dismissLastMoves, restoreLastMoves, sceneMoves } from './game/events.js';
import { confirmIfSealing } from './game/confirm.js';
import { hexName } from './game/hexname.js';
import { buildHelpPanel } from './game/help.js';
import { buildSettingsPanel } from './game/settings-panel.js';
import { buildStandingOrdersPanel } from './game/standing-orders.js';
import { installLogHighlight } from './game/log.js';
import { rememberFocus, restoreFocus } from './game/focus.js';
import { settings } from './settings.js';
import { wantPreview, dropPreview } from './game/preview.js';
import { rematch } from './game/rematch.js';
import { wantReach, furtherReach } from './game/reach.js';
import { playSound, soundLog } from './sounds.js';
import { FairPlayPanel } from './fair_play.js';
import { contributionLostFor } from './contribution.js';
import { saveInvite, loadInvite } from './invites.js';
import { seatName } from './seat_kinds.js';
import { wantCatchUp, rememberSeen, renderCatchUp, catchUpScene, installCatchUpHighlight, absorbLive, markOwnAction } from './game/catch_up.js';

export { classifyLegal } from './game/legal.js';
export { saveInvite, loadInvite } from './invites.js';
export { stageText } from './game/text.js';

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
      focusHex: null,
      previewHex: null,
      busy: false,
    };
    this.trails = []; // moves of the Player Turn under way
    this.lastMoves = new Map(); // player -> his moves in his last turn, until dismissed
    this.lostSettlement = new Map(); // player -> {hex, city} of the Town or City he lost last
    this.lastRoll = null;
    this.doomsdayRoll = null;  // the last Doomsday Clock roll seen [5.5] (game/victory.js)
    this.gameOverShown = false;
    this.wasMyMove = false;
    this.listeners = [];
    this.sounds = soundLog; // what was played, for the browser tests
  }

  // Another server serves this game (./elsewhere.js): loaded again through it, or named.
  goElsewhere(server) {
    const say = (text) => {
      this.fatal = text;
      this.state = null;
      this.render();
    };
    followToServer(server, this.gameId, (where) => say(t('gamePage.elsewhere', { server: where })), {
      waiting: (where) => say(t('gamePage.elsewhereWaiting', { server: where })),
    });
  }

  start() {
    this.build();
    this.on(this.channel, 'state', (e) => this.onState(e.detail));
    this.on(this.channel, 'seats', (e) => {
      this.seats = e.detail;
      this.render();
    });
    // This browser lost the contribution it committed to for its seat (./contribution.js).
    if (this.ctx.conn) {
      // Asked before this page opened (from the lobby, as the seat was taken): known already.
      this.contributionLost = contributionLostFor(this.ctx.conn, this.gameId);
      this.on(this.ctx.conn, 'contribution-lost', (e) => {
        if (Number(e.detail.game_id) !== Number(this.gameId)) return;
        this.contributionLost = true;
        this.render();
      });
    }
    this.on(this.channel, 'chat', () => renderChat(this));
    this.clock = this.channel.clock || null;
    this.on(this.channel, 'clock', (e) => {
      this.clock = e.detail.clock;
      if (this.state) {
        renderPlayers(this);
        renderLog(this);  // the clock's lines are in the game log
      }
    });
    const clockTimer = setInterval(() => tickClock(this), 1000);
    this.listeners.push(() => clearInterval(clockTimer));
    this.on(this.channel, 'notice', (e) => {
      if (e.detail.code === 'game_elsewhere') {
        this.goElsewhere(e.detail.server);
        return;
      }
      if (e.detail.code === 'game_unavailable') {
        this.fatal = e.detail.message;
        this.state = null;
        this.render();
      }
      toast(e.detail.message, 'error');
    });
    this.on(this.channel, 'error', (e) => {
      const code = e.detail.code;
      if (code === 'game_elsewhere') {
        this.goElsewhere(e.detail.server);
        return;
      }
      const fatal = {
        // A private game without its invitation answers like a game that does not exist.
        not_found: t('gamePage.notFound'),
        forbidden: t('gamePage.forbidden'),
        no_spectators: t('gamePage.noSpectators'),
        game_damaged: t('gamePage.damaged'),
        game_unavailable: t('gamePage.unavailable'),
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
    if (this.fair) this.fair.destroy();
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
    e.labelsToggle = h('input', {
      type: 'checkbox',
      id: 'labels-toggle',
      checked: settings.get('hexLabels'),
      onchange: (ev) => settings.set('hexLabels', ev.target.checked),
    });
    e.zoom = h(
      'div',
      { class: 'zoom-controls' },
      h('button', { type: 'button', class: 'btn btn-small', title: t('gamePage.zoomInTitle'), 'aria-label': t('gamePage.zoomIn'), onclick: () => this.board.setZoom(this.board.zoom * 1.4) }, '+'),
      h('button', { type: 'button', class: 'btn btn-small', title: t('gamePage.zoomOutTitle'), 'aria-label': t('gamePage.zoomOut'), onclick: () => this.board.setZoom(this.board.zoom / 1.4) }, '−'),
      h('button', { type: 'button', class: 'btn btn-small', title: t('gamePage.wholeMap'), onclick: () => this.board.setZoom(1) }, t('gamePage.fit')),
      h('label', { class: 'coords-toggle', for: 'labels-toggle' }, e.labelsToggle, ' ', t('gamePage.labels')),
    );
    e.cardHost = h('div', { class: 'card-host' });
    // Under the map, never over it: what the pointer or the keyboard is on, and the other
    // players' last moves until dismissed.
    e.hover = h('div', { class: 'hover-line', id: 'hover-info' });
    e.lastMoves = h('div', { class: 'last-moves', id: 'last-moves' });
    e.catchUpLine = h('div', { class: 'catch-up-line-under-map', id: 'catch-up-under-map' });
    e.mapStatus = h('div', { class: 'map-status' }, e.hover, e.catchUpLine, e.lastMoves);
    e.keyHelp = h('p', { class: 'visually-hidden', id: 'map-keys' }, t('gamePage.mapKeys'));
    e.mapPane = h('section', { class: 'map-pane' }, h('h1', { class: 'visually-hidden' }, t('title.game', { id: this.gameId })), e.prompt, e.actions, h('div', { class: 'map-frame' }, e.mapWrap, e.zoom, e.cardHost), e.mapStatus, e.keyHelp);
    e.players = h('div', { class: 'panel players-panel', id: 'players' });
    e.selection = h('div', { class: 'panel selection-panel', id: 'selection' });
    e.battle = h('div', { class: 'panel battle-panel', id: 'battle' });
    e.help = buildHelpPanel();
    e.settings = buildSettingsPanel();
    e.standingOrders = buildStandingOrdersPanel(this);
    e.log = h('ol', { class: 'log-list', id: 'log' });
    e.chatList = h('ol', { class: 'chat-list', id: 'chat' });
    e.chatInput = h('input', { type: 'text', maxlength: 500, placeholder: t('gamePage.chatPlaceholder'), 'aria-label': t('gamePage.chatLabel'), id: 'chat-input' });
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
      h('button', { type: 'submit', class: 'btn btn-small' }, t('gamePage.send')),
    );
    e.meta = h('div', { class: 'panel meta-panel', id: 'meta' });
    // "Since your last turn" (game/catch_up.js), first in the side panels until dismissed.
    e.catchUp = h('section', { class: 'panel catch-up-panel', id: 'catch-up', 'aria-labelledby': 'catch-up-title', hidden: true });
    // Fair play: the commitment, the witness kept, the record once the game is over.
    this.fair = new FairPlayPanel({ channel: this.channel, gameId: this.gameId, token: this.ctx.session ? this.ctx.session.token : null, invite: this.invite });
    e.side = h(
      'aside',
      { class: 'side' },
      e.catchUp,
      e.players,
      e.selection,
      e.battle,
      h('details', { class: 'panel log-panel', open: true }, h('summary', {}, t('gamePage.log')), e.log),
      h('details', { class: 'panel chat-panel', open: true }, (e.chatTitle = h('summary', { id: 'chat-title' }, t('gamePage.chat'))), e.chatList, e.chatForm),
      e.help,
      e.settings,
      e.standingOrders,
      this.fair.el,
      e.meta,
    );
    e.waiting = h('section', { class: 'waiting-room', id: 'waiting' });
    e.pageGrid = h('div', { class: 'game-page' }, e.mapPane, e.side);
    this.root.replaceChildren(e.waiting, e.pageGrid);
    this.board = new Board(e.mapWrap, {
      keyboard: true,
      describe: (hex) => hexName(this, hex, this.currentHighlights ? this.currentHighlights.get(hex) : undefined),
      onHexClick: (hex) => this.onHexClick(hex),
      onHexHover: (hex) => {
        this.ui.hoverHex = hex;
        this.renderHover();
        this.previewAt(hex);
      },
      onHexFocus: (hex) => {
        this.ui.focusHex = hex;
        this.renderHover();
        this.previewAt(hex);
      },
    });
    // Escape drops the selection or the build/placement mode, wherever the focus is (dialogs
    // handle their own Escape).
    this.on(document, 'keydown', (ev) => {
      if (ev.key !== 'Escape' || ev.defaultPrevented || document.querySelector('dialog[open]') || !this.state) return;
      if (this.ui.selectedUnit !== null || this.ui.selectedHex !== null || this.ui.mode) {
        this.ui.mode = null;
        this.clearSelection();
      }
    });
    this.board.svg.setAttribute('aria-describedby', 'map-keys');
    this.board.setShowCoords(settings.get('hexLabels'));
    this.on(settings, 'change', () => {
      this.board.setShowCoords(settings.get('hexLabels'));
      e.labelsToggle.checked = settings.get('hexLabels');
    });
    this.listeners.push(() => e.settings.destroy());
    installLogHighlight(this);
    installCatchUpHighlight(this);
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
    if (prevSeq !== null && state.seq !== prevSeq) this.preview = null;
    if (prevSeq === null) restoreLastMoves(this);
    absorbEvents(this, events || [], full);
    // Live: a turn that ends with battles against this player opens "Since your last turn"
    // with them (game/catch_up.js); its arrows then stand for the last moves.
    if (!full && prevSeq !== null && absorbLive(this, { seq: state.seq, events: events || [], log: (state.log || []).filter((l) => l.seq === state.seq) })) dismissLastMoves(this);
    const turnChanged = prevTurn !== null && state.view.turn !== prevTurn;
    if (turnChanged) this.trails = [];
    const c = classifyLegal(state.legal);
    // Keep a selection only while it can still do something; the hex panel follows it out (a
    // hex picked by hand is kept until the turn changes).
    if (this.ui.selectedUnit !== null && !c.unit.has(this.ui.selectedUnit)) {
      this.ui.selectedUnit = null;
      this.ui.selectedHex = null;
    }
    if (turnChanged && this.ui.selectedUnit === null) this.ui.selectedHex = null;
    const active = state.view.active_unit;
    if (active !== undefined && active >= 0 && c.unit.has(active)) this.ui.selectedUnit = active;
    if (this.ui.mode === 'build_town' && ![...c.hex.values()].flat().some((a) => a.kind === 'build_town')) this.ui.mode = null;
    if (this.ui.mode === 'upgrade_city' && ![...c.hex.values()].flat().some((a) => a.kind === 'upgrade_city')) this.ui.mode = null;
    if (this.ui.mode === 'relocate' && ![...c.hex.values()].flat().some((a) => a.kind === 'remove_town')) this.ui.mode = null;
    if (this.ui.mode && this.ui.mode.startsWith('place:') && !c.place.has(this.ui.mode.slice(6))) this.ui.mode = null;
    this.render();
    if (prevSeq === null) wantCatchUp(this);
    rememberSeen(this);
    this.notifyIfMyMove(c, prevSeq === null);
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
    return seatName(entry) || st.name;
  }

  // A name with its colour swatch and colour word (never colour alone).
  who(seat) {
    const st = seatStyle(seat);
    const you = seat === this.mySeat ? ` ${t('gamePage.youTag')}` : '';
    return h(
      'span',
      { class: 'who' },
      h('span', { class: 'swatch', style: `background:${st.fill};border-color:${st.edge}` }),
      h('b', {}, this.playerName(seat)),
      h('span', { class: 'who-color' }, ` ${st.name}${you}`),
    );
  }

  whoText(seat) {
    return seat === this.mySeat ? t('gamePage.you') : `${this.playerName(seat)} (${seatStyle(seat).name})`;
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
      renderWaitingRoom(this, status);
      document.title = `${t('title.game', { id: this.gameId })} · VIKTORY II`;
      return;
    }
    const c = classifyLegal(this.state.legal);
    const focus = rememberFocus(this.root);
    this.renderBoard(c);
    renderPrompt(this, c);
    renderActions(this, c);
    renderPlayers(this);
    renderSelection(this, c);
    renderBattle(this);
    renderCatchUp(this);
    renderLog(this);
    renderChat(this);
    renderMeta(this, c);
    renderDecision(this, c);
    this.els.help.update(this.view.phase, this.view.options);
    this.els.standingOrders.update();
    this.renderHover();
    this.renderLastMoves();
    restoreFocus(this, focus);
    this.renderGameOver();
    document.title = this.isMyMove(c) ? t('gamePage.titleYourMove', { id: this.gameId }) : t('gamePage.title', { id: this.gameId });
  }

  isMyMove(c) {
    return this.view.phase !== 'game_over' && this.mySeat !== null && this.view.decider === this.mySeat && c.count > 0;
  }

  notifyIfMyMove(c, first) {
    const mine = this.isMyMove(c);
    if (mine && !this.wasMyMove && !first) playSound('turn');
    if (mine && !this.wasMyMove && document.hidden && 'Notification' in window && Notification.permission === 'granted') {
      try {
        const n = new Notification(t('gamePage.notifyTitle'), { body: t('gamePage.notifyBody', { id: this.gameId, phase: PHASE_NAME[this.view.phase] || '' }), tag: `viktory-${this.gameId}` });
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
      // Further than one move: the server's reach for this unit (game/reach.js).
      for (const [hex] of furtherReach(this)) map.set(hex, 'reach');
      for (const a of this.selectedActions(c)) {
        const hex = this.targetHex(a, units);
        if (hex < 0) continue;
        let kind = a.kind;
        if (a.kind === 'move' || a.kind === 'disembark' || a.kind === 'withdraw') kind = this.enemyAt(hex) ? 'battle' : a.kind;
        // A bombard target outranks a plain move mark on the same hex: both stay reachable
        // through the chooser on click.
        if (!map.has(hex) || map.get(hex) === 'reach' || kind === 'bombard') map.set(hex, kind);
      }
    }
    for (const [hex, acts] of c.hex) {
      if (map.has(hex)) continue;
      for (const a of acts) {
        if (mode === 'build_town' && a.kind !== 'build_town') continue;
        if (mode === 'upgrade_city' && a.kind !== 'upgrade_city') continue;
        if (mode === 'relocate' && a.kind !== 'remove_town') continue;
        // A Town is relocated [15.5] only through its own mode: a stray click must not start it.
        if (mode !== 'relocate' && a.kind === 'remove_town') continue;
        const kind = { place_capital: 'capital', build_town: 'build', upgrade_city: 'upgrade', start_battle: 'start_battle', remove_town: 'relocate', rebuild_town: 'rebuild', replace_water: 'replace_water' }[a.kind];
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

  // What the selected unit can do; a selected Frigate also offers the landings of its cargo,
  // so that cargo is found by clicking the ship.
  selectedActions(c) {
    const id = this.ui.selectedUnit;
    if (id === null) return [];
    const own = c.unit.get(id) || [];
    const units = this.unitsById();
    const unit = units.get(id);
    if (!unit || unit.type !== 'frigate') return own;
    const landings = [];
    for (const cargo of this.view.units) {
      if (cargo.carrier !== id) continue;
      for (const a of c.unit.get(cargo.id) || []) if (a.kind === 'disembark') landings.push(a);
    }
    return own.concat(landings);
  }

  selectUnit(id) {
    const u = this.unitsById().get(id);
    if (!u) return;
    this.ui.selectedUnit = id;
    this.ui.selectedHex = u.hex;
    this.ui.mode = null;
    this.render();
    if (u.place === 'map') this.board.setCursor(u.hex);
  }

  renderBoard(c = classifyLegal(this.state.legal)) {
    const view = this.view;
    if (this.ui.selectedUnit !== null && (c.unit.get(this.ui.selectedUnit) || []).some((a) => a.kind === 'move')) wantReach(this, this.ui.selectedUnit);
    const actionableUnits = new Set(c.unit.keys());
    const actionable = new Set();
    const units = this.unitsById();
    for (const id of actionableUnits) {
      const u = units.get(id);
      if (u && u.place === 'map') actionable.add(u.hex);
    }
    const selected = this.ui.selectedUnit !== null ? units.get(this.ui.selectedUnit) : null;
    this.currentHighlights = this.highlights(c);
    this.board.render(view, {
      highlights: this.currentHighlights,
      selectedHex: selected ? selected.hex : this.ui.selectedHex,
      selectedUnit: this.ui.selectedUnit,
      actionable,
      actionableUnits,
      moves: sceneMoves(this),
      battleHex: view.battle ? view.battle.hex : view.bombard ? view.bombard.hex : null,
      pendingBattles: view.pending_battles || [],
      cargoReady: new Set(landingFrigates(this, c).map((f) => f.frigate.id)),
      catchUp: catchUpScene(this),
    });
  }

  clearSelection() {
    this.ui.selectedUnit = null;
    this.ui.selectedHex = null;
    this.render();
  }

  // The line under the map: the hex under the pointer, else the one with the keyboard focus.
  renderHover() {
    const box = this.els.hover;
    const hex = this.ui.hoverHex !== null && this.ui.hoverHex !== undefined ? this.ui.hoverHex : this.ui.focusHex;
    if (!this.view || hex === null || hex === undefined || !this.hexInfo(hex)) {
      // A touch screen has no pointer to point with, nor a Tab key.
      box.textContent = !this.view ? '' : touchScreen() ? t('gamePage.hoverTouch') : t('gamePage.hoverPointer');
      box.classList.add('subtle');
      return;
    }
    box.classList.remove('subtle');
    box.textContent = hexName(this, hex, this.currentHighlights ? this.currentHighlights.get(hex) : undefined);
  }

  // Pointing at a hex where the selected unit would fight (or a Battle to start) asks for the
  // preview of that Battle's dice and odds (game/preview.js).
  previewAt(hex) {
    const kind = hex !== null && hex !== undefined && this.currentHighlights ? this.currentHighlights.get(hex) : undefined;
    if (kind === 'battle' && this.ui.selectedUnit !== null) wantPreview(this, hex, [this.ui.selectedUnit]);
    else if (kind === 'start_battle') wantPreview(this, hex, []);
    else if (hex !== null && hex !== undefined) dropPreview(this);
  }

  renderBattlePanel() {
    if (this.state) renderBattle(this);
  }

  openHelp() {
    const panel = this.els.help;
    panel.open = true;
    panel.scrollIntoView({ block: 'nearest', behavior: scrollBehavior() });
    panel.querySelector('summary').focus({ preventScroll: true });
  }

  renderLastMoves() {
    const box = this.els.lastMoves;
    box.replaceChildren();
    if (!this.lastMoves.size) return;
    const who = [...this.lastMoves.keys()].map((seat) => this.whoText(seat));
    const count = [...this.lastMoves.values()].reduce((n, m) => n + m.length, 0);
    box.append(
      h('span', {}, t('gamePage.lastMoves', { who: joinAnd(who), n: formatNumber(count) })),
      h('button', { type: 'button', class: 'btn btn-small', id: 'dismiss-last-moves', dataset: { focusKey: 'dismiss-last-moves' }, onclick: () => {
        dismissLastMoves(this);
        this.render();
      } }, t('dialog.hide')),
    );
  }

  renderGameOver() {
    if (this.view.phase !== 'game_over' || this.gameOverShown) return;
    this.gameOverShown = true;
    const mine = (this.view.winners || []).includes(this.mySeat);
    modal({
      title: mine ? t('gamePage.victory') : t('gamePage.gameOver'),
      body: [h('p', {}, resultText(this))],
      buttons: [
        { label: t('gamePage.close'), value: 'close', kind: 'plain' },
        this.mySeat !== null ? { label: t('gamePage.rematch'), value: 'rematch', kind: 'plain' } : null,
        { label: t('gamePage.watchReplay'), value: 'replay', kind: 'primary' },
      ].filter(Boolean),
      className: 'game-over',
    }).then((v) => {
      if (v === 'replay') location.hash = `#/replay/${this.gameId}`;
      if (v === 'rematch') rematch(this);
    });
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
      const acts = this.selectedActions(c).filter((a) => this.targetHex(a, units) === hex);
      if (acts.length) return this.chooseAndSend(acts, hex);
    }
    let hexActs = c.hex.get(hex) || [];
    if (mode === 'build_town') hexActs = hexActs.filter((a) => a.kind === 'build_town');
    if (mode === 'upgrade_city') hexActs = hexActs.filter((a) => a.kind === 'upgrade_city');
    if (mode === 'relocate') hexActs = hexActs.filter((a) => a.kind === 'remove_town');
    else hexActs = hexActs.filter((a) => a.kind !== 'remove_town');
    if (hexActs.length) {
      if (!this.hasOwnActingUnits(hex, c)) return this.chooseAndSend(hexActs, hex);
      const options = hexActs.map((a) => ({ label: describeAction(this, a, units), value: a }));
      options.push({ label: t('gamePage.selectUnitHere'), value: 'select' });
      return choiceDialog(t('gamePage.whatToDoAt', { hex: this.label(hex) }), '', options).then((picked) => {
        if (picked === 'select') this.selectUnitAt(hex, c, mode);
        else if (picked) this.send(picked);
      });
    }
    if (!mode && this.ui.selectedUnit === null) {
      const places = [...c.place.values()].flat().filter((a) => a.hex === hex);
      if (places.length && this.hasOwnActingUnits(hex, c)) {
        // House rule Redeployment: a unit standing there may be redeployed instead.
        const options = places.map((a) => ({ label: describeAction(this, a, units), value: a }));
        options.push({ label: t('gamePage.selectUnitHere'), value: 'select' });
        return choiceDialog(t('gamePage.whatToDoAt', { hex: this.label(hex) }), '', options).then((picked) => {
          if (picked === 'select') this.selectUnitAt(hex, c, mode);
          else if (picked) this.send(picked);
        });
      }
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
        const text = hx.terrain ? t('gamePage.capitalTextTerrain', { hex: hx.label, terrain: TERRAIN_NAME[hx.terrain] }) : t('gamePage.capitalText', { hex: hx.label });
        const ok = await confirmDialog(t('gamePage.capitalTitle'), text, { ok: t('gamePage.capitalOk') });
        if (!ok) return;
      }
      return this.send(a);
    }
    const units = this.unitsById();
    // Units that look the same (e.g. three Infantry retreating to one hex) make one choice.
    const byLabel = new Map();
    for (const a of actions) {
      const label = describeAction(this, a, units);
      if (!byLabel.has(label)) byLabel.set(label, a);
    }
    if (byLabel.size === 1) return this.send(actions[0]);
    const options = [...byLabel].map(([label, a]) => ({ label, value: a }));
    const picked = await choiceDialog(t('gamePage.whatToDoAt', { hex: this.label(hex) }), '', options);
    if (picked) this.send(picked);
  }

  // Every action of the page goes through here; those that cannot be taken back are asked
  // about first (game/confirm.js, unless the player turned that off).
  async send(action) {
    if (this.ui.busy) return;
    if (!(await confirmIfSealing(this, action))) return;
    if (this.ui.busy) return;
    this.ui.busy = true;
    this.els.pageGrid.classList.add('busy');
    this.ui.previewHex = null;
    // An action of his own turn: the steps before it are his to know (game/catch_up.js).
    const ownTurn = this.view.current === this.mySeat;
    try {
      await this.channel.act(action);
      if (ownTurn) markOwnAction(this);
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

  async undo() {
    try {
      await this.channel.undo();
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }

  async concede(action) {
    const ok = await confirmDialog(t('gamePage.concedeTitle'), t('gamePage.concedeText'), { ok: t('gamePage.concedeOk'), danger: true });
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

  // A private game's creator makes a new invitation code (game.invite); the old link stops
  // working. The server keeps only its hash, so this browser remembers the code.
  async newInvite() {
    if (this.invite && !(await confirmDialog(t('gamePage.newInviteTitle'), t('gamePage.newInviteText'), { ok: t('gamePage.newInviteOk') }))) return;
    try {
      this.invite = await this.channel.newInvite();
      saveInvite(this.gameId, this.invite);
      this.render();
      toast(t('gamePage.newInviteReady'));
    } catch (err) {
      toast(err.message || String(err), 'error');
    }
  }
}
