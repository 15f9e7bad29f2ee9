// A player's profile (#/player/<id>, GET /api/players/<id>, docs/protocol.md "Players'
// records"): his name, since when he plays, games played and won (by player count and by
// victory condition), his rating per player count with its latest changes as a small chart,
// his recent finished games and his public games under way. A profile hidden from the caller
// (403 profile_hidden) says so in a sentence.
//
// The page keeps an empty `.profile-actions` box under the name for buttons other modules put
// there (e.g. "Follow"): mountProfile resolves `page.ready` with the profile once it is shown.

import { api, ApiError } from './net.js';
import { h, s, VICTORY_NAME } from './util.js';
import { formatDate, formatDateTime, formatNumber, t } from './i18n.js';
import { finishedRow, playerLink } from './finished.js';
import { ratingText } from './ladder.js';

export function mountProfile(root, ctx, playerId) {
  const actions = h('div', { class: 'profile-actions' });
  const card = h('section', { class: 'card', id: 'profile' }, h('p', { class: 'subtle' }, t('common.loading')));
  root.replaceChildren(h('section', { class: 'records-page profile-page' }, card));
  let gone = false;
  const ready = api.player(ctx.session && ctx.session.token, playerId).then(
    (profile) => {
      if (!gone) renderProfile(card, actions, ctx, profile);
      return profile;
    },
    (err) => {
      if (gone) return null;
      const hidden = err instanceof ApiError && err.code === 'profile_hidden';
      const missing = err instanceof ApiError && (err.code === 'not_found' || err.code === 'player_deleted');
      card.replaceChildren(
        h('h1', {}, t('profile.title')),
        h('p', { class: hidden ? 'profile-hidden' : 'form-error', id: 'profile-message' }, hidden ? t('records.profileHidden') : missing ? t('profile.notFound') : err.message),
        h('p', {}, h('a', { href: '#/ladder' }, t('records.ladderTitle')), ' · ', h('a', { href: '#/finished?tab=all' }, t('records.finishedTitle'))),
      );
      return null;
    },
  );
  return {
    actions,
    ready,
    destroy() {
      gone = true;
    },
  };
}

// "12 played, 7 won" tables: one row per player count or victory condition.
function tallyTable(id, caption, rows) {
  if (!rows.length) return null;
  return h(
    'table',
    { class: 'records-table', id },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), h('th', { scope: 'col', class: 'num' }, t('profile.played')), h('th', { scope: 'col', class: 'num' }, t('profile.won')))),
    h('tbody', {}, rows.map(([label, played, won]) => h('tr', {}, h('th', { scope: 'row' }, label), h('td', { class: 'num' }, formatNumber(played)), h('td', { class: 'num' }, formatNumber(won))))),
  );
}

