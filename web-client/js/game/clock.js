// The clock box of the game page: whose clock runs and the time left, "over time", skipped
// turns and how many lead to a vote, the buttons to skip a late player's turn and to vote to
// expel him (each asks first, saying what it does: the clock's options say whether an expelled
// player concedes or the computer takes his seat), to take one's seat back from the computer
// and to declare vacation, and the clock's recent lines. Players are named as everywhere on
// the page ("Bob (Yellow)"), never by colour alone.

import { durationText, timeLeft, timeLeftParts, timeLeftPartsText, localTime } from '../clock_options.js';
import { confirmDialog } from '../dialogs.js';
import { logLineText, t } from '../i18n.js';
import { computerLevel } from '../seat_kinds.js';
import { h, toast } from '../util.js';

// The longer texts of the box, from the message catalogs; `expel` is the game's clock option
// ("concede" or "computer").
const CLOCK_SENTENCES = {
  skipText: (name, skip, needed) =>
    `${t('gameClock.skipText', { name })} ${skip >= needed ? t('gameClock.skipThenVote', { name, skip }) : t('gameClock.skipOf', { name, skip, count: needed })}`,
  consequence: (name, expel) => (expel === 'computer' ? t('gameClock.expelComputer', { name }) : t('gameClock.expelConcede', { name })),
  votesNeeded: (votes, needed, voters) =>
    votes + 1 >= needed
      ? t('gameClock.voteDecides', { count: voters })
      : `${t('gameClock.majorityOf', { count: voters })} ${t('gameClock.votesWithYours', { count: votes + 1, needed })}`,
  rules: (needed, expel) => (expel === 'computer' ? t('gameClock.rulesComputer', { count: needed }) : t('gameClock.rulesConcede', { count: needed })),
  left: (name, time) => t('gameClock.left', { name, time }),
};

// "Bob (Yellow)", or "You".
function nameOf(page, seat) {
  return page.whoText(seat);
}

function inGame(page, seat) {
  const p = page.view && page.view.players ? page.view.players[seat] : null;
  return !!p && !p.eliminated && !p.conceded;
}

export function renderClock(page, panel) {
  const clock = page.clock;
  if (!clock) return;
  const box = h('section', { class: 'clock-box', id: 'clock' });
  const mySeat = page.mySeat;
  const seat = clock.seat;
  if (seat !== null && seat !== undefined) {
    const left = timeLeft(clock);
    const overTime = seat === mySeat ? t('gameClock.overTimeYou') : t('gameClock.overTime', { name: nameOf(page, seat) });
    const text = clock.stage === 'overdue' ? overTime : CLOCK_SENTENCES.left(nameOf(page, seat), durationText(left));
    box.append(h('p', { class: `clock-line clock-${clock.stage}`, id: 'clock-left' }, text));
    // Where that time comes from (this move's, the bank, vacation days: used in that order)
    // and the deadline in the reader's own time zone.
    if (clock.stage !== 'overdue') {
      const parts = timeLeftParts(clock);
      if (parts) box.append(h('p', { class: 'subtle clock-parts', id: 'clock-parts' }, timeLeftPartsText(parts)));
    }
    if (clock.deadline) box.append(h('p', { class: 'subtle', id: 'clock-deadline' }, t('gameClock.deadline', { time: localTime(clock.deadline) })));
  } else {
    box.append(h('p', { class: 'clock-line subtle' }, t('gameClock.stopped')));
  }
  const options = clock.options || {};
  const needed = options.skips_before_expel || 0;
  // The game's rule for absent players, chosen at creation.
  if (needed) box.append(h('p', { class: 'subtle clock-rules', id: 'clock-rules' }, CLOCK_SENTENCES.rules(needed, options.expel)));
  (clock.seats || []).forEach((c, s) => {
    if (c.skips > 0 && !c.expelled) box.append(h('p', { class: 'subtle clock-skips', dataset: { seat: s } }, t('gameClock.skips', { name: nameOf(page, s), skips: c.skips, count: needed })));
  });
  const seated = mySeat !== null && mySeat !== undefined;
  if (seated && clock.may_skip && seat !== mySeat) {
    box.append(h('button', { class: 'btn', id: 'skip-turn', onclick: () => confirmSkip(page, seat) }, t('gameClock.skipButton', { name: nameOf(page, seat) })));
  }
  // A seat the computer took over after an expel vote: its owner may play it again.
  if (seated && clock.seats && clock.seats[mySeat] && clock.seats[mySeat].expelled && computerLevel(page.seats, mySeat)) {
    box.append(h('button', { class: 'btn btn-primary', id: 'take-back', onclick: () => send(page, 'game.take_back', {}) }, t('gameClock.takeBack')));
  }
  if (seated && !computerLevel(page.seats, mySeat)) {
    const vacation = vacationControl(page, clock, mySeat);
    if (vacation) box.append(vacation);
  }
  (clock.seats || []).forEach((c, s) => {
    if (!seated || s === mySeat || c.expelled || c.skips < needed) return;
    const voted = (c.expel_votes || []).includes(mySeat);
    box.append(h('button', { class: 'btn btn-danger vote-expel', dataset: { seat: s }, disabled: voted, onclick: () => confirmExpel(page, s) }, voted ? t('gameClock.voted', { name: nameOf(page, s) }) : t('gameClock.voteButton', { name: nameOf(page, s) })));
  });
  if ((clock.log || []).length) {
    box.append(h('ol', { class: 'clock-log' }, clock.log.slice(-5).map((l) => h('li', {}, logLineText(l)))));
  }
  panel.append(box);
}

