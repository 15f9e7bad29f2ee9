// The clock's lines (reminders, over time, skipped turns, votes, vacations, a seat taken over
// or taken back: game.clock's `log`) in the game log, each after the game's line of the seq at
// which it was said. Lines without a seq (said while the game could not be opened) go last.

import { logLineText, t } from '../i18n.js';

export function withClockLines(log, clock) {
  const extra = ((clock && clock.log) || []).map((l) => ({ seq: typeof l.seq === 'number' ? l.seq : Infinity, text: t('gameClock.logLine', { text: logLineText(l) }), clock: true }));
  if (!extra.length) return log;
  const out = [];
  let k = 0;
  for (const line of log) {
    while (k < extra.length && extra[k].seq < line.seq) out.push(extra[k++]);
    out.push(line);
  }
  // The game log keeps only its recent lines: clock lines older than them stay out.
  const first = log.length ? log[0].seq : -Infinity;
  return out.concat(extra.slice(k)).filter((l) => !l.clock || l.seq >= first || l.seq === Infinity);
}
