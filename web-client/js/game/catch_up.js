// "Since your last turn": when a player opens a game where others have moved since he last saw
// it, the page asks the server for those steps (game.since: each with the events and log lines
// this player was shown, never more; docs/protocol.md) and shows, per opponent turn, the moves,
// the battles with their dice (the battle view of fire.js), captures, Towns and Cities lost and
// eliminations. The moves are drawn on the map as numbered arrows and the battles marked
// (board_overlays.js) until he dismisses them. Every line points out its hexes on the map when
// pointed at, focused or clicked.
//
// What this browser last saw of each game is kept in localStorage (viktory.seen.<game>); on
// another device the server starts after the player's own last action.

import { h, seatStyle, UNIT_NAME, scrollBehavior } from '../util.js';
import { absorbBattleEvents, battleTable } from './fire.js';

const MOVE_KINDS = new Set(['unit_moved', 'unit_retreated', 'unit_disembarked', 'unit_embarked', 'unit_withdrawn']);
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

// Called with every state the page shows: this is what the player has seen.
export function rememberSeen(page) {
  if (!page.state || page.mySeat === null) return;
  try {
    localStorage.setItem(seenKey(page.gameId), String(page.state.seq));
  } catch {
    // Storage full or blocked: the server's default (his own last action) is used next time.
  }
}

// On opening the game (the first state): ask for what happened since this browser last saw it.
export function wantCatchUp(page) {
  if (!page.state || page.state.seq === 0 || page.mySeat === null || !page.ctx.conn) return;
  const seen = loadSeen(page.gameId);
  if (seen !== null && seen >= page.state.seq) return;
  const payload = { game_id: page.gameId };
  if (seen !== null) payload.seq = seen;
  page.ctx.conn.request('game.since', payload).then(
    ({ seen: messages }) => {
      const reply = messages.filter((m) => m.type === 'game.since' && m.game_id === page.gameId).pop();
      if (!reply || !page.state) return;
      const summary = summarize(page, reply);
      if (!summary.groups.length) return;
      summary.id = ++catchUps;
      page.catchUp = summary;
      page.render();
    },
    () => {
      // No catch-up (offline, an old server): the page works as before.
    },
  );
}

// The arrows and battle markers the map draws while the panel is open.
export function catchUpScene(page) {
  return page.catchUp ? page.catchUp.scene : null;
}

export function dismissCatchUp(page) {
  page.catchUp = null;
  page.board.setFlash(null);
  page.render();
}

// ------------------------------------------------------------------------------------------
// From steps to turns

function newGroup(player, turn) {
  return { player, turn, lines: [], log: [], battles: [] };
}

