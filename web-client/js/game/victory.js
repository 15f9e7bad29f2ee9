// The game's own rules where they apply: the Rules help's "This game" part (each victory
// condition [5.0] and optional rule [15.0] chosen for this game, explained) and the progress
// toward each chosen condition under the players panel. Everything shown comes from the view:
// the points are the engine's own count (`victory_points`, the figure the Race is judged by
// [5.4]); Vassals, Capitals and Doomsday coins are the view's public flags; the last Doomsday
// roll is the last `dice_rolled` event with purpose "doomsday" that the page received (live or
// in a game.since catch-up): the view itself does not carry it.

import { count, h, seatStyle, VICTORY_NAME } from '../util.js';
import { optionalRules, victoryList, VICTORY_CONDITIONS } from '../options.js';

// The Race's mark [5.4] (engine: kRaceVictoryPoints), named here only to show "x / 20".
export const RACE_POINTS = 20;

// Every word of this module, for the message catalogs.
export const VICTORY_TEXT = {
  thisGame: 'This game',
  conditionsHead: 'How to win [5.0]: the first condition met ends the game',
  standardToo: 'Standard Conquest [5.1] applies as well: the last player left in the game wins.',
  rulesHead: 'Optional rules [15.0]',
  noRules: 'No optional rules: the rules as printed.',
  // One more sentence of our own after the create form's line (options.js).
  more: {
    standard: 'A player is out when he loses his last Town or City or concedes.',
    shorter: 'The player who lost his Capital is not scored; ties share the win.',
    race: 'Points: 1 per Town and 2 per City on the map. They count before the Building Phase, so points won in a turn count at the start of the next one.',
    doomsday: 'Each player still without a coin rolls a die at the start of his turn; a 1 puts a coin next to his Capital (whoever holds it). When every Capital has its coin, the largest empire wins; ties share the win.',
    subjugation: 'A Vassal who goes free [15.65] is no longer counted; a player who concedes need not be a Vassal [15.66].',
  },
  progressHead: 'Toward victory',
  pointsPlain: 'Victory points: 1 per Town, 2 per City',
  vp: (figure) => `${figure} VP`,
  pointsTitle: 'Points toward the Race for Dominance [5.4]: 1 per Town, 2 per City',
  racePoints: (points) => `${points} / ${RACE_POINTS}`,
  raceLine: `first to ${RACE_POINTS} points at the start of his turn:`,
  doomsdayIdle: 'not running: it starts when the first City is captured.',
  doomsdayRunning: 'running (a City was captured).',
  coins: (n, of) => `Coins next to ${n} of ${count(of, { one: 'Capital', other: 'Capitals' })}`,
  endsWhen: 'It ends the game when every Capital has a coin.',
  lastRoll: (who, die) => `Last roll: ${who} rolled ${die}${die === 1 ? ' (a coin)' : ''}.`,
  noRollSeen: 'No roll seen on this page yet.',
  alliance: 'Alliance victory [15.66]',
  vassalsLine: 'every other player a Vassal:',
  vassals: (n, of) => `${n} / ${count(of, { one: 'Vassal', other: 'Vassals' })}`,
  vassalOf: (ruler) => `Vassal of ${ruler}`,
  capitalsLine: 'the first Capital captured ends the game. Capitals standing:',
  noCapitals: 'none',
  standardLine: 'players still in:',
};

function name(page, seat) {
  return `${page.playerName(seat)} (${seatStyle(seat).name})`;
}

// ------------------------------------------------------------------------------------------
// The Rules help's "This game" part

export function renderThisGame(box, options) {
  const conditions = victoryList(options);
  const byKey = new Map(VICTORY_CONDITIONS.map((v) => [v.key, v]));
  const rules = optionalRules(options);
  box.replaceChildren(
    h('h3', {}, VICTORY_TEXT.thisGame),
    h('p', { class: 'help-game-head' }, VICTORY_TEXT.conditionsHead),
    h(
      'ul',
      { class: 'help-conditions' },
      conditions.map((key) => {
        const v = byKey.get(key);
        return h('li', { dataset: { condition: key } }, h('b', {}, `${VICTORY_NAME[key] || key}${v ? ` [${v.rule}]` : ''}`), v ? `: ${v.help} ` : ' ', VICTORY_TEXT.more[key] || '');
      }),
    ),
    // replaceChildren writes a null as the text "null": leave the note out instead.
    ...(conditions.includes('standard') ? [] : [h('p', { class: 'subtle' }, VICTORY_TEXT.standardToo)]),
    h('p', { class: 'help-game-head' }, VICTORY_TEXT.rulesHead),
    rules.length
      ? h('ul', { class: 'help-rules' }, rules.map((r) => h('li', { dataset: { rule: r.key } }, h('b', {}, `${r.name} [${r.rule}]`), `: ${r.help}`)))
      : h('p', { class: 'subtle help-rules' }, VICTORY_TEXT.noRules),
  );
}

