// "Since your last turn": when a player opens a game where others have moved since he last saw
// it, the page asks the server for those steps (game.since: each with the events and log lines
// this player was shown, never more; docs/protocol.md) and shows, per opponent turn, the moves,
// the battles with their dice (the battle view of fire.js), captures, Towns and Cities lost and
// eliminations; and his own seat's story: the turns the computer, a standing order or the
// clock played for him, and the clock's lines about him (skipped turns, votes, expulsion). The
// moves are drawn on the map as numbered arrows and the battles marked (board_overlays.js)
// until he dismisses them. Every line points out its hexes on the map when pointed at, focused
// or clicked.
//
// Live play gets the same: the page keeps the steps of the updates it receives since the
// player last acted in his own turn, and when a turn ends with a battle fought against him the
// panel opens by itself with them, so that battle stays listed with its whole battle view until
// he dismisses it (also over a reload: the server's game.since brings the same steps back).
//
// Kept in localStorage: what this browser last saw of each game (viktory.seen.<game>), and
// where a panel not yet dismissed starts (viktory.since.<game>); on another device the server
// starts after the last action the player took himself.

import { noteDoomsdayRolls } from './victory.js';
import { h, seatStyle, UNIT_NAME, scrollBehavior, touchScreen } from '../util.js';
import { LANG, logLineText, t } from '../i18n.js';
import { absorbBattleEvents, battleTable } from './fire.js';
import { computerLevel } from '../seat_kinds.js';

// The panel's words (the catalogs' `catchUp.` entries).
const TEXT = {
  title: () => t('catchUp.title'),
  yourSeat: () => t('catchUp.yourSeat'),
  before: () => t('catchUp.before'),
  turn: (n) => ` · ${t('catchUp.turn', { n })}`,
  // How his own turn was played when he did not play it.
  by: {
    computer: () => t('catchUp.byComputer'),
    standing_order: () => t('catchUp.byStandingOrder'),
    clock: () => t('catchUp.byClock'),
  },
  nothingDone: () => t('catchUp.nothingDone'),
  takenOver: () => t('catchUp.takenOver'),
  skipped: (n) => t('catchUp.skipped', { count: n }),
  hint: () => (touchScreen() ? t('catchUp.hintTouch') : t('catchUp.hint')),
  logOfTurn: (n) => t('catchUp.logOfTurn', { count: n }),
  dice: (n) => t('catchUp.dice', { count: n }),
  underMap: (moves, battles) => (battles ? t('catchUp.underMapBattles', { moves: t('catchUp.moves', { count: moves }), count: battles }) : t('catchUp.underMap', { count: moves })),
  list: () => t('catchUp.list'),
  dismiss: () => t('catchUp.dismiss'),
};

// Live steps kept at most (the server's catch-up keeps as many).
const MAX_LIVE_STEPS = 200;

const MOVE_KINDS = new Set(['unit_moved', 'unit_retreated', 'unit_disembarked', 'unit_embarked', 'unit_withdrawn', 'unit_redeployed']);
// Kinds that say whose turn it is when a reply starts in the middle of one.
const ACTOR_KINDS = new Set(['unit_moved', 'town_built', 'city_upgraded', 'battle_started', 'bombarded', 'unit_placed', 'unit_embarked', 'unit_disembarked']);

let catchUps = 0; // numbers each catch-up shown

function seenKey(gameId) {
  return `viktory.seen.${gameId}`;
}

function loadSeen(gameId) {
  try {
    const v = Number(localStorage.getItem(seenKey(gameId)));
    return Number.isInteger(v) && v >= 0 && localStorage.getItem(seenKey(gameId)) !== null ? v : null;
  } catch {
    return null;
  }
}

// Where the panel shown and not dismissed yet starts: it comes back after a reload.
function openKey(gameId) {
  return `viktory.since.${gameId}`;
}

function loadOpen(gameId) {
  try {
    const text = localStorage.getItem(openKey(gameId));
    const v = Number(text);
    return text !== null && Number.isInteger(v) && v >= 0 ? v : null;
  } catch {
    return null;
  }
}

