// Seat kinds: human or computer (with its level). The lobby's create form chooses them; the
// game page marks computer seats. The server plays computer seats itself (docs/server.md).

import { h, seatStyle } from './util.js';
import { t } from './i18n.js';
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

// The create form's seat choices: the creator takes the first seat; each other seat is left
// to a human or given to a computer. `count()` says how many seats the game has; call
// render() once the form exists and whenever the count changes.
export function seatKindFields(count) {
  const box = h('fieldset', { class: 'field seat-kinds', id: 'seat-kinds' });
  const render = () => {
    const n = count();
    const previous = [...box.querySelectorAll('select')].map((s) => s.value);
    box.replaceChildren(h('legend', {}, t('create.seats')));
    box.append(h('p', { class: 'field-help' }, t('create.seatYou', { colour: seatStyle(0).name })));
    for (let seat = 1; seat < n; seat += 1) {
      const id = `seat-kind-${seat}`;
      const choices = [['human', t('create.seatHuman')], ...Object.entries(COMPUTER_LEVEL_NAME)];
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
  };
  return {
    element: box,
    render,
    // The create message's `computers` field.
    computers() {
      return [...box.querySelectorAll('select')]
        .filter((s) => s.value !== 'human')
        .map((s) => ({ seat: Number(s.dataset.seat), level: s.value }));
    },
  };
}
