// The start page: choose a display name, create a game, see open public games (live) and
// one's own games with whose turn it is.

import { api, saveSession } from './net.js';
import { h, seatStyle, toast, timeAgo, TILE_MIX_NAME, PLAYER_COUNTS } from './util.js';
import { optionFields, optionsText, readOptionFields, wireOptionFields, boardSizeField, wireBoardSizeField } from './options.js';
import { fogFields, readFogFields } from './fog.js';
import { saveInvite } from './invites.js';
import { fetchInvite, inviteSummary } from './invite.js';
import { RunningGames } from './running.js';
import { fillPresence } from './presence.js';
import { followButton, friendsPanel, isFriendsGame, onFriendsChanged, sortFriendsFirst } from './friends.js';
import { seatKindFields } from './seat_kinds.js';
import { t } from './i18n.js';
import { shownName } from './leaving.js';
import { languageSwitch } from './language_switch.js';
import { clockFields, durationText, timeLeft, timeControlText, localTime, SPEED_NAME } from './clock_options.js';
import { operatorTag, revealWaitingText } from './fair_marks.js';
import { followToServer } from './elsewhere.js';

// Games on a page of the open list (the server allows up to 50).
const OPEN_PAGE = 10;

// The name form, shown when this browser has no session yet.
// `invitation` ({gameId, invite}): the visitor came from an invitation link; what he is invited
// to is shown above the form, and after choosing a name he lands on the invitation page.
export function mountWelcome(root, ctx, invitation = null) {
  const input = h('input', { type: 'text', id: 'name', name: 'name', maxlength: 32, required: true, autocomplete: 'nickname', placeholder: t('welcome.namePlaceholder') });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const button = h('button', { type: 'submit', class: 'btn btn-primary' }, t('welcome.play'));
  // "Learn to play": the same name, then the guided first game (js/tutorial/coach.js).
  const learn = h('button', { type: 'submit', class: 'btn', id: 'learn-to-play', value: 'learn' }, t('tutorial.learn'));
  const form = h(
    'form',
    {
      class: 'card welcome-form',
      onsubmit: async (ev) => {
        ev.preventDefault();
        const name = input.value.trim();
        if (!name) {
          error.textContent = t('welcome.nameMissing');
          return;
        }
        button.disabled = true;
        error.textContent = '';
        try {
          const session = await api.createSession(name);
          saveSession(session);
          if (ev.submitter === learn) location.hash = '#/learn';
          ctx.setSession(session);
        } catch (err) {
          error.textContent = err.message;
          button.disabled = false;
        }
      },
    },
    h('h2', {}, t('welcome.chooseName')),
    h('p', {}, t('welcome.nameHelp')),
    h('label', { for: 'name' }, t('welcome.nameLabel')),
    h('div', { class: 'invite-row' }, input, button),
    h('p', { class: 'learn-row' }, learn, ' ', h('span', { class: 'subtle' }, t('tutorial.learnHelp'))),
    error,
  );
  const invited = h('div', { class: 'card invite-page', id: 'welcome-invite', hidden: true });
  if (invitation) {
    fetchInvite(ctx, invitation.gameId, invitation.invite).then(
      (summary) => {
        invited.replaceChildren(inviteSummary(summary), h('p', {}, t('welcome.invitedChooseName')));
        invited.hidden = false;
      },
      () => {},
    );
  }
  root.replaceChildren(
    h(
      'section',
      { class: 'welcome' },
      invited,
      h('div', { class: 'hero' }, h('h1', {}, 'VIKTORY II'), h('p', { class: 'tagline' }, t('welcome.tagline'))),
      form,
      h(
        'section',
        { class: 'card how-to' },
        h('h2', {}, t('welcome.howTurnGoes')),
        h(
          'ol',
          { class: 'steps' },
          h('li', {}, h('b', {}, t('welcome.stepBuild')), ' ', t('welcome.stepBuildText')),
          h('li', {}, h('b', {}, t('welcome.stepMove')), ' ', t('welcome.stepMoveText')),
          h('li', {}, h('b', {}, t('welcome.stepReserve')), ' ', t('welcome.stepReserveText')),
        ),
        h('p', { class: 'subtle' }, t('welcome.noRulesByHeart')),
      ),
      h('section', { class: 'card' }, languageSwitch()),
    ),
  );
  input.focus();
  return { destroy() {} };
}