export function summarize(page, reply) {
  const name = (seat) => page.whoText(seat);
  // Move events name the unit by id; its type is in the view (a unit keeps its id for good).
  const units = page.unitsById();
  const unitName = (ev) => UNIT_NAME[ev.unit_type] || (units.has(ev.unit) ? UNIT_NAME[units.get(ev.unit).type] : null) || 'Unit';
  const groups = [];
  let group = newGroup(null, null);
  let battle = null; // {record, line, lost: Map}
  for (const step of reply.steps || []) {
    for (const ev of step.events || []) {
      if (ev.kind === 'turn_started') {
        if (group.lines.length || group.log.length) groups.push(group);
        group = newGroup(ev.player, ev.value);
        battle = null;
        continue;
      }
      if (group.player === null && ACTOR_KINDS.has(ev.kind) && ev.player >= 0) group.player = ev.player;
      const mine = ev.player === page.mySeat;
      if (MOVE_KINDS.has(ev.kind) && ev.from_hex >= 0 && ev.hex >= 0 && ev.from_hex !== ev.hex) {
        const verb = ev.kind === 'unit_retreated' ? 'retreats' : ev.kind === 'unit_embarked' ? 'boards a Frigate' : ev.kind === 'unit_disembarked' ? 'lands' : 'moves';
        group.lines.push({ text: `${unitName(ev)} ${verb}: ${page.label(ev.from_hex)} → ${page.label(ev.hex)}`, hexes: [ev.from_hex, ev.hex], owner: ev.player, move: { from: ev.from_hex, to: ev.hex, owner: ev.player } });
      } else if (ev.kind === 'bombarded') {
        group.lines.push({ text: `${unitName(ev)} bombards ${page.label(ev.hex)} from ${page.label(ev.from_hex)}`, hexes: [ev.from_hex, ev.hex], owner: ev.player, move: { from: ev.from_hex, to: ev.hex, owner: ev.player, kind: 'bombard' } });
      } else if (ev.kind === 'battle_started') {
        battle = { record: absorbBattleEvents(null, [ev]), lost: new Map() };
        battle.line = { text: `Battle at ${page.label(ev.hex)}: ${name(ev.player)} attacks ${name(ev.other_player)}`, hexes: [ev.hex], owner: ev.player, battle };
        group.lines.push(battle.line);
        continue;
      } else if (ev.kind === 'town_captured') {
        const what = ev.value === 1 ? 'City' : 'Town';
        const whose = ev.other_player === page.mySeat ? 'your' : `${name(ev.other_player)}'s`;
        group.lines.push({ text: `${name(ev.player)} captured ${whose} ${what} at ${page.label(ev.hex)}`, hexes: [ev.hex], owner: ev.player, loss: ev.other_player === page.mySeat });
      } else if (ev.kind === 'capital_lost') {
        group.lines.push({ text: `${name(ev.player)} lost the Capital at ${page.label(ev.hex)} to ${name(ev.other_player)}`, hexes: [ev.hex], owner: ev.other_player, loss: mine });
      } else if (ev.kind === 'town_built' || ev.kind === 'city_upgraded') {
        group.lines.push({ text: `${name(ev.player)} ${ev.kind === 'town_built' ? 'built a Town' : 'upgraded a Town to a City'} at ${page.label(ev.hex)}`, hexes: [ev.hex], owner: ev.player });
      } else if (ev.kind === 'player_eliminated' || ev.kind === 'player_conceded') {
        group.lines.push({ text: `${name(ev.player)} ${ev.kind === 'player_eliminated' ? 'is eliminated' : 'conceded'}`, hexes: [], owner: ev.player, loss: mine });
      } else if (ev.kind === 'game_over') {
        const winners = (ev.winners || []).map(name).join(' and ');
        group.lines.push({ text: winners ? `Game over: ${winners} won` : 'Game over', hexes: [], owner: null });
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
  if (group.lines.length || group.log.length) groups.push(group);
  // Only the others' turns: the player knows what he did (his decisions during their turns,
  // such as casualties, stay in their turn).
  const theirs = groups.filter((g) => g.player !== page.mySeat && g.lines.length);
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
  return { groups: theirs, skipped: reply.skipped || 0, scene: { moves, battles: [...battles.values()] } };
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
    const end = !rec.ended ? ' (not over)' : rec.ended.winner === rec.attacker ? `: ${page.whoText(rec.attacker)} took it` : rec.ended.winner >= 0 ? `: ${page.whoText(rec.ended.winner)} won` : ': the defenders held';
    text.append(end);
    const lost = [...b.lost].map(([key, n]) => {
      const [owner, type] = key.split(':');
      return `${n} ${seatStyle(Number(owner)).name} ${UNIT_NAME[type] || type}`;
    });
    if (lost.length) li.append(h('div', { class: 'subtle' }, `Lost: ${lost.join(', ')}`));
    if (rec.fires.length) {
      const table = battleTable(rec, (seat) => page.whoText(seat));
      table.removeAttribute('id'); // several battles may be listed
      li.append(h('details', { class: 'catch-up-dice' }, h('summary', {}, `Dice (${rec.fires.length} fire${rec.fires.length > 1 ? 's' : ''})`), table));
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
  panel.replaceChildren(h('h2', { id: 'catch-up-title' }, 'Since your last turn'));
  if (c.skipped) panel.append(h('p', { class: 'subtle' }, `${c.skipped} earlier actions are not listed (the replay shows them once the game is over).`));
  panel.append(h('p', { class: 'subtle catch-up-hint' }, 'Their moves are drawn on the map as numbered arrows. Point at, focus or click a line to see its hexes.'));
  for (const g of c.groups) {
    const title = g.player !== null && g.player >= 0 ? page.whoText(g.player) : 'Before that';
    panel.append(
      h('h3', { class: 'catch-up-turn' }, title, g.turn ? h('span', { class: 'subtle' }, ` · turn ${g.turn}`) : null),
      h('ol', { class: 'catch-up-lines' }, g.lines.map((line) => lineItem(page, line))),
    );
    if (g.log.length) {
      panel.append(
        h(
          'details',
          { class: 'catch-up-log' },
          h('summary', {}, `Log of this turn (${g.log.length} lines)`),
          h('ol', { class: 'catch-up-lines' }, g.log.map((line) => h('li', { class: 'catch-up-line', tabindex: '0', dataset: { hexes: (line.hexes || []).join(',') } }, line.text))),
        ),
      );
    }
  }
  panel.append(
    h('div', { class: 'catch-up-actions' }, h('button', { type: 'button', class: 'btn', id: 'catch-up-dismiss', dataset: { focusKey: 'catch-up-dismiss' }, onclick: () => dismissCatchUp(page) }, 'Dismiss')),
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
  const moves = c.scene.moves.length;
  const battles = c.scene.battles.length;
  const parts = [`${moves} move${moves === 1 ? '' : 's'}`];
  if (battles) parts.push(`${battles} battle${battles === 1 ? '' : 's'}`);
  box.replaceChildren(
    h('span', {}, `Since your last turn: ${parts.join(', ')} drawn on the map`),
    h('button', { type: 'button', class: 'btn btn-small', dataset: { focusKey: 'catch-up-show' }, onclick: () => {
      page.els.catchUp.scrollIntoView({ block: 'start', behavior: scrollBehavior() });
      const first = page.els.catchUp.querySelector('.catch-up-line');
      if (first) first.focus({ preventScroll: true });
    } }, 'List'),
    h('button', { type: 'button', class: 'btn btn-small', id: 'catch-up-dismiss-map', dataset: { focusKey: 'catch-up-dismiss-map' }, onclick: () => dismissCatchUp(page) }, 'Dismiss'),
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
