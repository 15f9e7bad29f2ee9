// Standing orders (docs/protocol.md, "Standing orders"): how a player decides ahead when a
// decision falls to him outside his turn and he is not there. The server keeps them and applies
// them; the page only shows the choices it is sent and sends the ones picked. The words here
// are for people; the server's `choices` say which values exist.

import { h } from './util.js';
import { t } from './i18n.js';

export const ORDER_TEXT = {
  casualties: {
    label: t('orders.casualties'),
    help: t('orders.casualtiesHelp'),
    choices: {
      cheapest: t('orders.casualtiesCheapest'),
      keep_artillery: t('orders.casualtiesKeepArtillery'),
      keep_cavalry: t('orders.casualtiesKeepCavalry'),
    },
  },
  enemy_casualties: {
    label: t('orders.enemyCasualties'),
    help: t('orders.enemyCasualtiesHelp'),
    choices: {
      costliest: t('orders.enemyCasualtiesCostliest'),
      artillery_first: t('orders.enemyCasualtiesArtillery'),
      cavalry_first: t('orders.enemyCasualtiesCavalry'),
    },
  },
  retreat: {
    label: t('orders.retreat'),
    help: t('orders.retreatHelp'),
    choices: { when_outnumbered: t('orders.retreatOutnumbered'), never: t('orders.retreatNever') },
  },
  averaging: {
    label: t('rule.luckAveraging'),
    help: t('orders.averagingHelp'),
    choices: { never: t('orders.averagingNever'), always: t('orders.averagingAlways') },
  },
  return_to_stock: {
    label: t('orders.returnToStock'),
    help: t('orders.returnToStockHelp'),
    choices: { reserve_first: t('orders.returnReserveFirst'), map_first: t('orders.returnMapFirst') },
  },
  reinforce: {
    label: t('orders.reinforce'),
    help: t('orders.reinforceHelp'),
    choices: { all: t('orders.reinforceAll'), none: t('orders.reinforceNone') },
  },
  balancing: {
    label: t('rule.explorationBalancing'),
    help: t('orders.balancingHelp'),
    choices: { replace: t('orders.balancingReplace'), keep_water: t('orders.balancingKeepWater') },
  },
};

export function choiceText(order, value) {
  const text = ORDER_TEXT[order];
  return (text && text.choices[value]) || value;
}

// "Decisions wait 1 min for a player who is here" and the like (game.create's
// decision_grace_seconds).
export function graceText(seconds) {
  if (!seconds) return t('orders.graceAlways');
  const time = seconds % 60 === 0 ? t('duration.minutes', { n: seconds / 60 }) : t('duration.seconds', { n: seconds });
  return t('orders.graceWaits', { time });
}

// One select per order, in the order of ORDER_TEXT (then any the page has no words for).
// `values`: the orders now; `inherit` (the game's form): each select also offers "As on my
// account" (value ''), chosen when `own` has no value for the order, and says what that is.
// `onChange(order, value)` is called with the value picked ('' for "as on my account").
export function ordersForm({ idPrefix, choices, values, inherit = null, own = {}, onChange }) {
  const orders = [...Object.keys(ORDER_TEXT).filter((o) => o in choices), ...Object.keys(choices).filter((o) => !(o in ORDER_TEXT))];
  const rows = orders.map((order) => {
    const text = ORDER_TEXT[order] || { label: order, help: '' };
    const id = `${idPrefix}-${order}`;
    const options = choices[order].map((value) => h('option', { value, selected: inherit ? own[order] === value : values[order] === value }, choiceText(order, value)));
    if (inherit) options.unshift(h('option', { value: '', selected: !own[order] }, t('orders.asOnAccount')));
    const select = h('select', { id, name: order, dataset: { order }, onchange: (ev) => onChange(order, ev.target.value) }, options);
    const help = [text.help, inherit ? t('orders.yourAccount', { choice: choiceText(order, inherit[order]) }) : ''].filter(Boolean).join(' ');
    return h('label', { class: 'field order-field', for: id }, h('span', {}, text.label), select, help ? h('span', { class: 'field-help', id: `${id}-help` }, help) : null);
  });
  return h('div', { class: 'orders-form' }, rows);
}