// The lobby's way into the guided first game (#/learn resumes the one under way).
function learnCard() {
  return h('section', { class: 'card learn-card' }, h('h2', {}, t('tutorial.title')), h('p', { class: 'subtle' }, t('tutorial.learnHelp')), h('a', { class: 'btn', id: 'lobby-learn', href: '#/learn' }, t('tutorial.learn')));
}

// The way to the players' records: finished games and the ladder (js/finished.js, js/ladder.js).
function recordsCard() {
  return h('section', { class: 'card records-card', id: 'lobby-records' }, h('h2', {}, t('records.lobbyTitle')), h('p', { class: 'subtle' }, t('records.lobbyHelp')), h('p', { class: 'records-links' }, h('a', { class: 'btn', id: 'lobby-finished', href: '#/finished' }, t('records.finishedTitle')), ' ', h('a', { class: 'btn', id: 'lobby-ladder', href: '#/ladder' }, t('records.ladderTitle'))));
}

export function mountLobby(root, ctx) {
  const lobby = new Lobby(root, ctx);
  lobby.start();
  return lobby;
}

class Lobby {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.openGames = null;  // the page shown: game id -> summary (docs/protocol.md, "Lobby")
    this.openCount = 0;
    this.page = { speed: '', offset: 0, limit: OPEN_PAGE };
    this.myGames = null;
    this.off = [];
  }

  start() {
    const conn = this.ctx.conn;
    this.build();
    const onMessage = (e) => {
      const msg = e.detail;
      if (msg.type === 'lobby') {
        // The page, whole: after subscribing (or subscribing again to another page).
        this.openGames = new Map((msg.games || []).map((g) => [g.game_id, g]));
        this.openCount = msg.count || 0;
        this.renderOpen();
      } else if (msg.type === 'lobby.changes' && this.openGames) {
        // What changed on the page since: games gone, games new or changed, the count.
        for (const id of msg.removed || []) this.openGames.delete(id);
        for (const g of msg.games || []) this.openGames.set(g.game_id, g);
        this.openCount = msg.count || 0;
        // A page emptied by games that started or went: show the last one that has games.
        if (!this.openGames.size && this.page.offset > 0 && this.page.offset >= this.openCount) {
          this.goToPage(Math.max(0, this.page.offset - this.page.limit));
          return;
        }
        this.renderOpen();
      } else if (msg.type === 'my_games') {
        this.myGames = msg.games || [];
        this.renderMine();
      }
    };
    const onWelcome = () => {
      this.refreshMine();
      this.running.refresh();
    };
    conn.addEventListener('message', onMessage);
    conn.addEventListener('welcome', onWelcome);
    this.off.push(() => conn.removeEventListener('message', onMessage));
    this.off.push(() => conn.removeEventListener('welcome', onWelcome));
    conn.subscribeLobby(this.pageRequest());
    this.off.push(onFriendsChanged(() => this.openGames && this.renderOpen()));  // friends first
    this.refreshMine();
    this.running.refresh();
    // Turns in other games are not pushed to the lobby: look again now and then.
    const timer = setInterval(() => {
      this.refreshMine();
      this.running.refresh();
    }, 15000);
    this.off.push(() => clearInterval(timer));
  }

  destroy() {
    for (const f of this.off) f();
    this.running.destroy();
    this.ctx.conn.unsubscribeLobby();
  }

  // lobby.subscribe's fields for the page shown (no speed: all games).
  pageRequest() {
    const page = { offset: this.page.offset, limit: this.page.limit };
    if (this.page.speed) page.speed = this.page.speed;
    return page;
  }

  goToPage(offset, speed = this.page.speed) {
    this.page = { ...this.page, offset, speed };
    this.ctx.conn.subscribeLobby(this.pageRequest());
  }

  refreshMine() {
    if (this.ctx.conn.isOnline()) this.ctx.conn.sendRaw({ type: 'my_games' });
  }

  build() {
    this.els = {
      open: h('div', { class: 'game-list', id: 'open-games' }, h('p', { class: 'subtle' }, t('common.loading'))),
      pager: h('div', { class: 'pager', id: 'open-pager' }),
      mine: h('div', { class: 'game-list', id: 'my-games' }, h('p', { class: 'subtle' }, t('common.loading'))),
    };
    this.running = new RunningGames(this.ctx);
    this.root.replaceChildren(
      h(
        'section',
        { class: 'lobby' },
        h('h1', { class: 'visually-hidden' }, t('title.lobby')),
        h('div', { class: 'lobby-col' }, learnCard(), this.createForm(), recordsCard()),
        h(
          'div',
          { class: 'lobby-col' },
          h('section', { class: 'card' }, h('h2', {}, t('lobby.yourGames')), this.els.mine),
          h('section', { class: 'card' }, h('div', { class: 'card-head' }, h('h2', {}, t('lobby.openGames')), this.speedFilter()), h('p', { class: 'subtle' }, t('lobby.openGamesHelp')), this.els.open, this.els.pager),
          this.running.section(),
          friendsPanel(this.ctx),
        ),
      ),
    );
  }

  // The speed filter: applied by the server, so that the pages stay right.
  speedFilter() {
    const select = h(
      'select',
      { id: 'lobby-speed', 'aria-label': t('lobby.speed'), onchange: () => this.goToPage(0, select.value) },
      [['', t('lobby.allSpeeds')], ...Object.entries(SPEED_NAME)].map(([v, text]) => h('option', { value: v, selected: v === this.page.speed }, text)),
    );
    return h('label', { class: 'speed-filter', for: 'lobby-speed' }, select);
  }

  createForm() {
    const select = (id, label, options, value) =>
      h(
        'label',
        { class: 'field', for: id },
        h('span', {}, label),
        h('select', { id, name: id }, options.map(([v, text]) => h('option', { value: v, selected: v === value }, text))),
      );
    const error = h('p', { class: 'form-error', role: 'alert' });
    const button = h('button', { type: 'submit', class: 'btn btn-primary', id: 'create-game' }, t('create.submit'));
    const kinds = seatKindFields(() => Number(form.querySelector('#seats').value));
    const clock = clockFields();
    const form = h(
      'form',
      {
        class: 'card create-form',
        id: 'create-form',
        onsubmit: async (ev) => {
          ev.preventDefault();
          const f = ev.target;
          const payload = {
            seats: Number(f.seats.value),
            ...readOptionFields(f),
            tile_mix: f.tile_mix.value,
            ...(Number(f.board_hexes.value) ? { board_hexes: Number(f.board_hexes.value) } : {}),
            independent_exploration: f.independent_exploration.checked,
            ...readFogFields(f),
            private: f.private.checked,
            spectators: f.spectators.value,
          };
          if (payload.spectators === 'delayed') payload.spectator_delay = 2;
          const computers = kinds.computers();
          if (computers.length) payload.computers = computers;
          // Rated or not (docs/server.md, "Unrated games"): never with a computer seat.
          payload.rated = !computers.length && f.rated.checked;
          if (clock.value()) payload.clock = clock.value();
          payload.decision_grace_seconds = clock.graceSeconds();
          button.disabled = true;
          error.textContent = '';
          try {
            const { seen } = await this.ctx.conn.request('game.create', payload);
            const created = seen.filter((m) => m.type === 'game.created').pop();
            if (!created) throw new Error(t('create.noGameCreated'));
            if (created.invite) saveInvite(created.game_id, created.invite);
            location.hash = `#/game/${created.game_id}`;
          } catch (err) {
            error.textContent = err.message;
            button.disabled = false;
          }
        },
      },
      h('h2', {}, t('create.title')),
      select('seats', t('create.players'), PLAYER_COUNTS.map((n) => [String(n), t('options.players', { count: n })]), '2'),
      boardSizeField(),
      kinds.element,
      clock.element,
      optionFields(),
      select('tile_mix', t('create.tileMix'), Object.entries(TILE_MIX_NAME), 'standard'),
      h('label', { class: 'check', for: 'independent_exploration' }, h('input', { type: 'checkbox', id: 'independent_exploration', name: 'independent_exploration' }), h('span', {}, t('create.independentExploration'))),
      fogFields(),
      h('label', { class: 'check', for: 'rated' }, h('input', { type: 'checkbox', id: 'rated', name: 'rated', checked: true }), h('span', {}, t('create.rated'), h('span', { class: 'field-help', id: 'rated-help' }, ' ', t('create.ratedHelp')))),
      h('label', { class: 'check', for: 'private' }, h('input', { type: 'checkbox', id: 'private', name: 'private' }), h('span', {}, t('create.private'))),
      select(
        'spectators',
        t('create.spectators'),
        [
          ['live', t('create.spectatorsLive')],
          ['delayed', t('create.spectatorsDelayed')],
          ['none', t('create.spectatorsNone')],
        ],
        'live',
      ),
      button,
      error,
    );
    wireOptionFields(form);
    wireBoardSizeField(form);
    // A computer seat makes the game unrated: the box follows the seat choices.
    const rated = form.querySelector('#rated');
    const ratedHelp = form.querySelector('#rated-help');
    let ratedWanted = true;
    const syncRated = () => {
      const computers = kinds.computers().length > 0;
      rated.disabled = computers;
      rated.checked = computers ? false : ratedWanted;
      ratedHelp.textContent = ` ${computers ? t('create.ratedNoComputers') : t('create.ratedHelp')}`;
    };
    rated.addEventListener('change', () => {
      ratedWanted = rated.checked;
    });
    kinds.render();
    // The computers' ratings (and the player's chances against them) come when they come: the
    // form works without them.
    api
      .computerLevels(this.ctx.session && this.ctx.session.token)
      .then((answer) => {
        kinds.setLevels(answer);
        syncRated();
      })
      .catch(() => {});
    form.querySelector('#seats').addEventListener('change', () => {
      kinds.render();
      syncRated();
    });
    form.addEventListener('change', (ev) => {
      if (ev.target.closest && ev.target.closest('#seat-kinds')) syncRated();
    });
    return form;
  }

  renderOpen() {
    const box = this.els.open;
    box.replaceChildren();
    this.renderPager();
    const me = this.ctx.session.player_id;
    // The server's order: oldest first (by game id).
    // The server's order: oldest first (by game id); friends' games first (js/friends.js).
    const games = sortFriendsFirst([...(this.openGames || new Map()).values()].filter((g) => g.status === 'open').sort((a, b) => a.game_id - b.game_id));
    if (!games.length) {
      const text = this.page.speed ? t('lobby.noOpenGamesOfSpeed', { speed: SPEED_NAME[this.page.speed] }) : t('lobby.noOpenGames');
      box.append(h('p', { class: 'subtle empty' }, text));
      return;
    }
    for (const g of games) {
      const taken = g.seats.filter((x) => x.player_id).length;
      const seated = g.seats.some((x) => x.player_id === me);
      const friends = isFriendsGame(g);
      const creatorId = g.creator && g.creator.player_id;
      box.append(
        h(
          'div',
          { class: `game-row${friends ? ' friends-game' : ''}`, dataset: { gameId: g.game_id } },
          h(
            'div',
            { class: 'game-row-main' },
            h('b', {}, t('lobby.game', { id: g.game_id })),
            ' ',
            t('lobby.byCreator', { name: shownName(g.creator, '?') }),
            friends ? h('span', { class: 'tag tag-friend' }, t('friends.tag')) : '',
            creatorId && creatorId !== me ? followButton(this.ctx, creatorId, { inRow: true }) : '',
            h('div', { class: 'subtle' }, optionsText(g.options)),
            h('div', { class: 'time-control' }, h('span', { class: `tag tag-speed speed-${g.speed || 'untimed'}` }, SPEED_NAME[g.speed] || SPEED_NAME.untimed), g.clock ? ` ${timeControlText(g.clock)}` : ''),
            fairPlayLine(g),
          ),
          seatDots(g.seats),
          h('span', { class: 'subtle' }, `${taken}/${g.seats.length}`),
          seated
            ? h('a', { class: 'btn btn-small', href: `#/game/${g.game_id}` }, t('lobby.open'))
            : g.reveal
            ? null // its seats are final while the players confirm the dice
            : h('button', { type: 'button', class: 'btn btn-small btn-primary', onclick: () => this.join(g.game_id) }, t('lobby.join')),
        ),
      );
    }
  }

  // "Games 11–20 of 37" with the previous and next pages.
  renderPager() {
    const { offset, limit } = this.page;
    const count = this.openCount;
    const shown = this.openGames ? this.openGames.size : 0;
    this.els.pager.replaceChildren();
    if (count <= limit && offset === 0) return;
    this.els.pager.append(
      h('button', { type: 'button', class: 'btn btn-small', id: 'open-prev', disabled: offset === 0, onclick: () => this.goToPage(Math.max(0, offset - limit)) }, t('lobby.older')),
      h('span', { class: 'subtle', id: 'open-range' }, shown ? t('lobby.range', { from: offset + 1, to: offset + shown, count }) : t('lobby.games', { count })),
      h('button', { type: 'button', class: 'btn btn-small', id: 'open-next', disabled: offset + limit >= count, onclick: () => this.goToPage(offset + limit) }, t('lobby.newer')),
    );
  }

  renderMine() {
    const box = this.els.mine;
    box.replaceChildren();
    const games = (this.myGames || []).filter((g) => g.status !== 'cancelled');
    if (!games.length) {
      box.append(h('p', { class: 'subtle empty' }, t('lobby.noGamesYet')));
      return;
    }
    const rank = (g) => (g.your_turn ? 0 : g.status === 'running' ? 1 : g.status === 'open' ? 2 : 3);
    // "Your move" games first, the one whose clock runs out soonest at the top (games without a
    // clock after those with one), then the others by their last move.
    const deadline = (g) => (g.your_turn && g.clock && typeof g.clock.deadline === 'number' ? g.clock.deadline : Infinity);
    const order = (a, b) => rank(a) - rank(b) || (deadline(a) === deadline(b) ? 0 : deadline(a) < deadline(b) ? -1 : 1) || (b.last_move_at || 0) - (a.last_move_at || 0);
    for (const g of games.slice().sort(order)) {
      let status;
      if (g.status === 'open' && g.reveal) status = h('span', { class: 'tag tag-reveal' }, revealWaitingText(g.reveal));
      else if (g.status === 'open') status = h('span', { class: 'tag' }, t('lobby.waitingForPlayers'));
      else if (g.status === 'finished') status = h('span', { class: 'tag' }, t('lobby.finished'));
      else if (g.your_turn) status = h('span', { class: 'tag tag-turn' }, t('lobby.yourMove'));
      else {
        const cur = g.current_seat;
        const seat = (g.seats || []).find((x) => x.seat === cur);
        status = h('span', { class: 'tag' }, t('lobby.theirMove', { name: shownName(seat, seatStyle(cur).name) }), seat && seat.player_id ? h('span', { class: 'presence', dataset: { presencePlayer: String(seat.player_id) } }) : null);
      }
      const clockTag = myGameClockTag(g);
      // Players' chat he has not read (chat_comforts.js tells the server what he saw).
      const unread = g.chat_unread > 0 ? h('span', { class: 'tag tag-chat', title: t('chat.unreadTitle', { count: g.chat_unread }) }, t('chat.unread', { count: g.chat_unread >= 100 ? '99+' : g.chat_unread })) : null;
      box.append(
        h(
          'a',
          { class: `game-row link${g.your_turn ? ' your-turn' : ''}`, href: g.status === 'finished' ? `#/game/${g.game_id}` : `#/game/${g.game_id}`, dataset: { gameId: g.game_id } },
          h('div', { class: 'game-row-main' }, h('b', {}, t('lobby.game', { id: g.game_id })), unread ? [' ', unread] : null, g.your_seat !== null && g.your_seat !== undefined ? h('span', { class: 'subtle' }, ` · ${t('lobby.youAre', { colour: seatStyle(g.your_seat).name })}`) : null, h('div', { class: 'subtle' }, `${(g.seats || []).map((x) => shownName(x)).filter(Boolean).join(` ${t('lobby.versus')} `)}${g.seats && g.seats.length ? ' · ' : ''}${optionsText(g.options)}${g.last_move_at ? ` · ${t('lobby.lastMove', { ago: timeAgo(g.last_move_at) })}` : ''}`), h('div', { class: 'subtle time-control' }, timeControlText(g.clock))),
          clockTag,
          g.seats ? seatDots(g.seats) : null,
          status,
        ),
      );
    }
    fillPresence(box);
  }

  async join(gameId) {
    try {
      await this.ctx.conn.request('game.join', { game_id: gameId });
      location.hash = `#/game/${gameId}`;
    } catch (err) {
      if (err.code === 'game_elsewhere') {
        // Another server serves it (./elsewhere.js): the lobby is loaded again through that
        // server, where the seat is taken with one more click.
        followToServer(err.server, gameId, (where) => toast(t('gamePage.elsewhere', { server: where }), 'error'));
        return;
      }
      toast(err.message, 'error');
    }
  }
}