// The question before skipping: what happens to the late player, and how close a vote is.
async function confirmSkip(page, seat) {
  const clock = page.clock || {};
  const c = (clock.seats || [])[seat] || {};
  const needed = (clock.options || {}).skips_before_expel || 0;
  const name = nameOf(page, seat);
  const ok = await confirmDialog(t('gameClock.skipTitle', { name }), CLOCK_SENTENCES.skipText(name, (c.skips || 0) + 1, needed), { ok: t('gameClock.skipOk'), danger: true });
  if (ok) send(page, 'game.skip_turn', {});
}

// The question before voting: what expulsion means in this game, and whether this vote decides.
async function confirmExpel(page, seat) {
  const clock = page.clock || {};
  const c = (clock.seats || [])[seat] || {};
  const n = (clock.seats || []).length;
  let voters = 0;
  for (let s = 0; s < n; s += 1) if (s !== seat && inGame(page, s)) voters += 1;
  const votes = (c.expel_votes || []).filter((s) => s !== page.mySeat && inGame(page, s)).length;
  const needed = Math.floor(voters / 2) + 1;
  const name = nameOf(page, seat);
  const ok = await confirmDialog(t('gameClock.voteTitle', { name }), `${CLOCK_SENTENCES.consequence(name, (clock.options || {}).expel)} ${CLOCK_SENTENCES.votesNeeded(votes, needed, voters)}`, { ok: t('gameClock.voteOk'), danger: true });
  if (ok) send(page, 'game.vote_expel', { seat });
}

// One seat's time in the players list: the time left while its clock runs (ticking), "over
// time", "on vacation until ...", or the time it has for its next move (the time per move, its
// bank and its vacation days). Nothing for a game without a clock or a computer's seat (it
// decides within its own budget).
export function seatClock(page, seat) {
  const clock = page.clock;
  if (!clock || !clock.options || !clock.seats || !clock.seats[seat]) return null;
  if (computerLevel(page.seats, seat)) return null;
  const c = clock.seats[seat];
  const untilNote = vacationNote(clock, seat);
  if (clock.seat === seat) {
    if (clock.stage === 'overdue') return h('span', { class: 'tag tag-warn seat-clock', dataset: { seat } }, t('clock.overTime'));
    const urgent = clock.stage === 'reminded';
    return [h('span', { class: `tag seat-clock${urgent ? ' tag-warn' : ''}`, dataset: { seat, running: 'true' }, title: t('gameClock.timeLeftTitle') }, t('clock.left', { time: durationText(timeLeft(clock)) })), untilNote];
  }
  const next = clock.options.per_move_seconds * 1000 + (c.bank_ms || 0) + (c.vacation_ms || 0);
  const parts = [t('clock.perMove', { length: durationText(clock.options.per_move_seconds * 1000) })];
  if (c.bank_ms) parts.push(t('clock.ofBank', { time: durationText(c.bank_ms) }));
  if (c.vacation_ms) parts.push(t('clock.ofVacation', { time: durationText(c.vacation_ms) }));
  return [h('span', { class: 'tag seat-clock subtle', dataset: { seat }, title: t('gameClock.nextMoveTitle', { parts: parts.join(' + ') }) }, t('gameClock.nextMove', { time: durationText(next) })), untilNote];
}

// Declaring vacation ahead (game.vacation): a number of whole days from what is left; while it
// lasts one's clock stands still, and it ends early when one plays. (Every game at once: the
// account page.)
function vacationControl(page, clock, seat) {
  const c = clock.seats && clock.seats[seat];
  if (!c) return null;
  if (c.vacation_until && c.vacation_until > (clock.now || 0)) {
    return h('p', { class: 'subtle', id: 'my-vacation' }, t('gameClock.onVacation', { until: localTime(c.vacation_until) }));
  }
  const days = Math.floor((c.vacation_ms || 0) / 86400000);
  if (days < 1 || (clock.seat === seat && clock.stage === 'overdue')) return null;
  const choice = h('select', { id: 'vacation-days', 'aria-label': t('vacation.daysLabel') }, Array.from({ length: days }, (_, i) => h('option', { value: String(i + 1) }, t('length.days', { count: i + 1 }))));
  return h(
    'div',
    { class: 'vacation-form' },
    choice,
    h('button', { class: 'btn', id: 'declare-vacation', onclick: () => send(page, 'game.vacation', { days: Number(choice.value) }) }, t('gameClock.vacationButton', { count: days })),
  );
}

function vacationNote(clock, seat) {
  const until = clock.seats[seat] && clock.seats[seat].vacation_until;
  if (!until || until <= (clock.now || 0)) return null;
  return h('span', { class: 'tag vacation-note', dataset: { seat } }, t('gameClock.vacationNote', { until: localTime(until) }));
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
  if (line) line.textContent = CLOCK_SENTENCES.left(nameOf(page, clock.seat), text);
  const parts = page.root.querySelector('#clock-parts');
  if (parts) parts.textContent = timeLeftPartsText(timeLeftParts(clock));
  const running = page.root.querySelector('.seat-clock[data-running="true"]');
  if (running && running.firstChild) running.firstChild.textContent = t('clock.left', { time: text });
}
