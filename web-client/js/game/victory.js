// The game's own rules where they apply: the Rules help's "This game" part (each victory
// condition [5.0] and optional rule [15.0] chosen for this game, explained) and the progress
// toward each chosen condition under the players panel. Everything shown comes from the view:
// the points are the engine's own count (`victory_points`, the figure the Race is judged by
// [5.4]); Vassals, Capitals and Doomsday coins are the view's public flags; the last Doomsday
// roll is the last `dice_rolled` event with purpose "doomsday" that the page received (live or
// in a game.since catch-up), and without one (a page opened later) each player's last roll,
// which the view carries (`doomsday_roll` [5.5]).

import { t } from '../i18n.js';
import { h, seatStyle, VICTORY_NAME } from '../util.js';
import { optionalRules, ruleLabel, victoryList, VICTORY_CONDITIONS } from '../options.js';
import { fogHelp } from '../fog.js';

// The Race's mark [5.4] (engine: kRaceVictoryPoints), named here only to show "x / 20".
export const RACE_POINTS = 20;

// One more sentence of our own after the create form's line (options.js), per condition:
// data, with its words from the message catalogs.
const MORE = {
  standard: t('thisGame.moreStandard'),
  shorter: t('thisGame.moreShorter'),
  race: t('thisGame.moreRace'),
  doomsday: t('thisGame.moreDoomsday'),
  subjugation: t('thisGame.moreSubjugation'),
};

function racePoints(points) {
  return `${points} / ${RACE_POINTS}`;
}

// "Last roll: Alice (Red) rolled 1 (a coin)." -- "You" has its own sentence (German conjugates).
function lastRollText(page, roll) {
  const coin = roll.die === 1;
  if (roll.player === page.mySeat) return coin ? t('progress.lastRollYouCoin', { die: roll.die }) : t('progress.lastRollYou', { die: roll.die });
  return coin ? t('progress.lastRollCoin', { who: page.whoText(roll.player), die: roll.die }) : t('progress.lastRoll', { who: page.whoText(roll.player), die: roll.die });
}

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
    h('h3', {}, t('thisGame.title')),
    h('p', { class: 'help-game-head' }, t('thisGame.conditionsHead')),
    h(
      'ul',
      { class: 'help-conditions' },
      conditions.map((key) => {
        const v = byKey.get(key);
        return h('li', { dataset: { condition: key } }, h('b', {}, `${VICTORY_NAME[key] || key}${v ? ` [${v.rule}]` : ''}`), v ? `: ${v.help} ` : ' ', MORE[key] || '');
      }),
    ),
    // replaceChildren writes a null as the text "null": leave the note out instead.
    ...(conditions.includes('standard') ? [] : [h('p', { class: 'subtle' }, t('thisGame.standardToo'))]),
    h('p', { class: 'help-game-head' }, t('thisGame.rulesHead')),
    rules.length
      ? h('ul', { class: 'help-rules' }, rules.map((r) => h('li', { dataset: { rule: r.key } }, h('b', {}, ruleLabel(r)), `: ${r.help}`)))
      : h('p', { class: 'subtle help-rules' }, t('thisGame.noRules')),
    ...fogHelp(options),
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
  if (!victoryList(view.options).includes('race')) return h('span', { class: 'vp', title: t('progress.pointsPlain') }, t('progress.vp', { figure: p.victory_points }));
  return h('span', { class: 'vp', title: t('progress.pointsTitle'), dataset: { racePoints: p.victory_points } }, t('progress.vp', { figure: racePoints(p.victory_points) }));
}

export function renderProgress(page) {
  const view = page.view;
  const conditions = victoryList(view.options);
  const players = view.players.map((p, seat) => ({ p, seat }));
  const inGame = players.filter(({ p }) => !p.eliminated && !p.conceded);
  const items = [];
  const line = (key, rule, ...rest) => h('li', { dataset: { condition: key } }, h('b', {}, rule ? `${VICTORY_NAME[key]} [${rule}]` : t('progress.alliance')), ': ', ...rest);
  const figure = (seat, text, data) => h('span', { class: 'progress-figure', dataset: { seat, ...data } }, h('span', { class: 'swatch', style: `background:${seatStyle(seat).fill};border-color:${seatStyle(seat).edge}` }), `${page.playerName(seat)}${text ? ` ${text}` : ''}`);

  // In the order the server lists the conditions; Standard (which always applies) last.
  if (conditions.includes('shorter')) {
    const standing = players.filter(({ p }) => p.capital_hex >= 0 && p.holds_capital);
    items.push(line('shorter', '5.3', t('progress.capitalsLine'), ' ', standing.length ? standing.map(({ seat }) => figure(seat, '', { capital: 'standing' })) : t('progress.noCapitals')));
  }
  if (conditions.includes('race')) {
    items.push(line('race', '5.4', t('progress.raceLine', { points: RACE_POINTS }), ' ', inGame.map(({ p, seat }) => figure(seat, racePoints(p.victory_points), { points: p.victory_points }))));
  }
  if (conditions.includes('doomsday')) {
    const parts = [];
    if (!view.doomsday_started) {
      parts.push(t('progress.doomsdayIdle'));
    } else {
      const withCoin = players.filter(({ p }) => p.doomsday_coin);
      parts.push(t('progress.doomsdayRunning'), ' ', h('span', { class: 'doomsday-coins', dataset: { coins: withCoin.length, of: players.length } }, t('progress.coins', { n: withCoin.length, count: players.length })));
      parts.push(withCoin.length ? `: ${withCoin.map(({ seat }) => name(page, seat)).join(', ')}. ` : '. ');
      parts.push(t('progress.endsWhen'), ' ');
      const roll = page.doomsdayRoll;
      const rolled = players.filter(({ p }) => p.doomsday_roll > 0);
      if (roll) parts.push(h('span', { class: 'doomsday-roll', dataset: { player: roll.player, die: roll.die } }, lastRollText(page, roll)));
      else if (rolled.length) parts.push(h('span', { class: 'doomsday-rolls' }, t('progress.lastRolls'), ' ', ...rolled.flatMap(({ p, seat }, i) => [i ? ', ' : '', figure(seat, String(p.doomsday_roll), { die: p.doomsday_roll })])));
      else parts.push(h('span', { class: 'subtle' }, t('progress.noRollYet')));
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
        t('progress.vassalsLine'),
        ' ',
        inGame.map(({ p, seat }) => {
          if (p.ruler !== undefined && p.ruler >= 0) return figure(seat, t('progress.vassalOf', { ruler: page.playerName(p.ruler) }), { ruler: p.ruler });
          const mine = (p.vassals || []).filter((v) => inGame.some((x) => x.seat === v)).length;
          return figure(seat, t('progress.vassals', { n: mine, count: others }), { vassals: mine, of: others });
        }),
      ),
    );
  }
  if (!items.length) return null;
  items.push(line('standard', '5.1', t('progress.standardLine'), ` ${inGame.length} / ${players.length}`));
  return h('div', { class: 'victory-progress', id: 'victory-progress' }, h('h3', {}, t('progress.title')), h('ul', {}, items));
}