// Time left on the clock of one of my running games (the lobby list), or nothing: mine when it
// is my move, else the clock of whoever must act.
function myGameClockTag(g) {
  const c = g.clock;
  if (!c || c.deadline === null || c.deadline === undefined) return null;
  const mine = g.your_seat !== null && g.your_seat !== undefined && c.seat === g.your_seat;
  const whose = mine ? '' : `${seatStyle(c.seat).name}: `;
  if (c.stage === 'overdue') return h('span', { class: 'tag tag-warn clock-left', dataset: { seat: c.seat } }, `${whose}${t('clock.overTime')}`);
  const urgent = mine && (c.stage === 'reminded' || c.stage === 'overdue');
  const left = durationText(timeLeft({ ...c, received_at: Date.now() }));
  // The deadline in the reader's own time zone, named (a live game's few minutes need none).
  const until = c.deadline - (c.now || Date.now()) > 3600000 ? ` · ${t('clock.until', { time: localTime(c.deadline) })}` : '';
  return h('span', { class: `tag clock-left${urgent ? ' tag-warn' : ''}`, dataset: { seat: c.seat }, title: mine ? t('clock.leftForYourMove', { time: localTime(c.deadline) }) : t('clock.leftForTheirMove', { time: localTime(c.deadline) }) }, `${whose}${t('clock.left', { time: left })}${until}`);
}

// The reveal round an open game waits in, and the operator's seat (./fair_marks.js).
function fairPlayLine(g) {
  const waiting = revealWaitingText(g.reveal);
  const operator = operatorTag(g.seats);
  if (!waiting && !operator) return null;
  return h('div', { class: 'fair-line' }, waiting ? h('span', { class: 'tag tag-reveal' }, waiting) : null, operator);
}

function seatDots(seats) {
  return h(
    'span',
    { class: 'seat-dots', 'aria-label': t('lobby.seatsTaken', { taken: seats.filter((x) => x.player_id).length, count: seats.length }) },
    seats.map((x) => {
      const st = seatStyle(x.seat);
      return h('span', { class: `swatch${x.player_id ? '' : ' empty'}${x.computer ? ' computer' : ''}`, title: `${st.name}: ${shownName(x) || t('lobby.freeSeat')}`, style: x.player_id ? `background:${st.fill};border-color:${st.edge}` : `border-color:${st.edge}` });
    }),
  );
}
