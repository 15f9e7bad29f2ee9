// The game log and the chat beside the map.

import { h, seatStyle, timeAgo, toast } from '../util.js';
import { logLineText, t } from '../i18n.js';
import { chatInviteButton } from './rematch.js';
import { shownName } from '../leaving.js';
import { installChatRead, markChatRead, mutePlayer } from '../chat_mutes.js';
import { withClockLines } from './clock_log.js';

// The hexes a log line names ("Red's Infantry moves from C3 to C4."): its labels that are
// labels of this map.
function hexesOfLine(page, text) {
  const out = [];
  for (const m of text.matchAll(/\b([A-Z]{1,2}\d{1,2})\b/g)) {
    const hex = page.hexByLabel.get(m[1]);
    if (hex !== undefined && !out.includes(hex)) out.push(hex);
  }
  return out;
}

export function renderLog(page) {
  const list = page.els.log;
  // Each line in the reader's language (its `msg`), the clock's lines too.
  const clock = page.clock && page.clock.log ? { ...page.clock, log: page.clock.log.map((l) => ({ ...l, text: logLineText(l) })) } : page.clock;
  const log = withClockLines(page.state.log || [], clock);
  if (!page.hexByLabel || page.hexByLabel.size !== page.view.hexes.length) {
    page.hexByLabel = new Map(page.view.hexes.map((hx) => [hx.label, hx.hex]));
  }
  const wasAtBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  const active = list.getAttribute('aria-activedescendant');
  list.replaceChildren(
    ...log.map((line, i) => {
      // The server names a line's hexes (`hexes`); lines kept from an older server are read.
      const hexes = Array.isArray(line.hexes) ? line.hexes : hexesOfLine(page, line.text);
      // A decision his standing order made for a player who was away (docs/protocol.md): said
      // on the action's first line, the decision itself (the others are what came of it).
      const first = i === 0 || log[i - 1].seq !== line.seq;
      const by = line.by === 'standing_order' && first ? h('span', { class: 'log-by' }, ` ${t('log.standingOrder')}`) : null;
      return h('li', { id: `log-${line.seq}-${i}`, class: `${hexes.length ? 'has-hexes' : ''}${line.clock ? ' log-clock' : ''}`.trim(), dataset: { seq: line.seq, hexes: hexes.join(',') } }, logLineText(line), by);
    }),
  );
  const activeLine = active ? document.getElementById(active) : null;
  if (activeLine) activeLine.classList.add('active');
  else list.removeAttribute('aria-activedescendant');
  if (wasAtBottom || list.dataset.scrolled !== '1') {
    list.scrollTop = list.scrollHeight;
    list.dataset.scrolled = '1';
  }
}

// Pointing at a log line (or going through the log with the arrow keys) outlines the hexes it
// names on the map.
export function installLogHighlight(page) {
  const list = page.els.log;
  list.setAttribute('tabindex', '0');
  list.setAttribute('aria-label', t('log.label'));
  const show = (li) => {
    const hexes = li && li.dataset.hexes ? li.dataset.hexes.split(',').map(Number) : [];
    page.board.setFlash(hexes);
  };
  const setActive = (li) => {
    for (const el of list.querySelectorAll('li.active')) el.classList.remove('active');
    if (!li) {
      list.removeAttribute('aria-activedescendant');
      show(null);
      return;
    }
    li.classList.add('active');
    list.setAttribute('aria-activedescendant', li.id);
    li.scrollIntoView({ block: 'nearest' });
    show(li);
  };
  list.addEventListener('pointerover', (e) => {
    const li = e.target.closest('li');
    if (li) show(li);
  });
  list.addEventListener('pointerleave', () => {
    const active = list.querySelector('li.active');
    show(document.activeElement === list ? active : null);
  });
  list.addEventListener('click', (e) => {
    const li = e.target.closest('li');
    if (li) setActive(li);
  });
  list.addEventListener('keydown', (e) => {
    const items = [...list.children];
    if (!items.length) return;
    const current = list.querySelector('li.active');
    let index = current ? items.indexOf(current) : items.length;
    if (e.key === 'ArrowUp') index = Math.max(0, index - 1);
    else if (e.key === 'ArrowDown') index = Math.min(items.length - 1, index + 1);
    else if (e.key === 'Home') index = 0;
    else if (e.key === 'End') index = items.length - 1;
    else if (e.key === 'Escape') return setActive(null);
    else return;
    e.preventDefault();
    setActive(items[index]);
  });
  list.addEventListener('focusout', () => setActive(null));
}

export function renderChat(page) {
  const list = page.els.chatList;
  const chat = page.channel.chat || [];
  // Players chat among themselves; spectators read that and have a chat of their own, which
  // the players never see (a spectator could otherwise pass on tips).
  const spectator = page.seatFromSeats() === null;
  page.els.chatTitle.textContent = spectator ? t('log.chatSpectators') : t('log.chat');
  page.els.chatInput.placeholder = spectator ? t('log.saySpectators') : t('log.say');
  list.replaceChildren(
    ...chat.map((m) =>
      h(
        'li',
        { class: m.channel === 'spectators' ? 'chat-spectator' : null },
        m.from_seat !== null && m.from_seat !== undefined ? h('span', { class: 'swatch', style: `background:${seatStyle(m.from_seat).fill};border-color:${seatStyle(m.from_seat).edge}` }) : null,
        chatName(page, m),
        m.channel === 'spectators' ? h('span', { class: 'subtle' }, ' (spectator)') : null,
        ': ',
        h('span', { class: m.deleted ? 'chat-text subtle' : 'chat-text' }, m.deleted ? t('leaving.lineDeleted') : m.text),
        m.channel === 'players' ? chatInviteButton(m.text) : null,
        h('span', { class: 'subtle chat-time' }, ` ${timeAgo(m.at)}`),
      ),
    ),
  );
  list.scrollTop = list.scrollHeight;
  installChatRead(page);
  markChatRead(page);
}

// The author's name; another player's is a button that opens a small menu: "Mute <name>"
// (the menu is the confirmation: two clicks, and the account page can undo it).
function chatName(page, m) {
  const me = page.ctx.session ? String(page.ctx.session.player_id) : null;
  if (!m.from_player || !me || m.from_player === me) return h('b', {}, shownName(m, 'spectator'));
  const menu = h('span', { class: 'chat-menu', hidden: true });
  const mute = h('button', { type: 'button', class: 'btn btn-small chat-mute' }, t('chat.mute', { name: shownName(m) }));
  mute.addEventListener('click', async () => {
    try {
      await mutePlayer(page, m.from_player);
      toast(t('chat.muted', { name: shownName(m) }));
      renderChat(page);
    } catch (err) {
      toast(err.message);
    }
  });
  menu.append(' ', mute, ' ');
  const name = h('button', { type: 'button', class: 'chat-name', 'aria-haspopup': 'true', title: t('chat.nameMenu', { name: shownName(m) }) }, shownName(m));
  name.addEventListener('click', () => {
    menu.hidden = !menu.hidden;
    name.setAttribute('aria-expanded', String(!menu.hidden));
  });
  return h('span', {}, name, menu);
}
