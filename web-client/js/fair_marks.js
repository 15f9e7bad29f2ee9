// Fair play's marks in lists and pages (docs/fair-play.md): the reveal round a game waits in
// ("Waiting for 2 players to confirm the dice"), the seat of the server's operator, and what
// fair play promises and what it does not, in words for players.

import { h } from './util.js';
import { t, formatDateTime } from './i18n.js';

// "Waiting for 2 players to confirm the dice (until 14 May, 18:05)", or null when the game is
// not in its reveal round (a summary's or game.seats' `reveal`).
export function revealWaitingText(reveal) {
  if (!reveal || typeof reveal !== 'object') return null;
  const waiting = t('fairPlay.waitingConfirm', { count: Number(reveal.waiting) || 0 });
  return typeof reveal.deadline === 'number' ? `${waiting} ${t('fairPlay.confirmUntil', { time: formatDateTime(reveal.deadline) })}` : waiting;
}

export const operatorPlays = (seats) => (seats || []).some((s) => s && s.host === true);

// A tag for a game whose seats include the operator's, or null.
export function operatorTag(seats) {
  return operatorPlays(seats) ? h('span', { class: 'tag tag-operator', title: t('fairPlay.operatorPlays') }, t('fairPlay.operatorSeat')) : null;
}

// What fair play promises and what it does not: the game page's panel and the replay page.
export function promiseParagraphs() {
  return [h('p', { class: 'fair-promise' }, t('fairPlay.promises')), h('p', { class: 'fair-limits subtle' }, t('fairPlay.limits'))];
}
