// Standing orders (docs/protocol.md, "Standing orders"): how a player decides ahead when a
// decision falls to him outside his turn and he is not there. The server keeps them and applies
// them; the page only shows the choices it is sent and sends the ones picked. The words here
// are for people; the server's `choices` say which values exist.

import { h } from './util.js';

export const ORDER_TEXT = {
  casualties: {
    label: 'Your losses',
    help: 'A hit of your choice on your units (a 2 or 3 against you) [10.1].',
    choices: {
      cheapest: 'Cheapest first (one of several of a kind before the last; Infantry first)',
      keep_artillery: 'Keep Artillery for last',
      keep_cavalry: 'Keep Cavalry for last',
    },
  },
  enemy_casualties: {
    label: 'Your 1s',
    help: 'You pick the enemy unit each 1 you roll kills, also when defending [10.1].',
    choices: {
      costliest: 'The loss that costs him most',
      artillery_first: 'Artillery first',
      cavalry_first: 'Cavalry first',
    },
  },
  retreat: {
    label: 'Retreat',
    help: 'As the attacker, after an exchange of fire [12.3].',
    choices: { when_outnumbered: 'When outnumbered', never: 'Never' },
  },
  averaging: {
    label: 'Luck Averaging',
    help: 'Pairs of dice not rolled, each one hit of the opponent’s choice [15.4].',
    choices: { never: 'Never: roll every die', always: 'Always: every pair allowed' },
  },
  return_to_stock: {
    label: 'Units lost with a Town',
    help: 'Returned to stock after losing a Town or City [10.2].',
    choices: { reserve_first: 'From the Reserve first', map_first: 'From the map first (farthest from the enemy)' },
  },
  reinforce: {
    label: 'As a new Vassal',
    help: 'Reinforcing your returned Capital [15.62].',
    choices: { all: 'With every Reserve unit', none: 'Not at all' },
  },
  balancing: {
    label: 'Exploration Balancing',
    help: 'Two or more water tiles turned up at once [15.3].',
    choices: { replace: 'Put the land tile on the water', keep_water: 'Keep the water' },
  },
};

export function choiceText(order, value) {
  const text = ORDER_TEXT[order];
  return (text && text.choices[value]) || value;
}

// "Decisions wait 1 min for a player who is here" and the like (game.create's
// decision_grace_seconds).
export function graceText(seconds) {
  if (!seconds) return 'This game always waits for you while you have it open.';
  const time = seconds % 60 === 0 ? `${seconds / 60} min` : `${seconds} s`;
  return `While you have the game open, it waits ${time} for your answer, then your order decides.`;
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
    if (inherit) options.unshift(h('option', { value: '', selected: !own[order] }, 'As on my account'));
    const select = h('select', { id, name: order, dataset: { order }, onchange: (ev) => onChange(order, ev.target.value) }, options);
    const help = [text.help, inherit ? `Your account: ${choiceText(order, inherit[order])}.` : ''].filter(Boolean).join(' ');
    return h('label', { class: 'field order-field', for: id }, h('span', {}, text.label), select, help ? h('span', { class: 'field-help', id: `${id}-help` }, help) : null);
  });
  return h('div', { class: 'orders-form' }, rows);
}