// The displayed rating after each of the latest changes of one player count, oldest first, as
// an inline SVG line (no library): the first point is the rating before the oldest change.
export function ratingChart(changes) {
  const ordered = [...changes].sort((a, b) => a.at - b.at || a.game_id - b.game_id);
  if (!ordered.length) return null;
  const points = [{ rating: ordered[0].rating_before, at: null }, ...ordered.map((c) => ({ rating: c.rating, at: c.at, game: c.game_id }))];
  const width = 220;
  const height = 64;
  const pad = 6;
  const values = points.map((p) => p.rating);
  const low = Math.min(...values);
  const high = Math.max(...values);
  const span = high - low || 1;
  const x = (i) => pad + (i * (width - 2 * pad)) / (points.length - 1);
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / span;
  const label = t('profile.chartLabel', { from: ratingText(points[0].rating), to: ratingText(points[points.length - 1].rating), count: ordered.length });
  return s(
    'svg',
    { class: 'rating-chart', viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': label },
    s('title', {}, label),
    s('line', { class: 'rating-chart-base', x1: pad, x2: width - pad, y1: y(low), y2: y(low) }),
    s('polyline', { class: 'rating-chart-line', points: points.map((p, i) => `${x(i).toFixed(1)},${y(p.rating).toFixed(1)}`).join(' ') }),
    points.slice(1).map((p, i) => s('circle', { class: 'rating-chart-dot', cx: x(i + 1).toFixed(1), cy: y(p.rating).toFixed(1), r: 2.5 }, s('title', {}, t('profile.chartPoint', { rating: ratingText(p.rating), id: p.game, time: formatDateTime(p.at) })))),
  );
}

function renderProfile(card, actions, ctx, profile) {
  // `visible_to` comes to the player himself only.
  const own = Boolean(profile.visible_to);
  const ratings = profile.ratings || [];
  const history = profile.history || [];
  const ratingRows = ratings.map((r) =>
    h(
      'tr',
      { dataset: { players: r.players } },
      h('th', { scope: 'row' }, h('a', { href: `#/ladder?players=${r.players}` }, t('options.players', { count: r.players }))),
      h('td', { class: 'num rating-value', title: t('ladder.muSigma', { mu: ratingText(r.mu), sigma: ratingText(r.sigma) }) }, ratingText(r.rating)),
      h('td', { class: 'num' }, formatNumber(r.games)),
      h('td', { class: 'chart-cell' }, ratingChart(history.filter((c) => c.players === r.players))),
    ),
  );
  const underWay = profile.under_way || [];
  const recent = profile.recent_finished || [];
  const won = profile.won || 0;
  const played = profile.played || 0;
  // (replaceChildren would write a null out as "null": leave the missing parts out first.)
  const parts = [
    h('div', { class: 'card-head' }, h('h1', { id: 'profile-name' }, profile.name), actions),
    h('p', { class: 'subtle', id: 'profile-since' }, t('profile.memberSince', { date: formatDate(profile.member_since, { dateStyle: 'long' }) })),
    own ? h('p', { class: 'subtle', id: 'profile-visibility' }, t('profile.visibleTo', { who: privacyName(profile.visible_to) }), ' ', h('a', { href: '#/account' }, t('profile.change'))) : null,
    h('p', { class: 'profile-totals', id: 'profile-totals' }, t('profile.totals', { count: played, won: formatNumber(won) })),
    h(
      'div',
      { class: 'profile-tallies' },
      tallyTable('profile-by-players', t('profile.byPlayers'), (profile.by_players || []).map((r) => [t('options.players', { count: r.players }), r.played, r.won])),
      tallyTable('profile-by-victory', t('profile.byVictory'), (profile.by_victory || []).map((r) => [VICTORY_NAME[r.victory] || r.victory, r.played, r.won])),
    ),
    h('h2', {}, t('profile.ratings')),
    ratings.length
      ? h(
          'div',
          { class: 'table-scroll' },
          h(
            'table',
            { class: 'records-table', id: 'profile-ratings' },
            h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, t('profile.ladder')), h('th', { scope: 'col', class: 'num' }, t('ladder.rating')), h('th', { scope: 'col', class: 'num' }, t('ladder.games')), h('th', { scope: 'col' }, t('profile.latestChanges')))),
            h('tbody', {}, ratingRows),
          ),
        )
      : h('p', { class: 'subtle', id: 'profile-ratings' }, t('profile.noRating')),
    h('h2', {}, t('profile.recent')),
    h('div', { class: 'game-list', id: 'profile-recent' }, recent.length ? recent.map((g) => finishedRow(g, profile.player_id)) : h('p', { class: 'subtle empty' }, t('records.noFinished'))),
    recent.length ? h('p', {}, h('a', { id: 'profile-all-finished', href: `#/finished?player=${encodeURIComponent(profile.player_id)}` }, t('profile.allFinished'))) : null,
    h('h2', {}, t('profile.underWay')),
    h(
      'div',
      { class: 'game-list', id: 'profile-under-way' },
      underWay.length
        ? underWay.map((g) =>
            h(
              'div',
              { class: 'game-row', dataset: { gameId: g.game_id } },
              h('div', { class: 'game-row-main' }, h('b', {}, t('lobby.game', { id: g.game_id })), h('div', { class: 'subtle' }, t('options.players', { count: g.options ? g.options.players : g.seats.length })), h('ul', { class: 'inline-list' }, (g.seats || []).filter((x) => x.name || x.former).map((x) => h('li', {}, playerLink(x))))),
              h('a', { class: 'btn btn-small', href: `#/game/${g.game_id}` }, t('profile.watch')),
            ),
          )
        : h('p', { class: 'subtle empty' }, t('profile.noneUnderWay')),
    ),
  ];
  card.replaceChildren(...parts.filter(Boolean));
}

export function privacyName(value) {
  return { everyone: t('privacy.everyone'), opponents: t('privacy.opponents'), nobody: t('privacy.nobody') }[value] || value;
}
