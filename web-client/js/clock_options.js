// Clocks: the create form's fields, and how time left is said. The server keeps the clocks
// (deadlines in its database) and acts when they run out; the page only shows them.

import { count, h } from './util.js';

const DAY = 86400;
export const PER_MOVE_CHOICES = [
  ['0', 'No time limit'],
  ['120', 'Live: 2 minutes per move'],
  ['300', 'Live: 5 minutes per move'],
  ...[1, 2, 3, 5, 7, 14].map((d) => [String(d * DAY), `${d} day${d === 1 ? '' : 's'} per move`]),
];

const SKIP_CHOICES = [1, 2, 3, 5, 10];

// Fields for the create form; value() gives game.create's `clock` (or null: no clock).
export function clockFields() {
  const field = (id, label, control) => h('label', { class: 'field', for: id }, h('span', {}, label), control);
  const options = (id, choices, value) =>
    h('select', { id, name: id }, choices.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));
  const perMove = options('clock_per_move', PER_MOVE_CHOICES, '0');
  const bank = options('clock_bank', [['0', 'No bank'], ['600', '10 minutes'], ['3600', '1 hour'], [String(DAY), '1 day'], [String(3 * DAY), '3 days']], '0');
  const vacation = options('clock_vacation', ['0', '1', '2', '3', '5', '7', '14'].map((d) => [d, d === '0' ? 'None' : `${d} day${d === '1' ? '' : 's'}`]), '0');
  const expel = options('clock_expel', [['concede', 'concedes'], ['computer', 'is replaced by the computer']], 'concede');
  // Turns of an absent player the others may skip before they may vote to expel him (1..10).
  const skips = options('clock_skips', SKIP_CHOICES.map((n) => [String(n), `after ${count(n, { one: 'skipped turn', other: 'skipped turns' })}`]), '2');
  const details = h(
    'div',
    { class: 'clock-details', hidden: true },
    field('clock_bank', 'Time bank per player', bank),
    field('clock_vacation', 'Vacation per player', vacation),
    field('clock_skips', 'A vote to expel an absent player', skips),
    field('clock_expel', 'A player expelled for being absent', expel),
  );
  perMove.addEventListener('change', () => {
    details.hidden = perMove.value === '0';
  });
  return {
    element: h('div', { class: 'clock-fields' }, field('clock_per_move', 'Clock', perMove), details),
    value() {
      const perMoveSeconds = Number(perMove.value);
      if (!perMoveSeconds) return null;
      return { per_move_seconds: perMoveSeconds, bank_seconds: Number(bank.value), vacation_days: Number(vacation.value), skips_before_expel: Number(skips.value), expel: expel.value };
    },
  };
}

// "3 d 4 h", "2 h 5 min", "1 min 20 s".
export function durationText(ms) {
  const s = Math.max(0, Math.round(ms / 1000));
  const d = Math.floor(s / DAY);
  const hh = Math.floor((s % DAY) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d) return `${d} d${hh ? ` ${hh} h` : ''}`;
  if (hh) return `${hh} h${m ? ` ${m} min` : ''}`;
  if (m) return `${m} min${s % 60 ? ` ${s % 60} s` : ''}`;
  return `${s} s`;
}

// Time left on a clock as told by the server (its `now` against our own clock).
export function timeLeft(clock, nowLocal = Date.now()) {
  if (!clock || clock.deadline === null || clock.deadline === undefined) return null;
  const offset = (clock.now || 0) - (clock.received_at || nowLocal);
  return clock.deadline - (nowLocal + offset);
}
