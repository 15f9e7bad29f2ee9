// Development fixture: made-up views in the shape of docs/protocol.md, to draw and try the game
// page without a server (web-client/dev/fixture.html?scene=...). Nothing here is used by the
// real client.

import { mountGame } from '../js/game.js';

const DIRS = [[1, 0], [1, -1], [0, -1], [-1, 0], [-1, 1], [0, 1]];

function makeHexes(radius, terrainOf) {
  const hexes = [];
  for (let r = -radius; r <= radius; r += 1) {
    const qMin = Math.max(-radius, -r - radius);
    const qMax = Math.min(radius, -r + radius);
    for (let q = qMin; q <= qMax; q += 1) {
      const dist = Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r));
      const perimeter = dist === radius;
      const label = `${String.fromCharCode(65 + r + radius)}${q - qMin + 1}`;
      const terrain = perimeter ? 'water' : terrainOf(q, r);
      const hx = { hex: hexes.length, q, r, label, perimeter, known: !!terrain, city: false, built_this_turn: false, battle_this_turn: false };
      if (terrain) hx.terrain = terrain;
      hexes.push(hx);
    }
  }
  return hexes;
}

const LAYOUT = {
  // q,r -> terrain; missing interior hexes are unknown (face down)
  '-3,3': 'plains', '-2,3': 'grassland', '-1,3': 'forest', '-3,2': 'mountain', '-2,2': 'plains',
  '-1,2': 'grassland', '0,2': 'water', '-3,1': 'forest', '-2,1': 'grassland', '-1,1': 'plains',
  '0,1': 'water', '1,1': 'water', '-3,0': 'grassland', '-2,0': 'mountain', '-1,0': 'plains',
  '0,0': 'forest', '1,0': 'grassland', '2,-1': 'plains', '3,-2': 'plains', '2,-2': 'mountain',
  '3,-3': 'grassland', '1,-2': 'water', '2,-3': 'forest', '1,-1': 'plains', '0,-1': 'water',
  '3,-1': 'forest', '1,2': 'plains', '2,1': 'forest',
};

function baseView(seat) {
  const hexes = makeHexes(4, (q, r) => LAYOUT[`${q},${r}`]);
  const at = (q, r) => hexes.find((x) => x.q === q && x.r === r).hex;
  const view = {
    viewer: seat,
    options: { players: 2, victory: 'standard', tile_mix: 'standard', independent_exploration: false },
    radius: 4,
    turn: 7,
    current: 0,
    first_player: 0,
    phase: 'movement',
    decider: 0,
    active_unit: -1,
    hexes,
    units: [],
    players: [
      { index: 0, eliminated: false, conceded: false, capital_hex: at(-2, 2), holds_capital: true, doomsday_coin: false, victory_points: 4, reserve: { infantry: 1, cavalry: 0, artillery: 0, frigate: 0 } },
      { index: 1, eliminated: false, conceded: false, capital_hex: at(3, -2), holds_capital: true, doomsday_coin: false, victory_points: 3, reserve: { infantry: 0, cavalry: 1, artillery: 0, frigate: 0 } },
    ],
    capital_choices: [],
    pending_battles: [],
    doomsday_started: false,
    winners: [],
    ended_by: 'standard',
    action_count: 41,
  };
  const town = (q, r, owner, city = false, capital = false) => {
    const hx = hexes[at(q, r)];
    hx.town_owner = owner;
    hx.city = city;
    if (capital) hx.capital_of = owner;
  };
  town(-2, 2, 0, true, true);
  town(-1, 0, 0);
  town(-3, 0, 0, true);
  town(3, -2, 1, false, true);
  town(2, -3, 1, true);
  let id = 0;
  const unit = (owner, type, q, r, extra = {}) => {
    const u = { id: id++, owner, type, place: 'map', hex: at(q, r), carrier: -1, moves_left: type === 'cavalry' ? 3 : type === 'frigate' ? 5 : 2, move_done: false, attacked: false, transported: false, ...extra };
    view.units.push(u);
    return u;
  };
  unit(0, 'infantry', -2, 2);
  unit(0, 'infantry', -2, 2);
  unit(0, 'cavalry', -2, 2);
  unit(0, 'artillery', -1, 1);
  const frigate = unit(0, 'frigate', 0, 1);
  unit(0, 'infantry', 0, 1, { carrier: frigate.id, moves_left: 0, transported: true });
  unit(0, 'artillery', 0, 1, { carrier: frigate.id, moves_left: 0, transported: true });
  unit(0, 'infantry', -1, 0);
  unit(0, 'cavalry', 1, -1, { moves_left: 0, move_done: true });
  unit(1, 'infantry', 1, -1);
  unit(1, 'infantry', 3, -2);
  unit(1, 'infantry', 3, -2);
  unit(1, 'cavalry', 2, -2);
  unit(1, 'frigate', 1, -2);
  unit(1, 'infantry', 2, -3);
  unit(0, 'infantry', 0, 0, { place: 'reserve', hex: -1 });
  unit(1, 'cavalry', 0, 0, { place: 'reserve', hex: -1 });
  view.pending_battles = [at(1, -1)];
  return { view, at };
}

