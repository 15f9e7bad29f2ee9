// The guided first game's runner (docs/client.md, "The guided first game"): the "Learn to
// play" page that asks the server for the game (tutorial.start), and the coach, a panel over
// the normal game page that shows the step's text (steps.js), highlights where to click,
// checks from each state the server sends that the step was done and says what happened.
// The step reached is kept in localStorage, so leaving and coming back continues there.

import { h, toast } from '../util.js';
import { t } from '../i18n.js';
import { STEPS } from './steps.js';

const STORE_KEY = 'viktory.tutorial';

function load() {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) || 'null');
    return saved && Number.isInteger(saved.gameId) ? saved : null;
  } catch {
    return null;
  }
}

function save(gameId, step) {
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify({ gameId, step }));
  } catch {
    // Private browsing without storage: the coach still finds its step from the view.
  }
}

// Whether this game is the player's guided game (the coach then goes with its page).
export function isTutorialGame(gameId) {
  const saved = load();
  return !!saved && saved.gameId === Number(gameId);
}

// Asks the server for the guided game (a new one with `again`, else the one under way) and
// opens its page.
export async function startTutorial(ctx, { again = false } = {}) {
  const conn = ctx.conn;
  if (!conn.isOnline()) {
    await new Promise((resolve) => conn.addEventListener('welcome', resolve, { once: true }));
  }
  const { seen } = await conn.request('tutorial.start', again ? { restart: true } : {});
  const started = seen.filter((m) => m.type === 'tutorial.started').pop();
  if (!started) throw new Error('tutorial.start: no game');
  const saved = load();
  if (again || !saved || saved.gameId !== started.game_id) save(started.game_id, 0);
  location.replace(`#/game/${started.game_id}`);
}

// The "Learn to play" page (#/learn, #/learn?again): a moment's wait, then the game page.
export function mountLearn(root, ctx, { again = false } = {}) {
  const status = h('p', { class: 'subtle' }, t('tutorial.starting'));
  root.replaceChildren(h('section', { class: 'card', id: 'learn-page' }, h('h1', {}, t('tutorial.title')), status));
  startTutorial(ctx, { again }).catch((err) => {
    status.textContent = err && err.message ? err.message : String(err);
    status.className = 'form-error';
    root.querySelector('#learn-page').append(h('a', { class: 'btn', href: '#/' }, t('tutorial.backToLobby')));
  });
  return { destroy() {} };
}

// The coach over a game page (js/game.js's GamePage: its channel and root).
export function attachCoach(page, root, ctx) {
  const coach = new Coach(page, root, ctx);
  coach.start();
  return coach;
}

class Coach {
  constructor(page, root, ctx) {
    this.page = page;
    this.root = root;
    this.ctx = ctx;
    this.gameId = page.gameId;
    const saved = load();
    this.index = saved && saved.gameId === this.gameId ? Math.min(saved.step, STEPS.length - 1) : 0;
    this.afterText = '';
    this.state = null;
    this.hidden = false;
    this.off = [];
  }

  start() {
    this.panel = h('aside', { class: 'coach', id: 'coach', role: 'region', 'aria-label': t('tutorial.title'), 'aria-live': 'polite' });
    document.body.append(this.panel);
    const onState = (e) => this.onState(e.detail.state);
    this.page.channel.addEventListener('state', onState);
    this.off.push(() => this.page.channel.removeEventListener('state', onState));
    // The map and the action bar are drawn again after every change: mark the targets again.
    const timer = setInterval(() => this.mark(), 300);
    this.off.push(() => clearInterval(timer));
    if (this.page.channel.state) this.onState(this.page.channel.state);
    else this.render();
  }

  destroy() {
    for (const off of this.off) off();
    this.unmark();
    this.panel.remove();
  }

  get step() {
    return STEPS[this.index];
  }

  onState(state) {
    if (!state || !state.view) return;
    this.state = state;
    this.advance();
    this.render();
  }

  // Past every step the view says is done; a game over goes to the last step.
  advance() {
    const s = this.state;
    if (!s) return;
    if (s.view.phase === 'game_over') {
      const battle = STEPS.findIndex((x) => x.id === 'battle');
      if (this.index <= battle) this.afterText = STEPS[battle].after();
      this.index = STEPS.length - 1;
    }
    while (this.index < STEPS.length - 1 && !this.step.next && this.step.done(s)) {
      this.afterText = this.step.after ? this.step.after() : '';
      this.index += 1;
    }
    save(this.gameId, this.index);
  }

  next() {
    this.index = Math.min(this.index + 1, STEPS.length - 1);
    this.afterText = '';
    this.advance();
    this.render();
  }

  render() {
    const step = this.step;
    const s = this.state;
    const won = s && s.view.phase === 'game_over' && (s.view.winners || []).includes(s.you ? s.you.seat : -1);
    const text = step.end && s && !won ? t('tutorial.lost.text') : step.text();
    const buttons = h('div', { class: 'coach-buttons' });
    if (step.next) buttons.append(h('button', { type: 'button', class: 'btn btn-primary', id: 'coach-next', onclick: () => this.next() }, t('tutorial.next')));
    if (step.end) {
      buttons.append(
        h('button', { type: 'button', class: 'btn btn-primary', id: 'coach-again', onclick: () => this.again() }, t('tutorial.playAgain')),
        h('a', { class: 'btn', href: '#/' }, t('tutorial.backToLobby')),
      );
    } else {
      buttons.append(h('button', { type: 'button', class: 'btn btn-small btn-plain', id: 'coach-restart', onclick: () => this.again() }, t('tutorial.restart')));
    }
    buttons.append(h('button', { type: 'button', class: 'btn btn-small btn-plain', id: 'coach-toggle', 'aria-expanded': this.hidden ? 'false' : 'true', onclick: () => this.toggle() }, this.hidden ? t('tutorial.show') : t('tutorial.hide')));
    this.panel.dataset.step = step.id;
    this.panel.classList.toggle('coach-folded', this.hidden);
    const parts = [h('p', { class: 'coach-title' }, t('tutorial.progress', { step: this.index + 1, steps: STEPS.length }))];
    if (!this.hidden) {
      if (this.afterText) parts.push(h('p', { class: 'coach-after' }, '✓ ', this.afterText));
      parts.push(h('p', { class: 'coach-text' }, text));
      if (step.wait) parts.push(h('p', { class: 'coach-wait subtle' }, t('tutorial.waiting')));
    }
    this.panel.replaceChildren(...parts, buttons);
    this.mark();
  }

  toggle() {
    this.hidden = !this.hidden;
    this.render();
  }

  async again() {
    try {
      await startTutorial(this.ctx, { again: true });
    } catch (err) {
      toast(err && err.message ? err.message : String(err), 'error');
    }
  }

  unmark() {
    for (const el of document.querySelectorAll('.coach-target')) el.classList.remove('coach-target');
  }

  // Highlights the step's hexes and button (only while it is the player's to do).
  mark() {
    this.unmark();
    const s = this.state;
    const step = this.step;
    this.panel.dataset.hexes = '';
    if (!s || this.hidden || s.view.phase === 'game_over') return;
    const labels = step.hexes ? step.hexes(s) : [];
    // In the order to click them (a unit's hex, then where it goes), for the browser test too.
    this.panel.dataset.hexes = labels.join(' ');
    for (const label of labels) {
      for (const el of document.querySelectorAll(`svg.board g.hex[data-label="${label}"]`)) el.classList.add('coach-target');
    }
    const selector = step.target ? step.target(s) : null;
    if (selector) for (const el of document.querySelectorAll(selector)) el.classList.add('coach-target');
  }
}
