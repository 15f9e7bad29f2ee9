// The game log and the chat beside the map.

import { h, seatStyle, timeAgo } from '../util.js';

export function renderLog(page) {
  const list = page.els.log;
  const log = page.state.log || [];
  const wasAtBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 30;
  list.replaceChildren(...log.map((line) => h('li', { dataset: { seq: line.seq } }, line.text)));
  if (wasAtBottom || list.dataset.scrolled !== '1') {
    list.scrollTop = list.scrollHeight;
    list.dataset.scrolled = '1';
  }
}

export function renderChat(page) {
  const list = page.els.chatList;
  const chat = page.channel.chat || [];
  list.replaceChildren(
    ...chat.map((m) =>
      h(
        'li',
        {},
        m.from_seat !== null && m.from_seat !== undefined ? h('span', { class: 'swatch', style: `background:${seatStyle(m.from_seat).fill};border-color:${seatStyle(m.from_seat).edge}` }) : null,
        h('b', {}, m.name || 'spectator'),
        ': ',
        h('span', { class: 'chat-text' }, m.text),
        h('span', { class: 'subtle chat-time' }, ` ${timeAgo(m.at)}`),
      ),
    ),
  );
  list.scrollTop = list.scrollHeight;
}
