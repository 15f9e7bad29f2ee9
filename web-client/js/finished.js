// Finished games (#/finished, docs/protocol.md "Players' records"): the caller's own
// (?tab=mine), all public ones (?tab=all) or one player's (?player=<id>), filtered by player
// count, victory condition and rated, newest first. The server pages with a keyset cursor
// (`before` a game id): "older" follows the page's `next`, "newer" goes back along the cursors
// this page has walked. Each row opens the game's replay. The rows are also the profile's
// "recent games" (finishedRow).

import { api, ApiError } from './net.js';
import { h, VICTORY_NAME, PLAYER_COUNTS } from './util.js';
import { formatDate, t } from './i18n.js';
import { seatName } from './seat_kinds.js';

// The server's page (1..50; 20 when none is asked).
const PAGE = 20;

const VICTORIES = ['standard', 'shorter', 'race', 'doomsday', 'subjugation'];

// A player's name as a link to his profile (a computer seat's, a free seat's or a former
// player's name: text; a deleted account has no profile).
export function playerLink(entry) {
  const name = seatName(entry) || t('records.unknownPlayer');
  if (!entry || !entry.player_id || entry.computer || entry.former) return h('span', { class: 'player-name' }, name);
  return h('a', { class: 'player-name', href: `#/player/${encodeURIComponent(entry.player_id)}` }, name);
}

// "1st" / "Platz 1": a seat's place in a finished game (1 = a winner; equal places tie).
function placeOf(game, seat) {
  const entry = (game.places || []).find((p) => p.seat === seat);
  return entry ? entry.place : null;
}

// One finished game as a row: number, date, player count, how it ended, rated or not, the
// players with their places, its length, and links to its replay and its record. `subject`: the
// player whose list this is (his result first, the others as his opponents).
export function finishedRow(game, subject = null) {
  const seats = (game.seats || []).filter((s) => s.name || s.player_id);
  const mine = subject ? seats.find((s) => s.player_id === String(subject)) : null;
  const endedBy = game.result && game.result.ended_by;
  const myPlace = mine ? placeOf(game, mine.seat) : null;
  const people = (mine ? seats.filter((s) => s !== mine) : seats).map((s) => {
    const place = placeOf(game, s.seat);
    return h('li', {}, playerLink(s), place ? h('span', { class: 'subtle' }, ` · ${t('records.place', { place })}`) : null);
  });
  const when = game.last_move_at || game.created_at;
  return h(
    'div',
    { class: 'game-row finished-row', dataset: { gameId: game.game_id } },
    h(
      'div',
      { class: 'game-row-main' },
      h('a', { class: 'finished-open', href: `#/replay/${game.game_id}` }, h('b', {}, t('lobby.game', { id: game.game_id }))),
      when ? h('span', { class: 'subtle' }, ` · ${formatDate(when)}`) : null,
      ' ',
      myPlace ? h('span', { class: `tag ${myPlace === 1 ? 'tag-win' : 'tag-out'} finished-result` }, myPlace === 1 ? t('records.won') : t('records.place', { place: myPlace })) : null,
      ' ',
      h('span', { class: `tag ${game.rated ? 'tag-rated' : 'tag-unrated'}` }, game.rated ? t('records.rated') : t('records.unrated')),
      h(
        'div',
        { class: 'subtle' },
        t('options.players', { count: (game.options && game.options.players) || seats.length }),
        endedBy ? ` · ${VICTORY_NAME[endedBy] || endedBy}` : '',
        typeof game.turns === 'number' ? ` · ${t('records.turns', { count: game.turns })}` : '',
      ),
      h('div', { class: 'finished-players' }, mine ? h('span', { class: 'subtle' }, t('records.against')) : null, h('ul', { class: 'inline-list' }, people)),
    ),
    h(
      'div',
      { class: 'finished-links' },
      h('a', { class: 'btn btn-small', href: `#/replay/${game.game_id}` }, t('records.replay')),
      game.record ? h('a', { class: 'btn btn-small btn-plain', href: game.record, download: `viktory-game-${game.game_id}.json`, title: t('records.recordTitle') }, t('records.record')) : null,
    ),
  );
}

// The page's tab and the player it lists, from the hash's query.
function readQuery(query, signedIn) {
  const params = new URLSearchParams(query || '');
  const player = params.get('player');
  if (player && /^\d+$/.test(player)) return { tab: 'player', player };
  const tab = params.get('tab');
  if (tab === 'all' || !signedIn) return { tab: 'all', player: null };
  return { tab: 'mine', player: null };
}

export function mountFinished(root, ctx, query) {
  const page = new FinishedPage(root, ctx, readQuery(query, Boolean(ctx.session)));
  page.start();
  return page;
}

