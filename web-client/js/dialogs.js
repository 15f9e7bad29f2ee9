// Dialogs: modal confirmations and the non-modal "decision card" that asks a player for a
// choice the rules give him (casualties, retreat, eliminations) while the map stays visible.

import { h } from './util.js';
import { t } from './i18n.js';

// A modal dialog. buttons: [{label, value, kind: 'primary'|'danger'|'plain'}].
// Resolves with the value of the button pressed, or null when dismissed (Esc / close).
export function modal({ title, body = [], buttons = [{ label: 'OK', value: true, kind: 'primary' }], className = '' }) {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: `modal ${className}`, 'aria-label': title });
    const opener = document.activeElement;
    const done = (value) => {
      window.removeEventListener('hashchange', leave);
      if (dialog.open) dialog.close();
      dialog.remove();
      giveFocusBack(opener);
      resolve(value);
    };
    // Back, or any other way to another page: the question belonged to the page left behind.
    const leave = () => done(null);
    window.addEventListener('hashchange', leave);
    const footer = h(
      'div',
      { class: 'modal-buttons' },
      buttons.map((b) =>
        h('button', { type: 'button', class: `btn btn-${b.kind || 'plain'}`, onclick: () => done(b.value) }, b.label),
      ),
    );
    dialog.append(h('h2', { class: 'modal-title' }, title), h('div', { class: 'modal-body' }, body), footer);
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      done(null);
    });
    document.body.append(dialog);
    dialog.showModal();
    const primary = footer.querySelector('.btn-primary') || footer.querySelector('button');
    if (primary) primary.focus();
  });
}

// A closed dialog hands the focus back to what had it before (a map hex, a button), so a
// keyboard player goes on where he was.
function giveFocusBack(opener) {
  if (opener && opener.isConnected && typeof opener.focus === 'function' && opener !== document.body) {
    opener.focus({ preventScroll: true });
  }
}

export async function confirmDialog(title, text, { ok = t('dialog.ok'), cancel = t('dialog.cancel'), danger = false } = {}) {
  const value = await modal({
    title,
    body: [h('p', {}, text)],
    buttons: [
      { label: cancel, value: false, kind: 'plain' },
      { label: ok, value: true, kind: danger ? 'danger' : 'primary' },
    ],
  });
  return value === true;
}

// A list of choices; options: [{label, detail?, value}]. Resolves with a value or null.
export function choiceDialog(title, text, options) {
  return new Promise((resolve) => {
    const dialog = h('dialog', { class: 'modal choice', 'aria-label': title });
    const opener = document.activeElement;
    const done = (value) => {
      window.removeEventListener('hashchange', leave);
      if (dialog.open) dialog.close();
      dialog.remove();
      giveFocusBack(opener);
      resolve(value);
    };
    const leave = () => done(null);
    window.addEventListener('hashchange', leave);
    const list = h(
      'div',
      { class: 'choice-list' },
      options.map((o) =>
        h(
          'button',
          { type: 'button', class: 'btn btn-choice', onclick: () => done(o.value) },
          h('span', { class: 'choice-label' }, o.label),
          o.detail ? h('span', { class: 'choice-detail' }, o.detail) : null,
        ),
      ),
    );
    // Element.append would write a null as the text "null": optional parts go through h().
    dialog.append(
      h('h2', { class: 'modal-title' }, title),
      h('div', { class: 'modal-body' }, text ? h('p', {}, text) : null),
      list,
      h('div', { class: 'modal-buttons' }, h('button', { type: 'button', class: 'btn btn-plain', onclick: () => done(null) }, t('dialog.cancel'))),
    );
    dialog.addEventListener('cancel', (e) => {
      e.preventDefault();
      done(null);
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}

// The decision card: a non-modal panel over the map. The game page re-renders it on every
// state; it stays until the decision is made (the state no longer asks for it).
//   spec: {key, title, lines: [Node|string], groups: [{heading?, options: [{label, detail?,
//          onClick, onHover?, kind?}]}], minimizable}
export class DecisionCard {
  constructor(host) {
    this.host = host;
    this.node = null;
    this.key = null;
    this.minimized = false;
  }

  show(spec) {
    if (spec.key !== this.key) this.minimized = false;
    this.key = spec.key;
    const card = h('section', {
      class: `decision-card${this.minimized ? ' minimized' : ''}`,
      role: 'dialog',
      'aria-label': spec.title,
      dataset: { decision: spec.kind || '' },
    });
    const header = h(
      'header',
      {},
      h('h2', {}, spec.title),
      h(
        'button',
        {
          type: 'button',
          class: 'btn btn-small btn-plain',
          title: this.minimized ? t('dialog.showChoicesTitle') : t('dialog.hideChoicesTitle'),
          onclick: () => {
            this.minimized = !this.minimized;
            this.show(spec);
          },
        },
        this.minimized ? t('dialog.show') : t('dialog.hide'),
      ),
    );
    card.append(header);
    if (!this.minimized) {
      card.append(h('div', { class: 'decision-lines' }, (spec.lines || []).map((l) => (l instanceof Node ? l : h('p', {}, l)))));
      for (const group of spec.groups || []) {
        card.append(
          h(
            'div',
            { class: 'decision-group' },
            group.heading ? h('h3', {}, group.heading) : null,
            h(
              'div',
              { class: 'decision-options' },
              group.options.map((o) =>
                h(
                  'button',
                  {
                    type: 'button',
                    class: `btn btn-${o.kind || 'choice'}`,
                    onclick: o.onClick,
                    onmouseenter: o.onHover ? () => o.onHover(true) : undefined,
                    onmouseleave: o.onHover ? () => o.onHover(false) : undefined,
                    onfocus: o.onHover ? () => o.onHover(true) : undefined,
                    onblur: o.onHover ? () => o.onHover(false) : undefined,
                    dataset: { focusKey: `choice:${o.label}`, ...(o.data || {}) },
                  },
                  h('span', { class: 'choice-label' }, o.label),
                  o.detail ? h('span', { class: 'choice-detail' }, o.detail) : null,
                ),
              ),
            ),
          ),
        );
      }
    }
    if (this.node) this.node.replaceWith(card);
    else this.host.append(card);
    this.node = card;
  }

  hide() {
    if (this.node) this.node.remove();
    this.node = null;
    this.key = null;
  }
}