// ------------------------------------------------------------------------------------------
// Progress toward the chosen conditions (under the players panel)

// The last Doomsday roll among these events [5.5]: page.doomsdayRoll = {player, die, seq}.
export function noteDoomsdayRolls(page, events, seq) {
  for (const ev of events || []) {
    if (ev.kind === 'dice_rolled' && ev.purpose === 'doomsday' && Array.isArray(ev.dice) && ev.dice.length) {
      if (!page.doomsdayRoll || seq >= page.doomsdayRoll.seq) page.doomsdayRoll = { player: ev.player, die: ev.dice[0], seq };
    }
  }
}

// The points badge of a player row: "7 / 20 VP" in a Race [5.4], else "7 VP".
export function pointsBadge(view, p) {
  if (!victoryList(view.options).includes('race')) return h('span', { class: 'vp', title: VICTORY_TEXT.pointsPlain }, VICTORY_TEXT.vp(p.victory_points));
  return h('span', { class: 'vp', title: VICTORY_TEXT.pointsTitle, dataset: { racePoints: p.victory_points } }, VICTORY_TEXT.vp(VICTORY_TEXT.racePoints(p.victory_points)));
}

export function renderProgress(page) {
  const view = page.view;
  const conditions = victoryList(view.options);
  const players = view.players.map((p, seat) => ({ p, seat }));
  const inGame = players.filter(({ p }) => !p.eliminated && !p.conceded);
  const items = [];
  const line = (key, rule, ...rest) => h('li', { dataset: { condition: key } }, h('b', {}, rule ? `${VICTORY_NAME[key]} [${rule}]` : VICTORY_TEXT.alliance), ': ', ...rest);
  const figure = (seat, text, data) => h('span', { class: 'progress-figure', dataset: { seat, ...data } }, h('span', { class: 'swatch', style: `background:${seatStyle(seat).fill};border-color:${seatStyle(seat).edge}` }), `${page.playerName(seat)}${text ? ` ${text}` : ''}`);

  // In the order the server lists the conditions; Standard (which always applies) last.
  if (conditions.includes('shorter')) {
    const standing = players.filter(({ p }) => p.capital_hex >= 0 && p.holds_capital);
    items.push(line('shorter', '5.3', VICTORY_TEXT.capitalsLine, ' ', standing.length ? standing.map(({ seat }) => figure(seat, '', { capital: 'standing' })) : VICTORY_TEXT.noCapitals));
  }
  if (conditions.includes('race')) {
    items.push(line('race', '5.4', VICTORY_TEXT.raceLine, ' ', inGame.map(({ p, seat }) => figure(seat, VICTORY_TEXT.racePoints(p.victory_points), { points: p.victory_points }))));
  }
  if (conditions.includes('doomsday')) {
    const parts = [];
    if (!view.doomsday_started) {
      parts.push(VICTORY_TEXT.doomsdayIdle);
    } else {
      const withCoin = players.filter(({ p }) => p.doomsday_coin);
      parts.push(VICTORY_TEXT.doomsdayRunning, ' ', h('span', { class: 'doomsday-coins', dataset: { coins: withCoin.length, of: players.length } }, VICTORY_TEXT.coins(withCoin.length, players.length)));
      parts.push(withCoin.length ? `: ${withCoin.map(({ seat }) => name(page, seat)).join(', ')}. ` : '. ');
      parts.push(VICTORY_TEXT.endsWhen, ' ');
      const roll = page.doomsdayRoll;
      parts.push(roll ? h('span', { class: 'doomsday-roll', dataset: { player: roll.player, die: roll.die } }, VICTORY_TEXT.lastRoll(page.whoText(roll.player), roll.die)) : h('span', { class: 'subtle' }, VICTORY_TEXT.noRollSeen));
    }
    items.push(line('doomsday', '5.5', ...parts));
  }
  if (view.options && view.options.subjugation) {
    // Alliance victory [15.66, 5.2]: applies whenever the Subjugation rules are on.
    const others = inGame.length - 1;
    items.push(
      line(
        'subjugation',
        conditions.includes('subjugation') ? '5.2' : null,
        VICTORY_TEXT.vassalsLine,
        ' ',
        inGame.map(({ p, seat }) => {
          if (p.ruler !== undefined && p.ruler >= 0) return figure(seat, VICTORY_TEXT.vassalOf(page.playerName(p.ruler)), { ruler: p.ruler });
          const mine = (p.vassals || []).filter((v) => inGame.some((x) => x.seat === v)).length;
          return figure(seat, VICTORY_TEXT.vassals(mine, others), { vassals: mine, of: others });
        }),
      ),
    );
  }
  if (!items.length) return null;
  items.push(line('standard', '5.1', VICTORY_TEXT.standardLine, ` ${inGame.length} / ${players.length}`));
  return h('div', { class: 'victory-progress', id: 'victory-progress' }, h('h3', {}, VICTORY_TEXT.progressHead), h('ul', {}, items));
}
