// Replay of a finished game, step by step, from GET /api/games/<id>/replay (docs/protocol.md).
// The server sends pages: the view after the page's first step, then per step the action, the
// events, the log lines and the view delta (./view_delta.js). Pages are fetched as needed and
// then one after another in the background. A seated player sees his own views; anyone else
// the spectator's.

import { api } from './net.js';
import { Board, describeHex, diceRow } from './board.js';
import { loadInvite } from './invites.js';
import { absorbBattleEvents, battleTable, newBattleRecord, stepBattle } from './game/fire.js';
import { h, seatStyle, PHASE_NAME, VICTORY_NAME, UNIT_LETTER, UNIT_NAME, UNIT_TYPES } from './util.js';
import { logLineText, t } from './i18n.js';
import { applyViewDelta } from './view_delta.js';
import { withBoard } from './board_data.js';
import { VerificationPanel } from './fair_play.js';
import { seatName } from './seat_kinds.js';
import { LookbackPanel } from './lookback.js';

export function mountReplay(root, ctx, gameId) {
  const r = new Replay(root, ctx, Number(gameId));
  r.start();
  return r;
}

class Replay {
  constructor(root, ctx, gameId) {
    this.root = root;
    this.ctx = ctx;
    this.gameId = gameId;
    this.invite = loadInvite(gameId);
    this.pages = new Map(); // from -> page, as the server sent it
    this.loading = new Map(); // from -> promise of the page
    this.pageSize = 1;
    this.lastSeq = 0;
    this.index = 0;
    this.cursor = null; // {page, index, view}: the view shown, to step on from
    this.ticket = 0;
    this.timer = null;
    this.summary = null;
    this.destroyed = false;
    this.onKey = (e) => {
      if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA')) return;
      if (e.key === 'ArrowRight') this.go(this.index + 1);
      if (e.key === 'ArrowLeft') this.go(this.index - 1);
    };
  }

  async start() {
    this.root.replaceChildren(h('p', { class: 'loading' }, t('replay.loading')));
    const token = this.ctx.session ? this.ctx.session.token : null;
    try {
      this.summary = await api.game(this.gameId, token, this.invite).catch(() => null);
      const first = await this.fetchPage(0);
      this.lastSeq = first.last_seq;
      // Pages after the first start where the one before ended.
      this.pageSize = first.to < first.last_seq ? Math.max(1, first.to - first.from) : Math.max(1, first.last_seq);
    } catch (err) {
      this.root.replaceChildren(h('section', { class: 'card' }, h('h1', {}, t('title.replay', { id: this.gameId })), h('p', { class: 'form-error' }, err.message), h('a', { class: 'btn', href: '#/' }, t('actions.backToLobby'))));
      return;
    }
    this.build();
    this.lookback.load();
    window.addEventListener('keydown', this.onKey);
    // For tests: what the page shows (never more than the server sent).
    window.__viktoryReplay = this;
    await this.go(0);
    this.prefetch();
  }

  // The page that holds step `i` (its view after `from`, steps from+1..to).
  pageFrom(i) {
    return i <= 0 ? 0 : Math.floor((i - 1) / this.pageSize) * this.pageSize;
  }

  fetchPage(from) {
    if (!this.loading.has(from)) {
      const token = this.ctx.session ? this.ctx.session.token : null;
      const options = { seat: this.mySeat(), from, invite: this.invite };
      if (this.pages.size > 0) options.to = Math.min(from + this.pageSize, this.lastSeq);
      const promise = this.fetchWithRetry(token, options).then((page) => {
        // Each page carries the static board; its views and deltas leave the board's fields
        // out of their hexes (./board_data.js puts them back).
        page.view = withBoard(page.view, page.board);
        this.pages.set(page.from, page);
        return page;
      });
      promise.catch(() => this.loading.delete(from)); // a failed page may be asked for again
      this.loading.set(from, promise);
    }
    return this.loading.get(from);
  }

