// Leaving (docs/protocol.md, "Leaving"): a player downloads his data and deletes his account
// (a section of the account page), and everywhere a name is shown, a player who deleted his
// account (`"former": true`, no name) is "a former player".

import { clearSession } from './net.js';
import { h, toast } from './util.js';
import { t } from './i18n.js';
import { serverErrorText } from './errors.js';

// The name to show for a seat, a creator or a chat line: "a former player" for one who left.
export function shownName(entry, fallback = '') {
  if (entry && entry.former) return t('leaving.formerPlayer');
  return (entry && entry.name) || fallback;
}

async function leavingFetch(path, token, init = {}) {
  const response = await fetch(path, { ...init, cache: 'no-store', headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${token}` } });
  if (!response.ok) {
    let err = {};
    try {
      err = (await response.json()).error || {};
    } catch {
      err = {};
    }
    throw new Error(err.code ? serverErrorText(err.code, err.message) : t('net.requestFailed', { status: response.status }));
  }
  return response;
}

// The account page's section: "Download my data" and "Delete my account" (typed name).
export function leavingSection(ctx) {
  const token = ctx.session.token;
  const error = h('p', { class: 'form-error', role: 'alert', id: 'leaving-error' });
  const download = async () => {
    error.textContent = '';
    try {
      const response = await leavingFetch('/api/account/export', token);
      const blob = await response.blob();
      const link = h('a', { href: URL.createObjectURL(blob), download: `viktory-account-${ctx.session.player_id}.json` });
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const confirmInput = h('input', { type: 'text', id: 'delete-confirm', autocomplete: 'off', maxlength: 64, 'aria-label': t('leaving.typeName') });
  const remove = async (ev) => {
    ev.preventDefault();
    error.textContent = '';
    try {
      await leavingFetch('/api/account/delete', token, { method: 'POST', body: JSON.stringify({ confirm: confirmInput.value }) });
    } catch (err) {
      error.textContent = err.message;
      return;
    }
    clearSession();
    toast(t('leaving.deleted'));
    window.location.hash = '#/';
    window.location.reload();
  };
  return h(
    'section',
    { id: 'leaving' },
    h('h3', {}, t('leaving.title')),
    h('p', {}, t('leaving.downloadHelp')),
    h('button', { type: 'button', class: 'btn', id: 'download-data', onclick: download }, t('leaving.download')),
    h('p', {}, t('leaving.deleteHelp')),
    h('form', { class: 'invite-row', id: 'delete-account-form', onsubmit: remove }, h('label', { for: 'delete-confirm' }, t('leaving.typeName')), confirmInput, h('button', { type: 'submit', class: 'btn btn-danger', id: 'delete-account' }, t('leaving.delete'))),
    error,
  );
}
