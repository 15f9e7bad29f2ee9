// Clocks: the create form's fields, and how time left is said. The server keeps the clocks
// (deadlines in its database) and acts when they run out; the page only shows them.

import { h } from './util.js';
import { formatDateTime, t } from './i18n.js';

const DAY = 86400;
export const PER_MOVE_CHOICES = [
  ['0', t('clock.noTimeLimit')],
  ['120', t('clock.liveMinutes', { count: 2 })],
  ['300', t('clock.liveMinutes', { count: 5 })],
  ...[1, 2, 3, 5, 7, 14].map((d) => [String(d * DAY), t('clock.daysPerMove', { count: d })]),
];

// The grace periods the server offers (standing orders, docs/protocol.md).
export const GRACE_CHOICES = [
  ['0', t('clock.graceAlways')],
  ['30', t('clock.graceSeconds', { count: 30 })],
  ['60', t('clock.graceMinutes', { count: 1 })],
  ['120', t('clock.graceMinutes', { count: 2 })],
];

const SKIP_CHOICES = [1, 2, 3, 5, 10];

// Fields for the create form; value() gives game.create's `clock` (or null: no clock),
// graceSeconds() its `decision_grace_seconds`.
export function clockFields() {
  const field = (id, label, control) => h('label', { class: 'field', for: id }, h('span', {}, label), control);
  const options = (id, choices, value) =>
    h('select', { id, name: id }, choices.map(([v, text]) => h('option', { value: v, selected: v === value }, text)));
  const perMove = options('clock_per_move', PER_MOVE_CHOICES, '0');
  const bank = options('clock_bank', [['0', t('clock.noBank')], ['600', lengthText(600)], ['3600', lengthText(3600)], [String(DAY), lengthText(DAY)], [String(3 * DAY), lengthText(3 * DAY)]], '0');
  const vacation = options('clock_vacation', ['0', '1', '2', '3', '5', '7', '14'].map((d) => [d, d === '0' ? t('clock.noVacation') : t('length.days', { count: Number(d) })]), '0');
  const expel = options('clock_expel', [['concede', t('clock.expelConcede')], ['computer', t('clock.expelComputer')]], 'concede');
  // Turns of an absent player the others may skip before they may vote to expel him (1..10).
  const skips = options('clock_skips', SKIP_CHOICES.map((n) => [String(n), t('clock.afterSkips', { count: n })]), '2');
  const details = h(
    'div',
    { class: 'clock-details', hidden: true },
    field('clock_bank', t('clock.bankLabel'), bank),
    field('clock_vacation', t('clock.vacationLabel'), vacation),
    field('clock_skips', t('clock.skipsLabel'), skips),
    field('clock_expel', t('clock.expelLabel'), expel),
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
      field('clock_per_move', t('clock.label'), perMove),
      details,
      field('decision_grace', t('clock.graceLabel'), grace),
    ),
    value() {
      const perMoveSeconds = Number(perMove.value);
      if (!perMoveSeconds) return null;
      return { per_move_seconds: perMoveSeconds, bank_seconds: Number(bank.value), vacation_days: Number(vacation.value), skips_before_expel: Number(skips.value), expel: expel.value };
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
  const days = t('duration.days', { n: d });
  const hours = t('duration.hours', { n: hh });
  const minutes = t('duration.minutes', { n: m });
  const seconds = t('duration.seconds', { n: s % 60 });
  if (d) return hh ? `${days} ${hours}` : days;
  if (hh) return m ? `${hours} ${minutes}` : hours;
  if (m) return s % 60 ? `${minutes} ${seconds}` : minutes;
  return seconds;
}

// Time left on a clock as told by the server (its `now` against our own clock).
export function timeLeft(clock, nowLocal = Date.now()) {
  if (!clock || clock.deadline === null || clock.deadline === undefined) return null;
  const offset = (clock.now || 0) - (clock.received_at || nowLocal);
  return clock.deadline - (nowLocal + offset);
}

// ---- The time control as players read it before joining (lobby, invitation, waiting room,
// game header, "your games"), and deadlines in the reader's own time zone.

// "3 days", "1 day", "5 minutes", "12 hours": a length said in whole units where it is one.
export function lengthText(seconds) {
  if (seconds >= DAY && seconds % DAY === 0) return t('length.days', { count: seconds / DAY });
  if (seconds >= 3600 && seconds % 3600 === 0) return t('length.hours', { count: seconds / 3600 });
  if (seconds >= 60 && seconds % 60 === 0) return t('length.minutes', { count: seconds / 60 });
  return durationText(seconds * 1000);
}

// A game's time control in parts (the summary's `clock`: per move, bank, vacation days, skips
// before a vote), or one part "No time limit".
export function timeControlParts(clock) {
  if (!clock || !clock.per_move_seconds) return [t('clock.noTimeLimit')];
  const parts = [t('clock.perMove', { length: lengthText(clock.per_move_seconds) })];
  parts.push(clock.bank_seconds ? t('clock.bank', { length: lengthText(clock.bank_seconds) }) : t('clock.noBankLower'));
  const v = clock.vacation_days || 0;
  parts.push(v ? t('clock.vacationDays', { count: v }) : t('clock.noVacationLower'));
  const skips = clock.skips_before_expel;
  if (skips) parts.push(t('clock.voteAfterSkips', { count: skips }));
  return parts;
}

export function timeControlText(clock) {
  return timeControlParts(clock).join(' · ');
}

// The speed of the lobby's filter (the summary's `speed`).
export const SPEED_NAME = { live: t('speed.live'), daily: t('speed.daily'), untimed: t('clock.noTimeLimit') };

export function speedOf(clock) {
  if (!clock || !clock.per_move_seconds) return 'untimed';
  return clock.per_move_seconds < DAY ? 'live' : 'daily';
}

// A moment in the reader's local time with his time zone named: "Fri 28 Nov, 14:05 CET".
export function localTime(ms) {
  return formatDateTime(ms, { weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', timeZoneName: 'short' });
}

// What is left of a running clock, in parts: of this move's own time, of the seat's bank and
// of its vacation days (used in that order: game_clock.h), and the deadline.
export function timeLeftParts(clock, nowLocal = Date.now()) {
  const options = clock && clock.options;
  const seat = clock && clock.seats && clock.seats[clock.seat];
  if (!options || !seat || clock.deadline === null || clock.deadline === undefined) return null;
  const offset = (clock.now || 0) - (clock.received_at || nowLocal);
  const now = nowLocal + offset;
  const perMove = options.per_move_seconds * 1000;
  const used = Math.max(0, now - (clock.since || now));
  const over = Math.max(0, used - perMove);
  const bank = Math.max(0, (seat.bank_ms || 0) - over);
  const vacation = Math.max(0, (seat.vacation_ms || 0) - Math.max(0, over - (seat.bank_ms || 0)));
  return { move: Math.max(0, perMove - used), bank, vacation, deadline: clock.deadline };
}

// "18 h of this move, then 1 d of bank, then 3 d of vacation": the parts that are not empty.
export function timeLeftPartsText(parts) {
  if (!parts) return '';
  const out = [t('clock.ofThisMove', { time: durationText(parts.move) })];
  if (parts.bank) out.push(t('clock.ofBank', { time: durationText(parts.bank) }));
  if (parts.vacation) out.push(t('clock.ofVacation', { time: durationText(parts.vacation) }));
  return out.join(t('clock.thenSeparator'));
}