function saveOpen(gameId, seq) {
  try {
    if (seq === null) localStorage.removeItem(openKey(gameId));
    else localStorage.setItem(openKey(gameId), String(seq));
  } catch {
    // Storage full or blocked: the panel is just not brought back after a reload.
  }
}

// Called with every state the page shows: this is what the player has seen.
export function rememberSeen(page) {
  if (!page.state || page.mySeat === null) return;
  try {
    localStorage.setItem(seenKey(page.gameId), String(page.state.seq));
  } catch {
    // Storage full or blocked: the server's default (his own last action) is used next time.
  }
}

// On opening the game (the first state): ask for what happened since this browser last saw it
// (or since the start of a panel he had not dismissed before a reload).
export function wantCatchUp(page) {
  if (!page.state || page.mySeat === null) return;
  page.live = { from: page.state.seq, steps: [] };
  if (page.state.seq === 0 || !page.ctx.conn) return;
  const seen = loadSeen(page.gameId);
  const open = loadOpen(page.gameId);
  const since = open !== null && (seen === null || open < seen) ? open : seen;
  if (since !== null && since >= page.state.seq) return;
  const payload = { game_id: page.gameId };
  if (since !== null) payload.seq = since;
  page.ctx.conn.request('game.since', payload).then(
    ({ seen: messages }) => {
      const reply = messages.filter((m) => m.type === 'game.since' && m.game_id === page.gameId).pop();
      if (!reply || !page.state || !page.live) return;
      // The live list goes on from these steps: a panel that opens later keeps them.
      const later = page.live.steps.filter((st) => st.seq > reply.to);
      // The last Doomsday roll among them, for the progress display [5.5].
      const roll = page.doomsdayRoll;
      for (const step of reply.steps || []) noteDoomsdayRolls(page, step.events, step.seq);
      if (page.doomsdayRoll !== roll) page.render();
      page.live = { from: reply.since, steps: (reply.steps || []).concat(later).slice(-MAX_LIVE_STEPS), clock: reply.clock || [] };
      const summary = summarize(page, reply);
      if (!summary.groups.length && !summary.own.length) return;
      showSummary(page, summary, reply.since);
    },
    () => {
      // No catch-up (offline, an old server): the page works as before.
    },
  );
}

function showSummary(page, summary, since) {
  summary.id = ++catchUps;
  page.catchUp = summary;
  saveOpen(page.gameId, since);
  page.render();
}

// ------------------------------------------------------------------------------------------
// Live play: battles fought against the player stay listed

// The battles against the player (he defends) started in these steps: their seqs.
function battlesAgainst(page, steps) {
  const out = [];
  for (const step of steps) {
    for (const ev of step.events || []) {
      if (ev.kind === 'battle_started' && ev.other_player === page.mySeat) out.push(step.seq);
    }
  }
  return out;
}

// Each update the page shows (`update`: {seq, events, log}). When a turn ends with a battle
// against the player that no panel has listed yet, the panel opens (or is drawn anew) with the
// steps since he last acted in his own turn. Returns whether it did.
export function absorbLive(page, update) {
  const live = page.live;
  if (!live || page.mySeat === null) return false;
  const last = live.steps.length ? live.steps[live.steps.length - 1].seq : live.from;
  if (update.seq <= last) return false;
  live.steps.push({ seq: update.seq, events: update.events || [], log: update.log || [] });
  if (live.steps.length > MAX_LIVE_STEPS) live.steps.shift();
  const against = battlesAgainst(page, [live.steps[live.steps.length - 1]]);
  // A reload before the turn ends brings the battle back through game.since.
  if (against.length && !page.catchUp) saveOpen(page.gameId, live.from);
  if (!(update.events || []).some((ev) => ev.kind === 'turn_started')) return false;
  const listed = page.catchUp ? page.catchUp.battleSeqs : [];
  if (!battlesAgainst(page, live.steps).some((seq) => !listed.includes(seq))) return false;
  const summary = summarize(page, { steps: live.steps, clock: live.clock || [] });
  if (!summary.groups.length) return false;
  showSummary(page, summary, live.from);
  return true;
}