  // The server builds one page at a time and asks the others to come back (503 "busy").
  async fetchWithRetry(token, options) {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await api.replay(this.gameId, token, options);
      } catch (err) {
        if (err.code !== 'busy' || attempt >= 8 || this.destroyed) throw err;
        await new Promise((resolve) => setTimeout(resolve, 250 * attempt + Math.random() * 250));
      }
    }
  }

  // Fetches the remaining pages one after the other, so that the log is complete.
  async prefetch() {
    for (let from = this.pageSize; from < this.lastSeq && !this.destroyed; from += this.pageSize) {
      try {
        await this.fetchPage(from);
      } catch {
        return; // fetched later, when a step of it is shown
      }
    }
    if (!this.destroyed && this.els) this.renderLog();
  }

  // The view after step `i`, from the nearest known view of its page.
  viewAt(page, i) {
    let { index, view } = this.cursor && this.cursor.page === page && this.cursor.index <= i ? this.cursor : { index: page.from, view: page.view };
    for (; index < i; index += 1) view = withBoard(applyViewDelta(view, page.steps[index - page.from].delta), page.board);
    this.cursor = { page, index: i, view };
    return view;
  }

  currentView() {
    return this.cursor ? this.cursor.view : null;
  }
  mySeat() {
    if (!this.summary || !this.ctx.session) return null;
    const mine = (this.summary.seats || []).find((x) => x.player_id === this.ctx.session.player_id);
    return mine ? mine.seat : null;
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.timer);
    if (this.lookback) this.lookback.stop();
    window.removeEventListener('keydown', this.onKey);
    if (window.__viktoryReplay === this) window.__viktoryReplay = null;
  }

  name(seat) {
    const entry = this.summary ? (this.summary.seats || []).find((x) => x.seat === seat) : null;
    const st = seatStyle(seat);
    return seatName(entry) ? `${seatName(entry)} (${st.name})` : st.name;
  }

  build() {
    this.els = {
      info: h('div', { class: 'prompt', id: 'replay-info' }),
      map: h('div', { class: 'map-wrap', id: 'map' }),
      // Hidden until the pointer is on a hex: an empty box over the map says nothing.
      hover: h('div', { class: 'hover-info', hidden: true }),
      slider: h('input', { type: 'range', min: 0, max: this.lastSeq, value: 0, id: 'replay-slider', 'aria-label': t('replay.step'), oninput: (e) => this.go(Number(e.target.value)) }),
      counter: h('span', { class: 'subtle', id: 'replay-counter' }),
      play: h('button', { type: 'button', class: 'btn', id: 'replay-play', onclick: () => this.togglePlay() }, t('replay.play')),
      // Focusable (a keyboard reaches the log and scrolls it) and named; a list of lines, like
      // the game page's log.
      log: h('ol', { class: 'log-list', id: 'log', tabindex: 0, 'aria-label': t('replay.logUpToStep') }),
      players: h('div', { class: 'panel players-panel' }),
      dice: h('div', { class: 'panel battle-panel' }),
    };
    const e = this.els;
    // Fair play: the record checked with the verifier, and offered for download.
    this.verification = new VerificationPanel({ gameId: this.gameId, token: this.ctx.session ? this.ctx.session.token : null, invite: this.invite });
    // The look back: each player's chances per turn, and where they fell most (./lookback.js).
    this.lookback = new LookbackPanel({ gameId: this.gameId, token: this.ctx.session ? this.ctx.session.token : null, invite: this.invite, name: (seat) => this.name(seat), jump: (step) => this.go(step) });
    const controls = h(
      'div',
      { class: 'action-bar replay-controls' },
      h('button', { type: 'button', class: 'btn', title: t('replay.firstStep'), 'aria-label': t('replay.firstStep'), onclick: () => this.go(0) }, '|◀'),
      h('button', { type: 'button', class: 'btn', id: 'replay-prev', title: t('replay.previousStep'), onclick: () => this.go(this.index - 1) }, '◀'),
      e.play,
      h('button', { type: 'button', class: 'btn btn-primary', id: 'replay-next', title: t('replay.nextStep'), onclick: () => this.go(this.index + 1) }, '▶'),
      h('button', { type: 'button', class: 'btn', title: t('replay.lastStep'), 'aria-label': t('replay.lastStep'), onclick: () => this.go(this.lastSeq) }, '▶|'),
      e.slider,
      e.counter,
    );
    this.root.replaceChildren(
      h(
        'div',
        { class: 'game-page replay' },
        h('section', { class: 'map-pane' }, h('h1', { class: 'visually-hidden' }, t('title.replay', { id: this.gameId })), e.info, controls, h('div', { class: 'map-frame' }, e.map, e.hover)),
        h('aside', { class: 'side' }, e.players, this.lookback.el, e.dice, h('details', { class: 'panel log-panel', open: true }, h('summary', {}, t('replay.logUpToStep')), e.log), this.verification.el, h('div', { class: 'panel' }, h('a', { class: 'btn btn-small', href: `#/game/${this.gameId}` }, t('replay.backToGame')), ' ', h('a', { class: 'btn btn-small', href: '#/' }, t('waiting.lobby')))),
      ),
    );
    this.board = new Board(e.map, {
      onHexHover: (hex) => {
        const view = this.currentView();
        const hx = hex === null || !view ? null : view.hexes.find((x) => x.hex === hex);
        e.hover.hidden = !hx;
        e.hover.textContent = hx ? describeHex(view, hx) : '';
      },
    });
  }

  togglePlay() {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.els.play.textContent = t('replay.play');
      return;
    }
    if (this.index >= this.lastSeq) this.go(0);
    this.els.play.textContent = t('replay.pause');
    this.timer = setInterval(() => {
      if (this.index >= this.lastSeq) this.togglePlay();
      else this.go(this.index + 1);
    }, 900);
  }

  async go(index) {
    const ticket = ++this.ticket;
    const i = Math.max(0, Math.min(this.lastSeq, index));
    let page;
    try {
      page = await this.fetchPage(this.pageFrom(i));
    } catch (err) {
      if (ticket === this.ticket) this.els.info.replaceChildren(h('p', { class: 'form-error' }, err.message));
      return;
    }
    if (ticket !== this.ticket || this.destroyed) return; // a later step was asked for meanwhile
    this.index = i;
    const view = this.viewAt(page, i);
    const step = i > page.from ? page.steps[i - page.from - 1] : null;
    const e = this.els;
    e.slider.value = String(i);
    e.counter.textContent = t('replay.counter', { i, n: this.lastSeq });
    const moves = [];
    let roll = null;
    for (const ev of (step && step.events) || []) {
      if (['unit_moved', 'unit_retreated', 'unit_disembarked', 'unit_embarked'].includes(ev.kind) && ev.from_hex >= 0 && ev.hex >= 0 && ev.from_hex !== ev.hex) {
        moves.push({ from: ev.from_hex, to: ev.hex, owner: ev.player });
      }
      if (ev.kind === 'dice_rolled' && Array.isArray(ev.dice)) roll = ev;
    }
    this.board.render(view, { moves, battleHex: view.battle ? view.battle.hex : null, pendingBattles: view.pending_battles || [] });
    const lines = ((step && step.log) || []).map((l) => logLineText(l));
    // Only elements here: replaceChildren() would write a null out as the text "null".
    const info = [
      h('div', { class: 'phase-line' }, [t('title.replay', { id: this.gameId }), t('replay.turn', { n: view.turn }), PHASE_NAME[view.phase] || view.phase, this.name(view.current)].join(' · ')),
      h('div', { class: 'prompt-title', id: 'replay-step-text' }, i === 0 ? t('replay.start') : lines.join(' ') || t('replay.stepN', { i })),
    ];
    if (view.phase === 'game_over') {
      info.push(h('div', { class: 'prompt-text' }, t('replay.winner', { count: Math.max(1, (view.winners || []).length), who: (view.winners || []).map((s) => this.name(s)).join(', ') || t('replay.nobody'), how: VICTORY_NAME[view.ended_by] || view.ended_by })));
    }
    e.info.replaceChildren(...info);
    e.players.replaceChildren(
      h('h2', {}, t('replay.players')),
      h(
        'ol',
        { class: 'player-list' },
        view.players.map((p) => {
          const st = seatStyle(p.index);
          return h(
            'li',
            { class: `player${view.current === p.index ? ' current' : ''}` },
            h('div', { class: 'player-head' }, h('span', { class: 'turn-arrow' }, view.current === p.index ? '▶' : ''), h('span', { class: 'swatch', style: `background:${st.fill};border-color:${st.edge}` }), h('b', {}, this.name(p.index)), h('span', { class: 'vp' }, t('replay.vp', { n: p.victory_points }))),
            h('div', { class: 'player-sub' }, `${t('players.reserve')}: `, UNIT_TYPES.every((type) => !(p.reserve[type] > 0)) ? h('span', { class: 'subtle' }, t('replay.empty')) : null, UNIT_TYPES.filter((type) => p.reserve[type] > 0).map((type) => h('span', { class: 'mini-counter', title: UNIT_NAME[type], style: `background:${st.fill};color:${st.ink};border-color:${st.edge}` }, `${UNIT_LETTER[type]}×${p.reserve[type]}`))),
          );
        }),
      ),
    );
    e.dice.replaceChildren();
    e.dice.hidden = !roll;
    // A Battle's fires: each side's dice, where they come from, the hits and who chose them
    // (also hits chosen in this step for a fire of an earlier one).
    const battle = step ? this.battleOfStep(i, view) : null;
    if (battle) {
      e.dice.hidden = false;
      e.dice.append(h('h2', {}, t('battle.at', { hex: (view.hexes.find((x) => x.hex === battle.record.hex) || { label: battle.record.hex }).label })), battleTable({ ...battle.record, fires: battle.fires }, (seat) => this.name(seat), { roundOffset: battle.roundOffset }));
    } else if (roll) e.dice.append(h('h2', {}, t('replay.diceThisStep')), h('div', { class: 'dice-line' }, h('span', {}, `${this.name(roll.player)}: `), diceRow(roll.dice)));
    this.renderLog();
  }

  // Step `i` as fetched (null when its page is not here yet).
  stepAt(i) {
    const page = i >= 1 ? this.pages.get(this.pageFrom(i)) : null;
    return page ? page.steps[i - page.from - 1] || null : null;
  }

  // The battle view of step `i`: its Battle from the start (./game/fire.js stepBattle), or,
  // while the steps before it are not fetched yet, from this step's events alone.
  battleOfStep(i, view) {
    const steps = [];
    // A Battle lasts a few dozen steps at most; no further back than that.
    for (let k = i; k >= 1 && k > i - 400; k -= 1) {
      const step = this.stepAt(k);
      if (!step) break;
      steps.unshift(step);
      const kinds = (step.events || []).map((ev) => ev.kind);
      if (kinds.includes('battle_started') || (k < i && kinds.includes('turn_started'))) {
        const found = stepBattle(steps);
        return found ? { ...found, roundOffset: 0 } : null;
      }
    }
    const step = this.stepAt(i);
    const fires = ((step && step.events) || []).filter((ev) => ev.kind === 'dice_rolled' && ev.fire && ev.purpose !== 'bombard');
    if (!fires.length) return null;
    const b = view.battle && view.battle.hex === fires[0].hex ? view.battle : null;
    const record = absorbBattleEvents(newBattleRecord(fires[0].hex, b ? b.attacker : fires[0].player, b ? b.defender : -1), step.events);
    if (!record.fires.length) return null;
    const last = Math.max(...record.fires.map((f) => f.round));
    return { record, fires: record.fires, roundOffset: b ? b.round - last : null };
  }

  // The log up to the step shown, from the pages fetched so far.
  renderLog() {
    const all = [];
    let missing = false;
    for (let from = 0; from < Math.max(1, this.index); from += this.pageSize) {
      const page = this.pages.get(from);
      if (!page) {
        missing = true;
        continue;
      }
      for (const step of page.steps) {
        if (step.seq > this.index) break;
        for (const l of step.log || []) all.push(l);
      }
    }
    const items = all.map((l) => h('li', {}, logLineText(l)));
    if (missing) items.unshift(h('li', { class: 'subtle' }, t('replay.stillLoading')));
    this.els.log.replaceChildren(...items);
    this.els.log.scrollTop = this.els.log.scrollHeight;
  }
}