function neighbours(view, hex) {
  const hx = view.hexes[hex];
  return DIRS.map(([dq, dr]) => view.hexes.find((x) => x.q === hx.q + dq && x.r === hx.r + dr)).filter(Boolean).map((x) => x.hex);
}

export function scene(name) {
  const { view, at } = baseView(0);
  let legal = [{ kind: 'concede' }];
  let canUndo = false;
  const log = [
    { seq: 38, text: 'Yellow builds a Town at B7.' },
    { seq: 39, text: 'Red moves Cavalry from E3 to C5.' },
    { seq: 40, text: 'Red moves Frigate from F4 to E5.' },
    { seq: 41, text: 'Red ships Infantry and Artillery aboard the Frigate.' },
  ];
  if (name === 'movement') {
    const cav = view.units.find((u) => u.type === 'cavalry' && u.owner === 0 && !u.move_done);
    for (const n of neighbours(view, cav.hex)) if (!view.hexes[n].perimeter && view.hexes[n].terrain !== 'water') legal.push({ kind: 'move', unit: cav.id, hex: n });
    for (const u of view.units.filter((x) => x.owner === 0 && x.place === 'map' && !x.move_done && x.type !== 'cavalry')) {
      const ns = neighbours(view, u.hex).filter((n) => !view.hexes[n].perimeter);
      if (ns.length) legal.push({ kind: 'move', unit: u.id, hex: ns[0] });
    }
    const art = view.units.find((u) => u.type === 'artillery' && u.owner === 0 && u.carrier < 0);
    legal.push({ kind: 'bombard', unit: art.id, hex: at(1, -1) });
    legal.push({ kind: 'start_battle', hex: at(1, -1) }, { kind: 'end_phase' });
    canUndo = true;
  } else if (name === 'casualty') {
    view.decider = 1;
    const bhex = at(1, -1);
    view.battle = { hex: bhex, attacker: 0, defender: 1, naval: false, placement: false, round: 1, stage: 'assign_attacker_fire', picks_by_firer: 0, picks_by_target: 1, marked: [], suppression: 0, attacker_dice: [1, 3, 5, 2], defender_dice: [] };
    view.pending_battles = [];
    view.units.push({ id: 90, owner: 1, type: 'artillery', place: 'map', hex: bhex, carrier: -1, moves_left: 2, move_done: false, attacked: false, transported: false });
    return { seat: 1, view: { ...view, viewer: 1 }, legal: [{ kind: 'choose_casualty', unit: 9 }, { kind: 'choose_casualty', unit: 90 }, { kind: 'concede' }], canUndo: false, log };
  } else if (name === 'retreat') {
    const bhex = at(1, -1);
    view.battle = { hex: bhex, attacker: 0, defender: 1, naval: false, placement: false, round: 2, stage: 'retreat_option', picks_by_firer: 0, picks_by_target: 0, marked: [], suppression: 0, attacker_dice: [4, 3], defender_dice: [6, 2, 5] };
    view.pending_battles = [];
    legal = [{ kind: 'continue_battle' }, { kind: 'retreat', unit: 8, hex: at(0, -1) === bhex ? at(1, 0) : at(1, 0) }, { kind: 'concede' }];
  } else if (name === 'setup') {
    view.phase = 'setup';
    view.turn = 0;
    for (const hx of view.hexes) {
      delete hx.town_owner;
      delete hx.capital_of;
      hx.city = false;
    }
    view.units = [];
    view.pending_battles = [];
    const choices = [at(-2, 2), at(-3, 2), at(-2, 3)];
    view.capital_choices = choices;
    legal = choices.map((hex) => ({ kind: 'place_capital', hex })).concat([{ kind: 'concede' }]);
  } else if (name === 'build') {
    view.phase = 'build';
    view.pending_battles = [];
    legal.push({ kind: 'build_town', hex: at(-3, 3) }, { kind: 'build_town', hex: at(1, 2) }, { kind: 'upgrade_city', hex: at(-1, 0) }, { kind: 'end_phase' });
  } else if (name === 'reserve') {
    view.phase = 'reserve';
    view.pending_battles = [];
    legal.push({ kind: 'place_reserve', unit_type: 'infantry', hex: at(-2, 2) }, { kind: 'place_reserve', unit_type: 'infantry', hex: at(-3, 0) }, { kind: 'end_phase' });
  } else if (name === 'gameover') {
    view.phase = 'game_over';
    view.winners = [0];
    view.decider = -1;
    view.pending_battles = [];
    legal = [];
  } else if (name === 'fog') {
    // A fog game seen by Red: made-up sight (1 hex around Red's pieces, 2 around its Cities),
    // Yellow's units outside it removed, two marks of units last seen.
    view.options = { ...view.options, fog_of_war: true, fog_city_sight: 2 };
    const dist = (a, b) => {
      const x = view.hexes[a];
      const y = view.hexes[b];
      return (Math.abs(x.q - y.q) + Math.abs(x.r - y.r) + Math.abs(x.q + x.r - y.q - y.r)) / 2;
    };
    const eyes = [];
    for (const u of view.units) if (u.owner === 0 && u.place === 'map') eyes.push([u.hex, 1]);
    for (const hx of view.hexes) if (hx.town_owner === 0) eyes.push([hx.hex, hx.city ? 2 : 1]);
    for (const hx of view.hexes) if (!eyes.some(([e, r]) => dist(e, hx.hex) <= r)) hx.unseen = true;
    view.units = view.units.filter((u) => u.place !== 'map' || !view.hexes[u.hex].unseen);
    view.last_seen = [
      { hex: at(3, -2), owner: 1, turn: 5, units: { infantry: 2 } },
      { hex: at(1, 3), owner: 1, turn: 6, units: { infantry: 1, cavalry: 2, artillery: 1 } },
    ].filter((e) => view.hexes[e.hex].unseen);
    view.pending_battles = [];
  } else if (name === 'waiting') {
    view.current = 1;
    view.decider = 1;
    view.pending_battles = [];
  }
  return { seat: 0, view, legal, canUndo, log };
}

