// Seat kinds: human or computer (with its level). The lobby's create form chooses them; the
// game page marks computer seats. The server plays computer seats itself (docs/server.md).

import { h, seatStyle } from './util.js';
import { formatNumber, t } from './i18n.js';
import { shownName } from './leaving.js';

export const COMPUTER_LEVEL_NAME = {
  heuristic: t('computer.heuristic'),
  search: t('computer.search'),
  random: t('computer.random'),
};

// The computer level of a seat in a game.seats message or game summary, or null.
export function computerLevel(seats, seat) {
  const list = seats && (seats.seats || seats);
  if (!Array.isArray(list)) return null;
  const entry = list.find((x) => x.seat === seat);
  return entry && entry.computer ? entry.computer : null;
}

// The name a seat goes by: a computer seat's player is named by the server after its level
// ("Computer (search)"); the page says it as the create form does ("Computer (strong)"). A seat
// the computer took over keeps its player's name.
export function seatName(entry) {
  if (entry && entry.former) return shownName(entry); // leaving.js: "a former player"
  if (!entry || !entry.name) return null;
  if (entry.computer && entry.name === `Computer (${entry.computer})`) return COMPUTER_LEVEL_NAME[entry.computer] || entry.name;
  return entry.name;
}

// A small tag naming a computer seat's level.
export function computerTag(level) {
  if (!level) return null;
  return h('span', { class: 'tag tag-computer', title: t('computer.tagTitle', { level: COMPUTER_LEVEL_NAME[level] || level }) }, `${t('computer.tag')} · ${level === 'heuristic' ? t('computer.fast') : level === 'search' ? t('computer.strong') : level === 'passive' ? t('computer.passive') : level}`);
}

// A computer level's choice in the create form, with its rating on the ladder's scale (GET
// /api/computer-levels; docs/ai.md, "Levels by rating").
function levelLabel(level, levels) {
  const name = COMPUTER_LEVEL_NAME[level];
  const entry = levels && levels.levels && levels.levels.find((l) => l.level === level);
  if (!entry) return name;
  // A bound (the random level never won) is said as one: "under", rounded towards it.
  const rating =
    entry.bound === 'at_most'
      ? t('computer.ratingUnder', { rating: formatNumber(Math.ceil(entry.rating)) })
      : t('computer.ratingAbout', { rating: formatNumber(Math.round(entry.rating)) });
  return `${name} · ${rating}`;
}

// The line under the seat choices: what the computers' ratings are and, for a player rated
// with two players, his own rating and his chance against each level (kept out of the
// choices, which would not fit a narrow select).
function levelsHelp(levels) {
  const parts = [t('create.levelsHelp')];
  const mine = Array.isArray(levels.yours) ? levels.yours.find((r) => r.players === 2) : null;
  if (mine) {
    parts.push(t('create.levelsYours', { rating: formatNumber(Math.round(mine.rating)), count: mine.games }));
    const chances = levels.levels
      .filter((l) => COMPUTER_LEVEL_NAME[l.level] && typeof l.your_chance === 'number')
      .map((l) => {
        const percent = formatNumber(Math.round(l.your_chance * 100));
        const params = { level: COMPUTER_LEVEL_NAME[l.level], percent };
        return l.bound === 'at_most' ? t('computer.chanceOver', params) : t('computer.chanceAbout', params);
      });
    if (chances.length) parts.push(t('create.levelsChances', { chances: chances.join(', ') }));
  } else if (levels.yours) {
    parts.push(t('create.levelsNotRated'));
  }
  return parts.join(' ');
}

// The create form's seat choices: the creator takes the first seat; each other seat is left
// to a human or given to a computer. `count()` says how many seats the game has; call
// render() once the form exists and whenever the count changes, setLevels() when the levels'
// ratings arrive.
export function seatKindFields(count) {
  const box = h('fieldset', { class: 'field seat-kinds', id: 'seat-kinds' });
  let levels = null;
  const render = () => {
    const n = count();
    const previous = [...box.querySelectorAll('select')].map((s) => s.value);
    box.replaceChildren(h('legend', {}, t('create.seats')));
    box.append(h('p', { class: 'field-help' }, t('create.seatYou', { colour: seatStyle(0).name })));
    for (let seat = 1; seat < n; seat += 1) {
      const id = `seat-kind-${seat}`;
      const choices = [['human', t('create.seatHuman')], ...Object.keys(COMPUTER_LEVEL_NAME).map((level) => [level, levelLabel(level, levels)])];
      const value = previous[seat - 1] || 'human';
      box.append(
        h(
          'label',
          { class: 'field', for: id },
          h('span', {}, seatStyle(seat).name),
          h('select', { id, name: id, dataset: { seat } }, choices.map(([v, text]) => h('option', { value: v, selected: v === value }, text))),
        ),
      );
    }
    if (levels && n > 1) box.append(h('p', { class: 'field-help', id: 'computer-levels-help' }, levelsHelp(levels)));
  };
  return {
    element: box,
    render,
    setLevels(answer) {
      levels = answer;
      render();
    },
    // The create message's `computers` field.
    computers() {
      return [...box.querySelectorAll('select')]
        .filter((s) => s.value !== 'human')
        .map((s) => ({ seat: Number(s.dataset.seat), level: s.value }));
    },
  };
}