// The player acted in his own turn: what came before is his to know. An open panel stays
// until he dismisses it.
export function markOwnAction(page) {
  if (!page.live || !page.state) return;
  page.live = { from: page.state.seq, steps: [] };
  if (!page.catchUp) saveOpen(page.gameId, null);
}

// The arrows and battle markers the map draws while the panel is open.
export function catchUpScene(page) {
  return page.catchUp ? page.catchUp.scene : null;
}

// Dismissed: what it listed is seen; a panel that opens later starts after it.
export function dismissCatchUp(page) {
  page.catchUp = null;
  if (page.live && page.state) page.live = { from: page.state.seq, steps: [] };
  saveOpen(page.gameId, null);
  page.board.setFlash(null);
  page.render();
}

// ------------------------------------------------------------------------------------------
// From steps to turns

// "Alice, Bob and Carol" in the page's language.
function andList(names) {
  try {
    return new Intl.ListFormat(LANG, { type: 'conjunction' }).format(names);
  } catch {
    return names.join(', ');
  }
}

function newGroup(player, turn) {
  return { player, turn, lines: [], log: [], battles: [], by: new Set() };
}

export function summarize(page, reply) {
  const name = (seat) => page.whoText(seat);
  // Move events name the unit by id; its type is in the view (a unit keeps its id for good).
  const units = page.unitsById();
  const unitName = (ev) => UNIT_NAME[ev.unit_type] || (units.has(ev.unit) ? UNIT_NAME[units.get(ev.unit).type] : null) || t('catchUp.unit');
  const groups = [];
  let group = newGroup(null, null);
  let battle = null; // {record, line, lost: Map}
  const battleSeqs = []; // the steps that started a battle against the player
  for (const step of reply.steps || []) {
    // His own seat's step taken by someone else (game.since's `player` and `by`).
    const takenFor = step.player === page.mySeat && step.by ? step.by : null;
    if (takenFor) group.by.add(takenFor);
    for (const ev of step.events || []) {
      if (ev.kind === 'turn_started') {
        if (group.lines.length || group.log.length || group.by.size) groups.push(group);
        group = newGroup(ev.player, ev.value);
        battle = null;
        continue;
      }
      if (group.player === null && ACTOR_KINDS.has(ev.kind) && ev.player >= 0) group.player = ev.player;
      const mine = ev.player === page.mySeat;
      if (MOVE_KINDS.has(ev.kind) && ev.from_hex >= 0 && ev.hex >= 0 && ev.from_hex !== ev.hex) {
        const params = { unit: unitName(ev), from: page.label(ev.from_hex), to: page.label(ev.hex) };
        const text = ev.kind === 'unit_retreated' ? t('catchUp.retreats', params) : ev.kind === 'unit_embarked' ? t('catchUp.embarks', params) : ev.kind === 'unit_disembarked' ? t('catchUp.lands', params) : t('catchUp.moves1', params);
        group.lines.push({ text, hexes: [ev.from_hex, ev.hex], owner: ev.player, move: { from: ev.from_hex, to: ev.hex, owner: ev.player } });
      } else if (MOVE_KINDS.has(ev.kind) && (ev.from_hex >= 0) !== (ev.hex >= 0)) {
        // Fog of war: the server masks the end of a move out of this player's sight (-1).
        const seen = ev.from_hex >= 0 ? ev.from_hex : ev.hex;
        const text = ev.from_hex >= 0 ? t('fog.catchUpLeaves', { unit: unitName(ev), from: page.label(seen) }) : t('fog.catchUpComes', { unit: unitName(ev), to: page.label(seen) });
        group.lines.push({ text, hexes: [seen], owner: ev.player });
      } else if (ev.kind === 'bombarded' && (ev.from_hex < 0 || ev.hex < 0)) {
        if (ev.hex >= 0) group.lines.push({ text: t('fog.catchUpBombardedFromFog', { hex: page.label(ev.hex) }), hexes: [ev.hex], owner: ev.player });
        else if (ev.from_hex >= 0) group.lines.push({ text: t('fog.catchUpBombardsIntoFog', { unit: unitName(ev), from: page.label(ev.from_hex) }), hexes: [ev.from_hex], owner: ev.player });
      } else if (ev.kind === 'bombarded') {
        group.lines.push({ text: t('catchUp.bombards', { unit: unitName(ev), hex: page.label(ev.hex), from: page.label(ev.from_hex) }), hexes: [ev.from_hex, ev.hex], owner: ev.player, move: { from: ev.from_hex, to: ev.hex, owner: ev.player, kind: 'bombard' } });
      } else if (ev.kind === 'battle_started') {
        battle = { record: absorbBattleEvents(null, [ev]), lost: new Map() };
        battle.line = { text: ev.other_player === page.mySeat ? t('catchUp.battleAgainstYou', { hex: page.label(ev.hex), attacker: name(ev.player) }) : t('catchUp.battle', { hex: page.label(ev.hex), attacker: name(ev.player), defender: name(ev.other_player) }), hexes: [ev.hex], owner: ev.player, battle };
        group.lines.push(battle.line);
        if (ev.other_player === page.mySeat) battleSeqs.push(step.seq);
        continue;
      } else if (ev.kind === 'town_captured') {
        const params = { who: name(ev.player), owner: name(ev.other_player), hex: page.label(ev.hex) };
        const yours = ev.other_player === page.mySeat;
        const text = ev.value === 1 ? (yours ? t('catchUp.capturedYourCity', params) : t('catchUp.capturedCity', params)) : yours ? t('catchUp.capturedYourTown', params) : t('catchUp.capturedTown', params);
        group.lines.push({ text, hexes: [ev.hex], owner: ev.player, loss: ev.other_player === page.mySeat });
      } else if (ev.kind === 'capital_lost') {
        group.lines.push({ text: t('catchUp.capitalLost', { who: name(ev.player), hex: page.label(ev.hex), taker: name(ev.other_player) }), hexes: [ev.hex], owner: ev.other_player, loss: mine });
      } else if (ev.kind === 'capital_placed' && ev.hex >= 0) {
        group.lines.push({ text: mine ? t('catchUp.placedYourCapital', { who: name(ev.player), hex: page.label(ev.hex) }) : t('catchUp.placedCapital', { who: name(ev.player), hex: page.label(ev.hex) }), hexes: [ev.hex], owner: ev.player });
      } else if (ev.kind === 'town_built' || ev.kind === 'city_upgraded') {
        group.lines.push({ text: ev.kind === 'town_built' ? t('catchUp.builtTown', { who: name(ev.player), hex: page.label(ev.hex) }) : t('catchUp.upgradedCity', { who: name(ev.player), hex: page.label(ev.hex) }), hexes: [ev.hex], owner: ev.player });
      } else if (ev.kind === 'player_eliminated' || ev.kind === 'player_conceded') {
        group.lines.push({ text: ev.kind === 'player_eliminated' ? t('catchUp.eliminated', { who: name(ev.player) }) : t('catchUp.conceded', { who: name(ev.player) }), hexes: [], owner: ev.player, loss: mine });
      } else if (ev.kind === 'game_over') {
        const winners = (ev.winners || []).map(name);
        const text = winners.length ? t('catchUp.gameOverWon', { who: andList(winners) }) : t('phase.gameOver');
        group.lines.push({ text, hexes: [], owner: null });
      }
      if (battle) {
        battle.record = absorbBattleEvents(battle.record, [ev]);
        if (ev.kind === 'unit_lost') {
          const key = `${ev.player}:${ev.unit_type}`;
          battle.lost.set(key, (battle.lost.get(key) || 0) + 1);
        }
        if (ev.kind === 'battle_ended') battle = null;
      }
    }
    for (const line of step.log || []) group.log.push(line);
  }
  if (group.lines.length || group.log.length || group.by.size) groups.push(group);
  // The others' turns, and his own when someone else played them for him (the computer after
  // an expulsion, a standing order, the clock's skip); not his own: he knows what he did (his
  // decisions during their turns, such as casualties, stay in their turn).
  const theirs = groups.filter((g) => (g.player !== page.mySeat && g.lines.length) || (g.player === page.mySeat && g.by.size));
  for (const g of theirs) {
    if (g.player === page.mySeat && !g.lines.length) g.lines.push({ text: TEXT.nothingDone(), hexes: [], owner: g.player });
  }
  // The clock's lines about his seat: skipped turns, votes, expulsion, takeover, vacation.
  const own = (reply.clock || []).map((l) => ({ text: logLineText(l), hexes: [], owner: page.mySeat, seq: l.seq }));
  // Their moves numbered in order, as the arrows on the map are.
  const moves = [];
  const battles = new Map();
  for (const g of theirs) {
    for (const line of g.lines) {
      if (line.move) {
        line.move.n = moves.length + 1;
        line.text = `${line.move.n}. ${line.text}`;
        moves.push(line.move);
      }
      if (line.battle && !battles.has(line.hexes[0])) battles.set(line.hexes[0], { hex: line.hexes[0] });
    }
  }
  return { groups: theirs, own, battleSeqs, skipped: reply.skipped || 0, scene: { moves, battles: [...battles.values()] } };
}

