// The ladder (#/ladder?players=N, docs/protocol.md "Players' records"): one per player count
// (2..8), best displayed rating (mu - 3 sigma) first, in pages with the server's `after` cursor.
// A player who does not show his profile to the caller is a "hidden player" without a link.

import { api } from './net.js';
import { h, PLAYER_COUNTS } from './util.js';
import { formatNumber, t } from './i18n.js';

const PAGE = 20;
const COUNTS = PLAYER_COUNTS;

export function mountLadder(root, ctx, query) {
  const wanted = Number(new URLSearchParams(query || '').get('players'));
  const page = new LadderPage(root, ctx, COUNTS.includes(wanted) ? wanted : 2);
  page.start();
  return page;
}

// A rating as shown: one decimal, the language's way.
export function ratingText(rating) {
  return formatNumber(Math.round(rating * 10) / 10);
}

class LadderPage {
  constructor(root, ctx, players) {
    this.root = root;
    this.ctx = ctx;
    this.players = players;
    this.cursors = []; // the `after` of each page before this one
    this.after = null;
    this.next = null;
    this.ticket = 0;
  }

  start() {
    this.body = h('tbody', {});
    this.table = h('table', { class: 'records-table', id: 'ladder-table' }, h('thead', {}, h('tr', {}, h('th', { scope: 'col', class: 'num' }, t('ladder.rank')), h('th', { scope: 'col' }, t('ladder.player')), h('th', { scope: 'col', class: 'num' }, t('ladder.rating')), h('th', { scope: 'col', class: 'num' }, t('ladder.games')))), this.body);
    this.empty = h('p', { class: 'subtle empty', hidden: true }, t('ladder.empty'));
    this.prev = h('button', { type: 'button', class: 'btn btn-small', id: 'ladder-prev', onclick: () => this.goBack() }, t('ladder.better'));
    this.more = h('button', { type: 'button', class: 'btn btn-small', id: 'ladder-next', onclick: () => this.goOn() }, t('ladder.worse'));
    this.root.replaceChildren(
      h(
        'section',
        { class: 'records-page' },
        h(
          'section',
          { class: 'card' },
          h('div', { class: 'card-head' }, h('h1', {}, t('records.ladderTitle')), h('a', { href: '#/finished' }, t('records.finishedTitle'))),
          h('p', { class: 'subtle' }, t('ladder.about')),
          h(
            'nav',
            { class: 'tabs', 'aria-label': t('ladder.perCount') },
            COUNTS.map((n) => h('a', { class: `btn btn-small tab${n === this.players ? ' btn-active' : ''}`, href: `#/ladder?players=${n}`, 'aria-current': n === this.players ? 'page' : null, dataset: { players: n } }, t('options.players', { count: n }))),
          ),
          h('div', { class: 'table-scroll' }, this.table),
          this.empty,
          h('div', { class: 'pager', id: 'ladder-pager' }, this.prev, this.more),
        ),
      ),
    );
    this.load();
  }

  destroy() {
    this.ticket += 1;
  }

  goOn() {
    if (this.next === null) return;
    this.cursors.push(this.after);
    this.after = this.next;
    this.load();
  }

  goBack() {
    if (!this.cursors.length) return;
    this.after = this.cursors.pop();
    this.load();
  }

  async load() {
    const ticket = ++this.ticket;
    const query = { players: String(this.players), limit: String(PAGE) };
    if (this.after !== null) query.after = this.after;
    this.prev.disabled = true;
    this.more.disabled = true;
    let reply;
    try {
      reply = await api.ladder(this.ctx.session && this.ctx.session.token, query);
    } catch (err) {
      if (ticket !== this.ticket) return;
      this.body.replaceChildren();
      this.empty.hidden = false;
      this.empty.className = 'form-error';
      this.empty.textContent = err.message;
      return;
    }
    if (ticket !== this.ticket) return;
    const entries = reply.entries || [];
    this.next = reply.next === null || reply.next === undefined ? null : reply.next;
    const first = this.cursors.length * PAGE + 1;
    const me = this.ctx.session && this.ctx.session.player_id;
    this.body.replaceChildren(
      ...entries.map((e, i) =>
        h(
          'tr',
          { class: e.player_id && e.player_id === me ? 'ladder-me' : null, dataset: e.player_id ? { playerId: e.player_id } : {} },
          h('td', { class: 'num' }, formatNumber(first + i)),
          h('td', {}, e.hidden ? h('span', { class: 'subtle hidden-player' }, t('ladder.hiddenPlayer')) : h('a', { class: 'player-name', href: `#/player/${encodeURIComponent(e.player_id)}` }, e.name)),
          h('td', { class: 'num', title: e.hidden ? null : t('ladder.muSigma', { mu: ratingText(e.mu), sigma: ratingText(e.sigma) }) }, ratingText(e.rating)),
          h('td', { class: 'num' }, formatNumber(e.games)),
        ),
      ),
    );
    this.table.hidden = !entries.length;
    this.empty.hidden = Boolean(entries.length);
    this.prev.disabled = !this.cursors.length;
    this.more.disabled = this.next === null;
  }
}
