// The lobby's "Games to watch": running public games that allow spectators (lobby.running,
// docs/protocol.md), the most recently played first, none of one's own (those are in "your
// games"). Opening one watches it as a spectator.

import { h, seatStyle, timeAgo } from './util.js';
import { optionsText } from './options.js';
import { timeControlText } from './clock_options.js';
import { t } from './i18n.js';

export class RunningGames {
  constructor(ctx) {
    this.ctx = ctx;
    this.el = h('div', { class: 'game-list', id: 'running-games' }, h('p', { class: 'subtle' }, t('common.loading')));
    this.off = [];
    const onMessage = (e) => {
      if (e.detail.type === 'lobby.running') this.render(e.detail.games || []);
    };
    ctx.conn.addEventListener('message', onMessage);
    this.off.push(() => ctx.conn.removeEventListener('message', onMessage));
  }

  section() {
    return h('section', { class: 'card' }, h('h2', {}, t('running.title')), h('p', { class: 'subtle' }, t('running.help')), this.el);
  }

  refresh() {
    if (this.ctx.conn.isOnline()) this.ctx.conn.sendRaw({ type: 'lobby.running' });
  }

  destroy() {
    for (const f of this.off) f();
  }

  render(games) {
    const me = this.ctx.session ? this.ctx.session.player_id : null;
    this.el.replaceChildren();
    if (!games.length) {
      this.el.append(h('p', { class: 'subtle empty' }, t('running.none')));
      return;
    }
    for (const g of games) {
      const seated = g.seats.some((x) => x.player_id === me);
      const current = g.seats.find((x) => x.seat === g.current_seat);
      this.el.append(
        h(
          'a',
          { class: 'game-row link', href: `#/game/${g.game_id}`, dataset: { gameId: g.game_id } },
          h(
            'div',
            { class: 'game-row-main' },
            h('b', {}, t('lobby.game', { id: g.game_id })),
            ` · ${g.seats.map((x) => x.name || seatStyle(x.seat).name).join(` ${t('lobby.versus')} `)}`,
            h('div', { class: 'subtle' }, `${optionsText(g.options)}${g.spectators === 'delayed' ? ` · ${t('running.turnsBehind', { count: g.spectator_delay })}` : ''}${g.last_move_at ? ` · ${t('lobby.lastMove', { ago: timeAgo(g.last_move_at) })}` : ''}`),
            h('div', { class: 'subtle time-control' }, timeControlText(g.clock)),
          ),
          current ? h('span', { class: 'tag' }, t('lobby.theirMove', { name: current.name || seatStyle(current.seat).name })) : null,
          h('span', { class: 'btn btn-small' }, seated ? t('running.play') : t('running.watch')),
        ),
      );
    }
  }
}