// ------------------------------------------------------------------------------------------
// The panel

function lineItem(page, line) {
  const li = h('li', { class: `catch-up-line${line.loss ? ' loss' : ''}`, tabindex: '0', dataset: { hexes: (line.hexes || []).join(',') } });
  if (line.owner !== null && line.owner !== undefined && line.owner >= 0) {
    const st = seatStyle(line.owner);
    li.append(h('span', { class: 'swatch', style: `background:${st.fill};border-color:${st.edge}` }), ' ');
  }
  const text = h('span', {}, line.text);
  li.append(text);
  const b = line.battle;
  if (b) {
    const rec = b.record;
    const end = !rec.ended ? t('catchUp.notOver') : rec.ended.winner === rec.attacker ? t('catchUp.tookIt', { who: page.whoText(rec.attacker) }) : rec.ended.winner >= 0 ? t('catchUp.won', { who: page.whoText(rec.ended.winner) }) : t('catchUp.defendersHeld');
    text.append(end);
    const lost = [...b.lost].map(([key, n]) => {
      const [owner, type] = key.split(':');
      return t('catchUp.lostUnits', { count: n, seat: seatStyle(Number(owner)).name, unit: UNIT_NAME[type] || type });
    });
    if (lost.length) li.append(h('div', { class: 'subtle' }, t('catchUp.lost', { units: lost.join(', ') })));
    if (rec.fires.length) {
      const table = battleTable(rec, (seat) => page.whoText(seat), { you: page.mySeat });
      table.removeAttribute('id'); // several battles may be listed
      li.append(h('details', { class: 'catch-up-dice' }, h('summary', {}, TEXT.dice(rec.fires.length)), table));
    }
  }
  return li;
}

