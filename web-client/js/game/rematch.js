// A rematch at game over: a new private game with the same number of seats, the same options,
// the same spectator setting, the same computer seats (with their levels) and the same clock;
// its invitation link goes into this game's chat, where the other players' pages show it as a
// button. (The server keeps only the invitation's hash, so
// the link travels the way players would pass it on themselves.)

import { h, toast } from '../util.js';
import { t } from '../i18n.js';
import { saveInvite } from '../invites.js';

const JOIN_LINK = /#\/join\/(\d+)\/([A-Za-z0-9]{8,128})\b/;

export async function rematch(page) {
  const opts = page.view.options || {};
  const payload = { ...opts, seats: opts.players || page.view.players.length, private: true };
  delete payload.players;
  if (page.seats && page.seats.spectators) payload.spectators = page.seats.spectators;
  if (payload.spectators === 'delayed') payload.spectator_delay = page.seats.spectator_delay || 2;
  Object.assign(payload, rematchSeatsAndClock(page));
  try {
    const { seen } = await page.ctx.conn.request('game.create', payload);
    const created = seen.filter((m) => m.type === 'game.created').pop();
    if (!created) throw new Error(t('rematch.noGame'));
    saveInvite(created.game_id, created.invite);
    const link = `${location.origin}${location.pathname}#/join/${created.game_id}/${created.invite}`;
    await page.channel.sendChat(t('rematch.chat', { id: created.game_id, link }));
    location.hash = `#/game/${created.game_id}`;
  } catch (err) {
    toast(err.message || String(err), 'error');
  }
}

// The computer seats chosen at creation keep their seat and level (a seat a computer took over
// from an expelled player is a person's again), the creator keeps his seat, and the clock its
// options (and the game its grace period).
export function rematchSeatsAndClock(page) {
  const out = {};
  const seats = (page.seats && page.seats.seats) || [];
  const clockSeats = (page.clock && page.clock.seats) || [];
  const takenOver = (seat) => !!(clockSeats[seat] && clockSeats[seat].expelled);
  const computers = seats.filter((x) => x.computer && !takenOver(x.seat)).map((x) => ({ seat: x.seat, level: x.computer }));
  if (computers.length) out.computers = computers;
  if (page.mySeat !== null && page.mySeat !== undefined) out.seat = page.mySeat;
  if (page.clock && page.clock.options && page.clock.options.per_move_seconds) out.clock = { ...page.clock.options };
  // The grace period for decisions out of turn (known from this seat's standing orders).
  if (page.standingOrders && Number.isInteger(page.standingOrders.decision_grace_seconds)) {
    out.decision_grace_seconds = page.standingOrders.decision_grace_seconds;
  }
  return out;
}

export function rematchButton(page, className = 'btn') {
  if (page.mySeat === null || page.view.phase !== 'game_over') return null;
  return h('button', { type: 'button', class: className, id: 'rematch', onclick: () => rematch(page) }, t('rematch.button'));
}

// An invitation link of this site in a chat line becomes a button next to it.
export function chatInviteButton(text) {
  const m = JOIN_LINK.exec(text || '');
  if (!m) return null;
  return h('a', { class: 'btn btn-small btn-primary chat-join', href: `#/join/${m[1]}/${m[2]}`, dataset: { joinGame: m[1] } }, t('rematch.join', { id: m[1] }));
}
