// The look back on a finished game's replay page (GET /api/games/<id>/analysis,
// docs/protocol.md): each player's chances of winning at the start of every turn as a chart
// (inline SVG, one line per player in his seat colour), the largest falls marked, and for a
// selected fall what the computer would have played instead, with a jump to that step of the
// replay. The server computes it once per game; until it is done the panel says so and asks
// again, waiting longer each time. The numbers are the server's: nothing is computed here.

import { api } from './net.js';
import { h, seatStyle } from './util.js';
import { LANG, logLineText, t } from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
const percent = new Intl.NumberFormat(LANG, { style: 'percent', maximumFractionDigits: 0 });

function svg(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  for (const c of children.flat()) if (c) el.append(c);
  return el;
}

// What an action did, in words: the log lines the server made of it (a spectator's), else
// a word for the few actions that leave no line.
function actionText(told) {
  const lines = ((told && told.log) || []).map((l) => logLineText(l)).filter(Boolean);
  if (lines.length) return lines.join(' ');
  const kind = told && told.action ? told.action.kind : '';
  if (kind === 'end_phase') return t('lookback.endPhase');
  if (kind === 'continue_battle') return t('lookback.continueBattle');
  return t('lookback.anotherChoice');
}

export class LookbackPanel {
  // `name(seat)`: a seat's name as the page shows it; `jump(step)`: shows that step.
  constructor({ gameId, token, invite, name, jump }) {
    Object.assign(this, { gameId, token, invite, name, jump });
    this.el = h('section', { class: 'panel lookback', id: 'lookback', 'aria-live': 'polite' });
    this.timer = null;
    this.stopped = false;
    this.selected = -1;
  }

  stop() {
    this.stopped = true;
    clearTimeout(this.timer);
  }

  // Asks until the analysis is done: 2 s, then half as long again each time, at most 30 s.
  async load(wait = 2000) {
    if (this.stopped) return;
    let reply;
    try {
      reply = await api.analysis(this.gameId, this.token, this.invite);
    } catch (err) {
      if (this.stopped) return;
      // Refused for now (the server is busy, or this address has one under way): later.
      if (['busy', 'analysis_pending', 'rate_limited', 'network'].includes(err.code)) {
        this.show(h('p', { class: 'subtle' }, t('lookback.later')));
        this.timer = setTimeout(() => this.load(Math.min(60000, wait * 2)), Math.max(wait, 10000));
        return;
      }
      const reason = { game_running: t('lookback.running'), no_analysis: t('lookback.guided') }[err.code] || t('lookback.failed');
      this.show(h('p', { class: 'subtle' }, reason));
      return;
    }
    if (this.stopped) return;
    if (!reply || reply.status !== 'done') {
      this.show(h('p', { class: 'loading', id: 'lookback-pending' }, t('lookback.pending')));
      this.timer = setTimeout(() => this.load(Math.min(30000, Math.round(wait * 1.5))), wait);
      return;
    }
    this.analysis = reply;
    this.render();
  }

  show(...children) {
    this.el.replaceChildren(h('h2', {}, t('lookback.title')), ...children);
  }