export function renderCatchUp(page) {
  const panel = page.els.catchUp;
  const c = page.catchUp;
  panel.hidden = !c;
  renderLineUnderMap(page);
  if (!c) {
    panel.replaceChildren();
    delete panel.dataset.shown;
    return;
  }
  // Drawn once per catch-up: the page redraws on every update, and the player's open dice
  // tables and focus in this list must survive that.
  if (panel.dataset.shown === String(c.id)) return;
  panel.dataset.shown = String(c.id);
  panel.replaceChildren(h('h2', { id: 'catch-up-title' }, TEXT.title()));
  if (c.skipped) panel.append(h('p', { class: 'subtle' }, TEXT.skipped(c.skipped)));
  panel.append(h('p', { class: 'subtle catch-up-hint' }, TEXT.hint()));
  // His own seat first: what the clock said and did about him.
  if (c.own.length) {
    panel.append(h('h3', { class: 'catch-up-turn catch-up-own-title' }, TEXT.yourSeat()), h('ol', { class: 'catch-up-lines catch-up-own' }, c.own.map((line) => lineItem(page, line))));
    const me = page.clock && page.clock.seats ? page.clock.seats[page.mySeat] : null;
    if (me && me.expelled && computerLevel(page.seats, page.mySeat)) panel.append(h('p', { class: 'subtle' }, TEXT.takenOver()));
  }
  for (const g of c.groups) {
    const mine = g.player === page.mySeat;
    const title = g.player !== null && g.player >= 0 ? page.whoText(g.player) : TEXT.before();
    const how = mine ? [...g.by].map((by) => (TEXT.by[by] ? TEXT.by[by]() : by)).join(', ') : '';
    panel.append(
      h('h3', { class: `catch-up-turn${mine ? ' catch-up-mine' : ''}`, dataset: { seat: g.player === null ? '' : g.player } }, title, g.turn ? h('span', { class: 'subtle' }, TEXT.turn(g.turn)) : null, how ? h('span', { class: 'catch-up-by' }, ` · ${how}`) : null),
      h('ol', { class: 'catch-up-lines' }, g.lines.map((line) => lineItem(page, line))),
    );
    if (g.log.length) {
      panel.append(
        h(
          'details',
          { class: 'catch-up-log' },
          h('summary', {}, TEXT.logOfTurn(g.log.length)),
          h('ol', { class: 'catch-up-lines' }, g.log.map((line) => h('li', { class: 'catch-up-line', tabindex: '0', dataset: { hexes: (line.hexes || []).join(',') } }, logLineText(line)))),
        ),
      );
    }
  }
  panel.append(
    h('div', { class: 'catch-up-actions' }, h('button', { type: 'button', class: 'btn', id: 'catch-up-dismiss', dataset: { focusKey: 'catch-up-dismiss' }, onclick: () => dismissCatchUp(page) }, TEXT.dismiss())),
  );
}