class FinishedPage {
  constructor(root, ctx, { tab, player }) {
    this.root = root;
    this.ctx = ctx;
    this.tab = tab;
    this.player = player;
    this.filters = { players: '', victory: '', rated: '' };
    this.cursors = []; // the `before` of each page shown before this one (newest first)
    this.before = null;
    this.next = null;
    this.ticket = 0;
  }

  start() {
    const signedIn = Boolean(this.ctx.session);
    const tabLink = (tab, href, text) => h('a', { class: `btn btn-small tab${this.tab === tab ? ' btn-active' : ''}`, href, 'aria-current': this.tab === tab ? 'page' : null, dataset: { tab } }, text);
    this.playerTab = this.tab === 'player' ? tabLink('player', `#/finished?player=${this.player}`, t('records.playerGames')) : null;
    const select = (id, label, options) =>
      h(
        'label',
        { class: 'field', for: id },
        h('span', {}, label),
        h('select', { id, onchange: (e) => this.setFilter(id.replace('finished-', ''), e.target.value) }, options.map(([v, text]) => h('option', { value: v }, text))),
      );
    this.list = h('div', { class: 'game-list', id: 'finished-list' }, h('p', { class: 'subtle' }, t('common.loading')));
    this.newer = h('button', { type: 'button', class: 'btn btn-small', id: 'finished-newer', onclick: () => this.goNewer() }, t('records.newer'));
    this.older = h('button', { type: 'button', class: 'btn btn-small', id: 'finished-older', onclick: () => this.goOlder() }, t('records.older'));
    this.root.replaceChildren(
      h(
        'section',
        { class: 'records-page' },
        h(
          'section',
          { class: 'card' },
          h('div', { class: 'card-head' }, h('h1', {}, t('records.finishedTitle')), h('a', { href: '#/ladder' }, t('records.ladderTitle'))),
          h('nav', { class: 'tabs', 'aria-label': t('records.finishedTitle') }, signedIn ? tabLink('mine', '#/finished?tab=mine', t('records.mine')) : null, tabLink('all', '#/finished?tab=all', t('records.allPublic')), this.playerTab),
          h(
            'div',
            { class: 'records-filters' },
            select('finished-players', t('records.filterPlayers'), [['', t('records.any')], ...PLAYER_COUNTS.map((n) => [String(n), t('options.players', { count: n })])]),
            select('finished-victory', t('records.filterVictory'), [['', t('records.any')], ...VICTORIES.map((v) => [v, VICTORY_NAME[v]])]),
            select('finished-rated', t('records.filterRated'), [['', t('records.any')], ['true', t('records.rated')], ['false', t('records.unrated')]]),
          ),
          this.list,
          h('div', { class: 'pager', id: 'finished-pager' }, this.newer, this.older),
        ),
      ),
    );
    this.load();
  }

  destroy() {
    this.ticket += 1;
  }

  setFilter(name, value) {
    this.filters[name] = value;
    this.cursors = [];
    this.before = null;
    this.load();
  }

  goOlder() {
    if (this.next === null) return;
    this.cursors.push(this.before);
    this.before = this.next;
    this.load();
  }

  goNewer() {
    if (!this.cursors.length) return;
    this.before = this.cursors.pop();
    this.load();
  }

  async load() {
    const ticket = ++this.ticket;
    const query = { limit: String(PAGE) };
    if (this.tab === 'mine') query.player = 'me';
    if (this.tab === 'player') query.player = this.player;
    for (const [k, v] of Object.entries(this.filters)) if (v) query[k] = v;
    if (this.before !== null) query.before = String(this.before);
    this.newer.disabled = true;
    this.older.disabled = true;
    let reply;
    try {
      reply = await api.finished(this.ctx.session && this.ctx.session.token, query);
    } catch (err) {
      if (ticket !== this.ticket) return;
      const hidden = err instanceof ApiError && err.code === 'profile_hidden';
      this.list.replaceChildren(h('p', { class: hidden ? 'subtle empty profile-hidden' : 'form-error' }, hidden ? t('records.profileHidden') : err.message));
      return;
    }
    if (ticket !== this.ticket) return;
    const games = reply.games || [];
    this.next = reply.next === null || reply.next === undefined ? null : reply.next;
    const subject = this.tab === 'mine' ? this.ctx.session.player_id : this.player;
    if (this.playerTab && this.player) {
      const seat = games.flatMap((g) => g.seats || []).find((s) => s.player_id === this.player);
      if (seat) this.playerTab.textContent = t('records.gamesOf', { name: seat.name });
    }
    this.list.replaceChildren(...(games.length ? games.map((g) => finishedRow(g, subject)) : [h('p', { class: 'subtle empty' }, t('records.noFinished'))]));
    this.newer.disabled = !this.cursors.length;
    // A full page may be the last: the server gives `next` whenever the page is full.
    this.older.disabled = this.next === null;
  }
}