  render() {
    const a = this.analysis;
    const points = a.points || [];
    if (points.length < 2) {
      this.show(h('p', { class: 'subtle' }, t('lookback.tooShort')));
      return;
    }
    const W = 360;
    const H = 170;
    const left = 44;
    const right = 8;
    const top = 8;
    const bottom = 22;
    const first = points[0].turn;
    const last = Math.max(first + 1, points[points.length - 1].turn);
    const x = (turn) => left + ((turn - first) / (last - first)) * (W - left - right);
    const y = (c) => top + (1 - c) * (H - top - bottom);
    const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'lookback-chart', role: 'img', 'aria-label': t('lookback.chartLabel') });
    for (const c of [0, 0.5, 1]) {
      chart.append(svg('line', { x1: left, x2: W - right, y1: y(c), y2: y(c), class: 'lookback-grid' }));
      const label = svg('text', { x: left - 4, y: y(c) + 4, 'text-anchor': 'end', class: 'lookback-axis' });
      label.textContent = percent.format(c);
      chart.append(label);
    }
    for (const [turn, anchor] of [
      [first, 'start'],
      [last, 'end'],
    ]) {
      const label = svg('text', { x: x(turn), y: H - 6, 'text-anchor': anchor, class: 'lookback-axis' });
      label.textContent = t('lookback.turnN', { n: turn });
      chart.append(label);
    }
    for (let seat = 0; seat < a.players; seat += 1) {
      const st = seatStyle(seat);
      const d = points.map((p, i) => `${i ? 'L' : 'M'}${x(p.turn).toFixed(1)},${y(p.chances[seat]).toFixed(1)}`).join(' ');
      // A light seat colour (white, yellow) gets its edge colour's outline to stay visible.
      chart.append(svg('path', { d, class: 'lookback-halo', stroke: st.edge }));
      chart.append(svg('path', { d, class: 'lookback-line', stroke: st.fill, 'data-seat': seat }));
    }
    const drops = a.drops || [];
    drops.forEach((drop, i) => {
      const mark = svg('circle', {
        cx: x(drop.from_turn),
        cy: y(drop.before),
        r: i === this.selected ? 7 : 5,
        class: `lookback-mark${i === this.selected ? ' selected' : ''}`,
        fill: seatStyle(drop.player).fill,
        stroke: '#000',
        tabindex: 0,
        role: 'button',
        'data-drop': i,
        'aria-label': this.dropLabel(drop),
      });
      mark.addEventListener('click', () => this.select(i));
      mark.addEventListener('keydown', (e) => {
        if (e.key === 'Enter' || e.key === ' ') this.select(i);
      });
      chart.append(mark);
    });
    const legend = h(
      'ul',
      { class: 'lookback-legend' },
      Array.from({ length: a.players }, (_, seat) => {
        const st = seatStyle(seat);
        const lastChance = points[points.length - 1].chances[seat];
        return h('li', {}, h('span', { class: 'swatch', style: `background:${st.fill};border-color:${st.edge}` }), `${this.name(seat)} ${percent.format(lastChance)}`);
      }),
    );
    const list = drops.length
      ? h(
          'ol',
          { class: 'lookback-drops' },
          drops.map((drop, i) => h('li', {}, h('button', { type: 'button', class: `btn btn-small${i === this.selected ? ' btn-primary' : ''}`, 'data-drop': i, onclick: () => this.select(i) }, this.dropLabel(drop)))),
        )
      : h('p', { class: 'subtle' }, t('lookback.noDrops'));
    const detail = this.selected >= 0 ? this.detail(drops[this.selected]) : null;
    this.show(chart, legend, h('h3', {}, t('lookback.drops')), list, detail, h('p', { class: 'subtle lookback-method' }, t('lookback.method', { count: (a.settings && a.settings.playouts) || 0 })));
  }

  dropLabel(drop) {
    return t('lookback.drop', { who: this.name(drop.player), turn: drop.turn, before: percent.format(drop.before), after: percent.format(drop.after) });
  }

  select(i) {
    this.selected = i;
    this.render();
    const drop = this.analysis.drops[i];
    // The replay shows the state before the decision (or the turn's start).
    const step = drop.decision ? drop.decision.seq - 1 : drop.from_seq;
    this.jump(step);
    const shown = this.el.querySelector('.lookback-detail');
    if (shown) shown.focus();
  }

  detail(drop) {
    const parts = [h('p', {}, h('b', {}, this.dropLabel(drop)))];
    if (drop.decision) {
      parts.push(h('p', { id: 'lookback-computer' }, t('lookback.computer', { what: actionText(drop.decision.computer) })));
      parts.push(h('p', { class: 'subtle' }, t('lookback.instead', { what: actionText(drop.decision.played) })));
    } else if (drop.searched > 0) {
      parts.push(h('p', { id: 'lookback-computer' }, t('lookback.agreed', { count: drop.searched })));
    } else {
      parts.push(h('p', { id: 'lookback-computer' }, t('lookback.noDecision')));
    }
    return h('div', { class: 'lookback-detail', tabindex: -1 }, parts);
  }
}