// Under the map (on a phone the panels are below it): what is drawn, a way to the list, Dismiss.
function renderLineUnderMap(page) {
  const box = page.els.catchUpLine;
  const c = page.catchUp;
  if (!box) return;
  if (!c) {
    box.replaceChildren();
    return;
  }
  box.replaceChildren(
    h('span', {}, TEXT.underMap(c.scene.moves.length, c.scene.battles.length)),
    h('button', { type: 'button', class: 'btn btn-small', dataset: { focusKey: 'catch-up-show' }, onclick: () => {
      page.els.catchUp.scrollIntoView({ block: 'start', behavior: scrollBehavior() });
      const first = page.els.catchUp.querySelector('.catch-up-line');
      if (first) first.focus({ preventScroll: true });
    } }, TEXT.list()),
    h('button', { type: 'button', class: 'btn btn-small', id: 'catch-up-dismiss-map', dataset: { focusKey: 'catch-up-dismiss-map' }, onclick: () => dismissCatchUp(page) }, TEXT.dismiss()),
  );
}

// Pointing at, focusing or clicking a line outlines its hexes on the map.
export function installCatchUpHighlight(page) {
  const panel = page.els.catchUp;
  const hexesOf = (node) => {
    const li = node && node.closest ? node.closest('li.catch-up-line') : null;
    return li && li.dataset.hexes ? li.dataset.hexes.split(',').map(Number) : null;
  };
  const show = (node) => {
    const hexes = hexesOf(node);
    if (hexes) page.board.setFlash(hexes);
  };
  panel.addEventListener('pointerover', (e) => show(e.target));
  panel.addEventListener('focusin', (e) => show(e.target));
  panel.addEventListener('click', (e) => show(e.target));
  panel.addEventListener('pointerleave', () => {
    if (!panel.contains(document.activeElement)) page.board.setFlash(null);
  });
  panel.addEventListener('focusout', (e) => {
    if (!panel.contains(e.relatedTarget)) page.board.setFlash(null);
  });
}