export function mountFixture(root, name) {
  const sc = scene(name);
  const channel = new EventTarget();
  channel.gameId = 7;
  channel.seats = {
    type: 'game.seats', game_id: 7, status: 'running', creator: 'p1', private: false,
    options: sc.view.options,
    seats: [{ seat: 0, color: 'red', name: 'Alice', player_id: 'p1' }, { seat: 1, color: 'yellow', name: 'Bob', player_id: 'p2' }],
  };
  channel.chat = [{ game_id: 7, from_seat: 1, name: 'Bob', text: 'Good luck! <b>not bold</b>', at: Date.now() - 120000 }];
  channel.state = { game_id: 7, seq: 41, you: { seat: sc.seat }, view: sc.view, legal: sc.legal, can_undo: sc.canUndo, log: sc.log, chat: channel.chat };
  channel.sent = [];
  channel.act = async (action) => {
    channel.sent.push(action);
    return {};
  };
  channel.undo = async () => ({});
  channel.sendChat = async (text) => {
    channel.chat = channel.chat.concat([{ game_id: 7, from_seat: sc.seat, name: 'Alice', text, at: Date.now() }]);
    channel.dispatchEvent(new CustomEvent('chat', { detail: {} }));
  };
  window.__fixtureChannel = channel;
  return mountGame(root, { channel, session: { player_id: sc.seat === 0 ? 'p1' : 'p2', name: 'Alice' } }, { gameId: 7 });
}
