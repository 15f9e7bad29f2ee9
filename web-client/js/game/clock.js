// The clock box of the game page: whose clock runs and the time left, "over time", skipped
// turns, the buttons to skip a late player's turn, to vote to expel him and to take one's seat
// back from the computer, and the clock's lines of the game log.

import { durationText, timeLeft, timeLeftParts, timeLeftPartsText, localTime } from '../clock_options.js';
import { computerLevel } from '../seat_kinds.js';
import { h, seatStyle, toast } from '../util.js';

export function renderClock(page, panel) {
  const clock = page.clock;
  if (!clock) return;
  const box = h('section', { class: 'clock-box', id: 'clock' });
  const mySeat = page.mySeat;
  const seat = clock.seat;
  if (seat !== null && seat !== undefined) {
    const left = timeLeft(clock);
    const name = seatStyle(seat).name;
    const text = clock.stage === 'overdue' ? `${name} is over time` : `${name}: ${durationText(left)} left`;
    box.append(h('p', { class: `clock-line clock-${clock.stage}`, id: 'clock-left' }, text));
    // Where that time comes from (this move's, the bank, vacation days: used in that order)
    // and the deadline in the reader's own time zone.
    if (clock.stage !== 'overdue') {
      const parts = timeLeftParts(clock);
      if (parts) box.append(h('p', { class: 'subtle clock-parts', id: 'clock-parts' }, timeLeftPartsText(parts)));
    }
    if (clock.deadline) box.append(h('p', { class: 'subtle', id: 'clock-deadline' }, `Deadline: ${localTime(clock.deadline)}`));
  } else {
    box.append(h('p', { class: 'clock-line subtle' }, 'Clock stopped'));
  }
  const seated = mySeat !== null && mySeat !== undefined;
  if (seated && clock.may_skip && seat !== mySeat) {
    box.append(h('button', { class: 'btn', id: 'skip-turn', onclick: () => send(page, 'game.skip_turn', {}) }, `Skip ${seatStyle(seat).name}'s turn`));
  }
  // A seat the computer took over after an expel vote: its owner may play it again.
  if (seated && clock.seats && clock.seats[mySeat] && clock.seats[mySeat].expelled && computerLevel(page.seats, mySeat)) {
    box.append(h('button', { class: 'btn btn-primary', id: 'take-back', onclick: () => send(page, 'game.take_back', {}) }, 'Take my seat back from the computer'));
  }
  if (seated && !computerLevel(page.seats, mySeat)) {
    const vacation = vacationControl(page, clock, mySeat);
    if (vacation) box.append(vacation);
  }
  const needed = clock.options ? clock.options.skips_before_expel : 0;
  (clock.seats || []).forEach((c, s) => {
    if (!seated || s === mySeat || c.expelled || c.skips < needed) return;
    const voted = (c.expel_votes || []).includes(mySeat);
    box.append(h('button', { class: 'btn btn-danger vote-expel', dataset: { seat: s }, disabled: voted, onclick: () => send(page, 'game.vote_expel', { seat: s }) }, voted ? `You voted to expel ${seatStyle(s).name}` : `Vote to expel ${seatStyle(s).name}`));
  });
  if ((clock.log || []).length) {
    box.append(h('ol', { class: 'clock-log' }, clock.log.slice(-5).map((l) => h('li', {}, l.text))));
  }
  panel.append(box);
}

// One seat's time in the players list: the time left while its clock runs (ticking), "over
// time", "on vacation until ..." (vacation.js), or the time it has for its next move (the time
// per move, its bank and its vacation days). Nothing for a game without a clock or a computer's
// seat (it decides within its own budget).
export function seatClock(page, seat) {
  const clock = page.clock;
  if (!clock || !clock.options || !clock.seats || !clock.seats[seat]) return null;
  if (computerLevel(page.seats, seat)) return null;
  const c = clock.seats[seat];
  const untilNote = vacationNote(clock, seat);
  if (clock.seat === seat) {
    if (clock.stage === 'overdue') return h('span', { class: 'tag tag-warn seat-clock', dataset: { seat } }, 'over time');
    const urgent = clock.stage === 'reminded';
    return [h('span', { class: `tag seat-clock${urgent ? ' tag-warn' : ''}`, dataset: { seat, running: 'true' }, title: 'Time left for this move' }, `${durationText(timeLeft(clock))} left`), untilNote];
  }
  const next = clock.options.per_move_seconds * 1000 + (c.bank_ms || 0) + (c.vacation_ms || 0);
  const parts = [`${durationText(clock.options.per_move_seconds * 1000)} per move`];
  if (c.bank_ms) parts.push(`${durationText(c.bank_ms)} of bank`);
  if (c.vacation_ms) parts.push(`${durationText(c.vacation_ms)} of vacation`);
  return [h('span', { class: 'tag seat-clock subtle', dataset: { seat }, title: `Time for the next move: ${parts.join(' + ')}` }, `next move: ${durationText(next)}`), untilNote];
}

// Declaring vacation ahead (game.vacation): a number of whole days from what is left; while it
// lasts one's clock stands still, and it ends early when one plays.
function vacationControl(page, clock, seat) {
  const c = clock.seats && clock.seats[seat];
  if (!c) return null;
  if (c.vacation_until && c.vacation_until > (clock.now || 0)) {
    return h('p', { class: 'subtle', id: 'my-vacation' }, `You are on vacation until ${localTime(c.vacation_until)}; it ends when you play.`);
  }
  const days = Math.floor((c.vacation_ms || 0) / 86400000);
  if (days < 1 || (clock.seat === seat && clock.stage === 'overdue')) return null;
  const choice = h('select', { id: 'vacation-days', 'aria-label': 'Days of vacation' }, Array.from({ length: days }, (_, i) => h('option', { value: String(i + 1) }, `${i + 1} day${i ? 's' : ''}`)));
  return h(
    'div',
    { class: 'vacation-form' },
    choice,
    h('button', { class: 'btn', id: 'declare-vacation', onclick: () => send(page, 'game.vacation', { days: Number(choice.value) }) }, `Go on vacation (${days} day${days === 1 ? '' : 's'} left)`),
  );
}

function vacationNote(clock, seat) {
  const until = clock.seats[seat] && clock.seats[seat].vacation_until;
  if (!until || until <= (clock.now || 0)) return null;
  return h('span', { class: 'tag vacation-note', dataset: { seat } }, `on vacation until ${localTime(until)}`);
}

async function send(page, type, fields) {
  try {
    await page.ctx.conn.request(type, { game_id: page.gameId, ...fields });
  } catch (err) {
    toast(err.message || err.code, 'error');
  }
}

// Refreshes the time left once a second without redrawing the page.
export function tickClock(page) {
  const clock = page.clock;
  if (!clock || clock.stage === 'overdue' || clock.seat === null || clock.seat === undefined) return;
  const text = durationText(timeLeft(clock));
  const line = page.root.querySelector('#clock-left');
  if (line) line.textContent = `${seatStyle(clock.seat).name}: ${text} left`;
  const parts = page.root.querySelector('#clock-parts');
  if (parts) parts.textContent = timeLeftPartsText(timeLeftParts(clock));
  const running = page.root.querySelector('.seat-clock[data-running="true"]');
  if (running && running.firstChild) running.firstChild.textContent = `${text} left`;
}
