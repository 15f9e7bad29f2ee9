// Clocks: the create form's fields, and how time left is said. The server keeps the clocks
// (deadlines in its database) and acts when they run out; the page only shows them.

import { h } from './util.js';

const DAY = 86400;
export const PER_MOVE_CHOICES = [
  ['0', 'No time limit'],
  ['120', 'Live: 2 minutes per move'],
  ['300', 'Live: 5 minutes per move'],
  ...[1, 2, 3, 5, 7, 14].map((d) => [String(d * DAY), `${d} day${d === 1 ? '' : 's'} per move`]),
];

// The grace periods the server offers (standing orders, docs/protocol.md).
export const GRACE_CHOICES = [
  ['0', 'is always waited for'],
  ['30', 'has 30 seconds, then his standing order decides'],
  ['60', 'has 1 minute, then his standing order decides'],
  ['120', 'has 2 minutes, then his standing order decides'],
];

// Fields for the create form; value() gives game.create's `clock` (or null: no clock),
// graceSeconds() its `decision_grace_seconds`.
export function clockFields() {
  const field = (id, label, control) => h('label', { class: 'field', for: id }, h('span', {}, label), control);
  const options = (id, choices, value) =>
    h('select', { id, name: id }, choices.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));
  const perMove = options('clock_per_move', PER_MOVE_CHOICES, '0');
  const bank = options('clock_bank', [['0', 'No bank'], ['600', '10 minutes'], ['3600', '1 hour'], [String(DAY), '1 day'], [String(3 * DAY), '3 days']], '0');
  const vacation = options('clock_vacation', ['0', '1', '2', '3', '5', '7', '14'].map((d) => [d, d === '0' ? 'None' : `${d} day${d === '1' ? '' : 's'}`]), '0');
  const expel = options('clock_expel', [['concede', 'concedes'], ['computer', 'is replaced by the computer']], 'concede');
  const details = h(
    'div',
    { class: 'clock-details', hidden: true },
    field('clock_bank', 'Time bank per player', bank),
    field('clock_vacation', 'Vacation per player', vacation),
    field('clock_expel', 'A player expelled for being absent', expel),
  );
  // How long a decision out of turn (losses in a battle...) waits for a player who has the game
  // open before his standing order decides (a player who is away: at once). The default follows
  // the clock, as on the server: 1 minute live, otherwise always wait; until changed by hand.
  const grace = options('decision_grace', GRACE_CHOICES, '0');
  let graceTouched = false;
  grace.addEventListener('change', () => {
    graceTouched = true;
  });
  perMove.addEventListener('change', () => {
    details.hidden = perMove.value === '0';
    const live = Number(perMove.value) > 0 && Number(perMove.value) < DAY;
    if (!graceTouched) grace.value = live ? '60' : '0';
  });
  return {
    element: h(
      'div',
      { class: 'clock-fields' },
      field('clock_per_move', 'Clock', perMove),
      details,
      field('decision_grace', 'A player who has the game open, for a decision out of his turn', grace),
    ),
    value() {
      const perMoveSeconds = Number(perMove.value);
      if (!perMoveSeconds) return null;
      return { per_move_seconds: perMoveSeconds, bank_seconds: Number(bank.value), vacation_days: Number(vacation.value), expel: expel.value };
    },
    // game.create's decision_grace_seconds.
    graceSeconds() {
      return Number(grace.value);
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
