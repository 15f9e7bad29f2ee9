// Replay of a finished game, step by step, from GET /api/games/<id>/replay (docs/protocol.md).
// A seated player sees his own views; anyone else the spectator's.

import { api } from './net.js';
import { Board, describeHex, diceRow } from './board.js';
import { h, seatStyle, PHASE_NAME, VICTORY_NAME, UNIT_LETTER, UNIT_NAME, UNIT_TYPES } from './util.js';

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
    this.steps = [];
    this.index = 0;
    this.timer = null;
    this.summary = null;
    this.onKey = (e) => {
      if (e.target && (e.target.tagName === 'INPUT' || e.target.tagName === 'TEXTAREA')) return;
      if (e.key === 'ArrowRight') this.go(this.index + 1);
      if (e.key === 'ArrowLeft') this.go(this.index - 1);
    };
  }

  async start() {
    this.root.replaceChildren(h('p', { class: 'loading' }, 'Loading the replay…'));
    const token = this.ctx.session ? this.ctx.session.token : null;
    let data;
    try {
      this.summary = await api.game(this.gameId, token).catch(() => null);
      const seat = this.mySeat();
      data = await api.replay(this.gameId, token, seat);
    } catch (err) {
      this.root.replaceChildren(h('section', { class: 'card' }, h('h1', {}, `Replay of game ${this.gameId}`), h('p', { class: 'form-error' }, err.message), h('a', { class: 'btn', href: '#/' }, 'Back to the lobby')));
      return;
    }
    this.steps = data.steps || [];
    this.build();
    window.addEventListener('keydown', this.onKey);
    this.go(0);
  }

  mySeat() {
    if (!this.summary || !this.ctx.session) return null;
    const mine = (this.summary.seats || []).find((x) => x.player_id === this.ctx.session.player_id);
    return mine ? mine.seat : null;
  }

  destroy() {
    clearInterval(this.timer);
    window.removeEventListener('keydown', this.onKey);
  }

  name(seat) {
    const entry = this.summary ? (this.summary.seats || []).find((x) => x.seat === seat) : null;
    const st = seatStyle(seat);
    return entry && entry.name ? `${entry.name} (${st.name})` : st.name;
  }

  build() {
    this.els = {
      info: h('div', { class: 'prompt', id: 'replay-info' }),
      map: h('div', { class: 'map-wrap', id: 'map' }),
      hover: h('div', { class: 'hover-info' }),
      slider: h('input', { type: 'range', min: 0, max: Math.max(0, this.steps.length - 1), value: 0, id: 'replay-slider', 'aria-label': 'Step', oninput: (e) => this.go(Number(e.target.value)) }),
      counter: h('span', { class: 'subtle', id: 'replay-counter' }),
      play: h('button', { type: 'button', class: 'btn', id: 'replay-play', onclick: () => this.togglePlay() }, '▶ Play'),
      log: h('ol', { class: 'log-list', id: 'log' }),
      players: h('div', { class: 'panel players-panel' }),
      dice: h('div', { class: 'panel battle-panel' }),
    };
    const e = this.els;
    const controls = h(
      'div',
      { class: 'action-bar replay-controls' },
      h('button', { type: 'button', class: 'btn', title: 'First step', 'aria-label': 'First step', onclick: () => this.go(0) }, '|◀'),
      h('button', { type: 'button', class: 'btn', id: 'replay-prev', title: 'Previous step (←)', onclick: () => this.go(this.index - 1) }, '◀'),
      e.play,
      h('button', { type: 'button', class: 'btn btn-primary', id: 'replay-next', title: 'Next step (→)', onclick: () => this.go(this.index + 1) }, '▶'),
      h('button', { type: 'button', class: 'btn', title: 'Last step', 'aria-label': 'Last step', onclick: () => this.go(this.steps.length - 1) }, '▶|'),
      e.slider,
      e.counter,
    );
    this.root.replaceChildren(
      h(
        'div',
        { class: 'game-page replay' },
        h('section', { class: 'map-pane' }, e.info, controls, h('div', { class: 'map-frame' }, e.map, e.hover)),
        h('aside', { class: 'side' }, e.players, e.dice, h('details', { class: 'panel log-panel', open: true }, h('summary', {}, 'Log up to this step'), e.log), h('div', { class: 'panel' }, h('a', { class: 'btn btn-small', href: `#/game/${this.gameId}` }, 'Back to the game'), ' ', h('a', { class: 'btn btn-small', href: '#/' }, 'Lobby'))),
      ),
    );
    this.board = new Board(e.map, {
      onHexHover: (hex) => {
        const step = this.steps[this.index];
        const hx = hex === null || !step ? null : step.view.hexes.find((x) => x.hex === hex);
        e.hover.hidden = !hx;
        e.hover.textContent = hx ? describeHex(step.view, hx) : '';
      },
    });
  }

  togglePlay() {
    if (this.timer) {
      clearInterval(this.timer);
      this.timer = null;
      this.els.play.textContent = '▶ Play';
      return;
    }
    if (this.index >= this.steps.length - 1) this.go(0);
    this.els.play.textContent = '⏸ Pause';
    this.timer = setInterval(() => {
      if (this.index >= this.steps.length - 1) this.togglePlay();
      else this.go(this.index + 1);
    }, 900);
  }

  go(index) {
    if (!this.steps.length) {
      this.els.info.textContent = 'This replay has no steps.';
      return;
    }
    this.index = Math.max(0, Math.min(this.steps.length - 1, index));
    const step = this.steps[this.index];
    const view = step.view;
    const e = this.els;
    e.slider.value = String(this.index);
    e.counter.textContent = `step ${this.index} of ${this.steps.length - 1}`;
    const moves = [];
    let roll = null;
    for (const ev of step.events || []) {
      if (['unit_moved', 'unit_retreated', 'unit_disembarked', 'unit_embarked'].includes(ev.kind) && ev.from_hex >= 0 && ev.hex >= 0 && ev.from_hex !== ev.hex) {
        moves.push({ from: ev.from_hex, to: ev.hex, owner: ev.player });
      }
      if (ev.kind === 'dice_rolled' && Array.isArray(ev.dice)) roll = ev;
    }
    this.board.render(view, { moves, battleHex: view.battle ? view.battle.hex : null, pendingBattles: view.pending_battles || [] });
    const lines = (step.log || []).map((l) => l.text);
    e.info.replaceChildren(
      h('div', { class: 'phase-line' }, `Replay of game ${this.gameId} · turn ${view.turn} · ${PHASE_NAME[view.phase] || view.phase} · ${this.name(view.current)}`),
      h('div', { class: 'prompt-title', id: 'replay-step-text' }, this.index === 0 ? 'The start of the game.' : lines.join(' ') || `Step ${this.index}`),
      view.phase === 'game_over' ? h('div', { class: 'prompt-text' }, `Winner: ${(view.winners || []).map((s) => this.name(s)).join(', ') || 'nobody'} — ${VICTORY_NAME[view.ended_by] || view.ended_by}`) : null,
    );
    e.players.replaceChildren(
      h('h2', {}, 'Players'),
      h(
        'ol',
        { class: 'player-list' },
        view.players.map((p) => {
          const st = seatStyle(p.index);
          return h(
            'li',
            { class: `player${view.current === p.index ? ' current' : ''}` },
            h('div', { class: 'player-head' }, h('span', { class: 'turn-arrow' }, view.current === p.index ? '▶' : ''), h('span', { class: 'swatch', style: `background:${st.fill};border-color:${st.edge}` }), h('b', {}, this.name(p.index)), h('span', { class: 'vp' }, `${p.victory_points} VP`)),
            h('div', { class: 'player-sub' }, 'Reserve: ', UNIT_TYPES.every((t) => !(p.reserve[t] > 0)) ? h('span', { class: 'subtle' }, 'empty') : null, UNIT_TYPES.filter((t) => p.reserve[t] > 0).map((t) => h('span', { class: 'mini-counter', title: UNIT_NAME[t], style: `background:${st.fill};color:${st.ink};border-color:${st.edge}` }, `${UNIT_LETTER[t]}×${p.reserve[t]}`))),
          );
        }),
      ),
    );
    e.dice.replaceChildren();
    e.dice.hidden = !roll;
    if (roll) e.dice.append(h('h2', {}, 'Dice this step'), h('div', { class: 'dice-line' }, h('span', {}, `${this.name(roll.player)}: `), diceRow(roll.dice)));
    // The log up to this step.
    const all = [];
    for (let i = 0; i <= this.index; i += 1) for (const l of this.steps[i].log || []) all.push(l);
    e.log.replaceChildren(...all.map((l) => h('li', {}, l.text)));
    e.log.scrollTop = e.log.scrollHeight;
  }
}
