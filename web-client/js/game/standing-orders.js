// The Standing orders panel beside the map: this game's orders of the player's seat (each one
// as on his account, or this game's own), and how long the game waits for him while he is
// here (its grace period). Asked of the server (game.standing_orders) once the page knows the
// player holds a seat; only his own orders ever come back.

import { fillIn, h } from '../util.js';
import { t } from '../i18n.js';
import { ordersForm, graceText } from '../standing_orders.js';

export function buildStandingOrdersPanel(page) {
  const body = h('div', { class: 'standing-orders-body' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const panel = h('details', { class: 'panel standing-orders-panel', id: 'standing-orders', hidden: true }, h('summary', {}, t('orders.title')), body, error);
  let asked = false;

  const render = (reply) => {
    page.standingOrders = reply;
    panel.hidden = false;
    const finished = page.view && page.view.phase === 'game_over';
    body.replaceChildren(
      h('p', { class: 'subtle' }, `${t('standingOrders.about')} `, h('span', { id: 'decision-grace' }, graceText(reply.decision_grace_seconds))),
      ordersForm({
        idPrefix: 'game-standing',
        choices: reply.choices,
        values: reply.orders,
        inherit: reply.account_orders,
        own: reply.game_orders,
        onChange: (order, value) => ask({ orders: { [order]: value || null } }),
      }),
      h('p', { class: 'subtle' }, fillIn(t('standingOrders.defaults'), { link: h('a', { href: '#/account' }, t('standingOrders.accountPage')) })),
    );
    for (const select of body.querySelectorAll('select')) select.disabled = finished;
  };

  const ask = async (extra = {}) => {
    error.textContent = '';
    try {
      const { seen } = await page.ctx.conn.request('game.standing_orders', { game_id: page.gameId, ...extra });
      const reply = seen.filter((m) => m.type === 'game.standing_orders' && m.game_id === page.gameId).pop();
      if (reply) render(reply);
    } catch (err) {
      if (err.code === 'not_seated') {
        panel.hidden = true;
        return;
      }
      asked = false; // offline or timed out: asked again on the next render
      error.textContent = err.message;
    }
  };

  // Called on every render: asks once the page knows its seat.
  panel.update = () => {
    if (asked || page.mySeat === null || page.mySeat === undefined) return;
    asked = true;
    ask();
  };
  return panel;
}
