// The clock box of the game page: whose clock runs and the time left, "over time", skipped
// turns, the buttons to skip a late player's turn and to vote to expel him, and the clock's
// lines of the game log.

import { durationText, timeLeft } from '../clock_options.js';
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
  } else {
    box.append(h('p', { class: 'clock-line subtle' }, 'Clock stopped'));
  }
  const seated = mySeat !== null && mySeat !== undefined;
  if (seated && clock.may_skip && seat !== mySeat) {
    box.append(h('button', { class: 'btn', id: 'skip-turn', onclick: () => send(page, 'game.skip_turn', {}) }, `Skip ${seatStyle(seat).name}'s turn`));
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

async function send(page, type, fields) {
  try {
    await page.ctx.conn.request(type, { game_id: page.gameId, ...fields });
  } catch (err) {
    toast(err.message || err.code, 'error');
  }
}

// Refreshes the time left once a second without redrawing the page.
export function tickClock(page) {
  const line = page.root.querySelector('#clock-left');
  const clock = page.clock;
  if (!line || !clock || clock.stage === 'overdue' || clock.seat === null || clock.seat === undefined) return;
  line.textContent = `${seatStyle(clock.seat).name}: ${durationText(timeLeft(clock))} left`;
}
