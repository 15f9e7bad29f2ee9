// A player's identity across devices (docs/protocol.md, "Accounts"): the account page
// (#/account) makes sign-in links and recovery codes, adds an e-mail address and signs other
// devices out; #/signin/<code> redeems a link on another device; #/verify-email/<code>
// confirms an address; the welcome page takes a recovery code or sends a link by e-mail.

import { api, ApiError, saveSession, clearSession } from './net.js';
import { h, toast } from './util.js';
import { formatDate, formatDateTime, t, LANG } from './i18n.js';
import { serverErrorText } from './errors.js';
import { languageSwitch } from './language_switch.js';
import { modal } from './dialogs.js';
import { pushSupported, enablePush, disablePush, currentSubscription, notifyApi } from './push.js';
import { ordersForm } from './standing_orders.js';
import { leavingSection } from './leaving.js';
import { mutedPlayersSection } from './chat_mutes.js';

async function accountFetch(path, { method = 'GET', body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network', t('net.unreachable'));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(response.status, err.code || `http_${response.status}`, err.code ? serverErrorText(err.code, err.message) : err.message || t('net.requestFailed', { status: response.status }));
  }
  return data;
}

export const accountApi = {
  get: (token) => accountFetch('/api/account', { token }),
  signInLink: (token) => accountFetch('/api/account/sign-in-link', { method: 'POST', token, body: {} }),
  recoveryCode: (token) => accountFetch('/api/account/recovery-code', { method: 'POST', token, body: {} }),
  signOutOthers: (token) => accountFetch('/api/account/sign-out-others', { method: 'POST', token, body: {} }),
  setEmail: (token, address) => accountFetch('/api/account/email', { method: 'POST', token, body: { address } }),
  verifyEmail: (code) => accountFetch('/api/account/email/verify', { method: 'POST', body: { code } }),
  redeem: (code) => accountFetch('/api/session/redeem', { method: 'POST', body: { code } }),
  mailLink: (address) => accountFetch('/api/session/email-link', { method: 'POST', body: { address, language: LANG } }),
  standingOrders: (token) => accountFetch('/api/account/standing-orders', { token }),
  setStandingOrders: (token, orders) => accountFetch('/api/account/standing-orders', { method: 'PUT', token, body: { orders } }),
};

// The link the server gives, or one made from this page's address when the server has no
// public URL configured.
function signInUrl(reply) {
  return reply.url || `${location.origin}${location.pathname}#/signin/${reply.code}`;
}

// A recovery code or a whole sign-in link, as pasted: the code in it.
export function codeFromInput(text) {
  const trimmed = text.trim();
  const m = trimmed.match(/#\/signin\/([0-9a-fA-F]{32})/);
  return m ? m[1] : trimmed;
}

function copyButton(text, label = t('account.copy')) {
  return h(
    'button',
    {
      type: 'button',
      class: 'btn btn-small',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(text);
          toast(t('account.copied'));
        } catch {
          toast(t('account.copyByHand'), 'error');
        }
      },
    },
    label,
  );
}

// Makes a sign-in link and shows it (the account page and the "switch" dialog).
export async function showSignInLink(ctx, box) {
  const reply = await accountApi.signInLink(ctx.session.token);
  const url = signInUrl(reply);
  const hours = Math.round((reply.expires - Date.now()) / 3600000);
  box.replaceChildren(
    h('p', {}, t('account.signInLinkHelp', { count: hours })),
    h('div', { class: 'invite-row' }, h('input', { type: 'text', id: 'sign-in-link', readonly: true, value: url, onfocus: (e) => e.target.select() }), copyButton(url)),
  );
  return url;
}

// #/account
export function mountAccount(root, ctx) {
  const token = ctx.session.token;
  const linkBox = h('div', { id: 'sign-in-link-box' });
  const codeBox = h('div', { id: 'recovery-code-box' });
  const emailBox = h('div', { id: 'email-box' });
  const facts = h('p', { class: 'subtle', id: 'account-facts' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const guard = (fn) => async () => {
    error.textContent = '';
    try {
      await fn();
    } catch (err) {
      error.textContent = err.message;
    }
  };

  const renderEmail = (account) => {
    if (!account.email_available && !account.email) {
      emailBox.replaceChildren(h('p', { class: 'subtle' }, t('account.noEmail')));
      return;
    }
    const input = h('input', { type: 'email', id: 'email-address', maxlength: 254, placeholder: 'you@example.org', value: account.email ? account.email.address : '' });
    const state = account.email
      ? h('p', { id: 'email-state' }, account.email.verified ? t('account.emailConfirmed', { address: account.email.address }) : t('account.emailSent', { address: account.email.address }))
      : h('p', { id: 'email-state' }, t('account.emailOptional'));
    emailBox.replaceChildren(
      state,
      h(
        'form',
        {
          class: 'invite-row',
          onsubmit: (ev) => {
            ev.preventDefault();
            guard(async () => {
              const reply = await accountApi.setEmail(token, input.value.trim() || null);
              toast(reply.sent ? t('account.confirmationOnItsWay') : t('account.saved'));
              renderEmail(reply);
            })();
          },
        },
        input,
        h('button', { type: 'submit', class: 'btn', id: 'email-save' }, t('account.save')),
      ),
    );
  };

  const refresh = guard(async () => {
    const account = await accountApi.get(token);
    const signedIn = t('account.signedInOn', { name: account.name, count: account.devices });
    const code = account.recovery_code_created ? t('account.recoveryCodeMade', { date: formatDate(account.recovery_code_created) }) : t('account.noRecoveryCode');
    facts.textContent = `${signedIn} ${code}`;
    renderEmail(account);
  });

  root.replaceChildren(
    h(
      'section',
      { class: 'account-page' },
      h(
        'section',
        { class: 'card' },
        h('h1', { class: 'visually-hidden' }, t('title.account')),
        h('h2', {}, t('title.account')),
        facts,
        error,
        h('h3', {}, t('account.anotherDevice')),
        h('p', {}, t('account.anotherDeviceHelp')),
        h('button', { type: 'button', class: 'btn btn-primary', id: 'make-sign-in-link', onclick: guard(() => showSignInLink(ctx, linkBox).then(refresh)) }, t('account.makeSignInLink')),
        linkBox,
        h('h3', {}, t('account.recoveryCode')),
        h('p', {}, t('account.recoveryCodeHelp')),
        h(
          'button',
          {
            type: 'button',
            class: 'btn',
            id: 'make-recovery-code',
            onclick: guard(async () => {
              const reply = await accountApi.recoveryCode(token);
              codeBox.replaceChildren(h('p', {}, t('account.recoveryCodeShown')), h('div', { class: 'invite-row' }, h('code', { id: 'recovery-code', class: 'recovery-code' }, reply.code), copyButton(reply.code)));
              refresh();
            }),
          },
          t('account.makeRecoveryCode'),
        ),
        codeBox,
        h('h3', {}, t('account.email')),
        emailBox,
        privacySection(ctx, error),
        notificationsSection(ctx, error),
        standingOrdersSection(ctx, error),
        mutedPlayersSection(ctx, error),
        vacationSection(ctx),
        leavingSection(ctx),
        h('h3', {}, t('language.heading')),
        languageSwitch({ labelled: false }),
        h('h3', {}, t('account.signOutOthers')),
        h('p', {}, t('account.signOutOthersHelp')),
        h(
          'button',
          {
            type: 'button',
            class: 'btn btn-danger',
            id: 'sign-out-others',
            onclick: guard(async () => {
              const reply = await accountApi.signOutOthers(token);
              const session = { ...ctx.session, token: reply.token };
              saveSession(session);
              ctx.setSession(session);
              toast(reply.recovery_code_revoked ? t('account.signedOutOthersAndCode') : t('account.signedOutOthers'));
            }),
          },
          t('account.signOutOthers'),
        ),
      ),
    ),
  );
  refresh();
  return { destroy() {} };
}

// Who may see this player's profile (docs/server.md, "Players' records"): the value the server
// holds, saved as soon as it is changed.
function privacySection(ctx, error) {
  const token = ctx.session.token;
  const select = h(
    'select',
    { id: 'privacy-visible-to', disabled: true },
    [
      ['everyone', t('privacy.everyone')],
      ['opponents', t('privacy.opponents')],
      ['nobody', t('privacy.nobody')],
    ].map(([v, text]) => h('option', { value: v }, text)),
  );
  select.addEventListener('change', async () => {
    error.textContent = '';
    select.disabled = true;
    try {
      const reply = await api.setPrivacy(token, select.value);
      select.value = reply.visible_to;
      toast(t('account.saved'));
    } catch (err) {
      error.textContent = err.message;
    } finally {
      select.disabled = false;
    }
  });
  api.privacy(token).then(
    (reply) => {
      select.value = reply.visible_to;
      select.disabled = false;
    },
    (err) => {
      error.textContent = err.message;
    },
  );
  return h(
    'section',
    { id: 'privacy' },
    h('h3', {}, t('privacy.title')),
    h('p', {}, t('privacy.about'), ' ', ctx.session.player_id ? h('a', { href: `#/player/${encodeURIComponent(ctx.session.player_id)}`, id: 'privacy-own-profile' }, t('privacy.ownProfile')) : null),
    h('label', { class: 'field', for: 'privacy-visible-to' }, h('span', {}, t('privacy.label')), select),
  );
}

// "Vacation": declared in every running game with a clock at once (games.vacation); each game
// takes it from its own vacation days, and says so to its players.
const VACATION_TEXT = {
  title: t('vacation.title'),
  about: t('vacation.about'),
  days: (n) => t('length.days', { count: n }),
  button: t('vacation.button'),
  none: t('vacation.none'),
  until: (id, ms) => t('vacation.until', { id, time: formatDateTime(ms) }),
  refused: (id, message) => t('vacation.refused', { id, message }),
};

function vacationSection(ctx) {
  const days = h('select', { id: 'vacation-all-days', 'aria-label': t('vacation.daysLabel') }, [1, 2, 3, 5, 7, 14].map((n) => h('option', { value: String(n) }, VACATION_TEXT.days(n))));
  const result = h('ul', { class: 'vacation-results', id: 'vacation-results', 'aria-live': 'polite' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const go = async () => {
    error.textContent = '';
    try {
      const { seen } = await ctx.conn.request('games.vacation', { days: Number(days.value) });
      const reply = seen.find((m) => m.type === 'games.vacation');
      const games = reply ? reply.games : [];
      result.replaceChildren(...(games.length ? games.map((g) => h('li', { class: g.until ? 'vacation-ok' : 'vacation-refused', dataset: { gameId: g.game_id } }, g.until ? VACATION_TEXT.until(g.game_id, g.until) : VACATION_TEXT.refused(g.game_id, serverErrorText(g.code, g.message)))) : [h('li', { class: 'subtle' }, VACATION_TEXT.none)]));
    } catch (err) {
      error.textContent = err.message || String(err);
    }
  };
  return h(
    'section',
    { id: 'vacation-all' },
    h('h3', {}, VACATION_TEXT.title),
    h('p', {}, VACATION_TEXT.about),
    h('div', { class: 'invite-row vacation-row' }, days, h('button', { type: 'button', class: 'btn', id: 'vacation-all-go', onclick: go }, VACATION_TEXT.button)),
    error,
    result,
  );
}

// "Turn notifications": push on this device, e-mail, muted games, a game's webhook.
function notificationsSection(ctx, error) {
  const token = ctx.session.token;
  const box = h('section', { id: 'notifications' }, h('h3', {}, t('notify.title')));
  const guard = (fn) => async (...args) => {
    error.textContent = '';
    try {
      await fn(...args);
    } catch (err) {
      error.textContent = err.message;
    }
  };
  const render = async () => {
    const [settings, subscription, mine] = await Promise.all([
      notifyApi.settings(token),
      currentSubscription().catch(() => null),
      fetch('/api/my-games', { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.json()).then((j) => j.games || []),
    ]);
    const pushRow = h('p', { id: 'push-state' });
    if (!pushSupported()) {
      pushRow.textContent = t('notify.pushUnsupported');
    } else {
      pushRow.append(
        subscription ? t('notify.pushOn') : t('notify.pushOff'),
        ' ',
        h('button', { type: 'button', class: 'btn btn-small', id: 'push-toggle', onclick: guard(async () => {
          if (subscription) await disablePush(token);
          else await enablePush(token);
          await render();
        }) }, subscription ? t('notify.turnOff') : t('notify.turnOn')),
      );
    }
    const check = (id, label, checked, disabled, onchange) =>
      h('label', { class: 'check', for: id }, h('input', { type: 'checkbox', id, checked, disabled, onchange: guard(onchange) }), h('span', {}, label));
    const games = mine.filter((g) => g.status === 'running' || g.status === 'open');
    const me = ctx.session.player_id;
    const rows = games.map((g) => {
      const muted = settings.muted.includes(g.game_id);
      const row = h('li', { class: 'notify-game' },
        check(`mute-${g.game_id}`, t('notify.mute', { id: g.game_id }), muted, false, async (e) => {
          await notifyApi.mute(token, g.game_id, e.target.checked);
          toast(e.target.checked ? t('notify.muted', { id: g.game_id }) : t('notify.unmuted', { id: g.game_id }));
        }));
      if (g.creator && g.creator.player_id === me) {
        const url = h('input', { type: 'url', class: 'webhook-url', placeholder: 'https://discord.com/api/webhooks/…', 'aria-label': t('notify.webhookFor', { id: g.game_id }) });
        const format = h('select', { class: 'webhook-format', 'aria-label': t('notify.format') }, [['discord', 'Discord'], ['slack', t('notify.formatSlack')], ['json', t('notify.formatJson')]].map(([v, text]) => h('option', { value: v }, text)));
        const state = h('span', { class: 'subtle' });
        notifyApi.webhook(token, g.game_id).then((w) => {
          state.textContent = w.webhook ? ` (${w.webhook.disabled ? t('notify.webhookDeleted', { format: w.webhook.format }) : t('notify.webhookSet', { format: w.webhook.format })})` : '';
        }, () => {});
        row.append(h('form', { class: 'invite-row', onsubmit: guard(async (ev) => {
          ev.preventDefault();
          const w = await notifyApi.setWebhook(token, g.game_id, url.value.trim() || null, format.value);
          toast(w.webhook ? t('notify.webhookSaved') : t('notify.webhookRemoved'));
          url.value = '';
          state.textContent = w.webhook ? ` (${t('notify.webhookSet', { format: w.webhook.format })})` : '';
        }) }, url, format, h('button', { type: 'submit', class: 'btn btn-small' }, t('notify.setWebhook'))), state);
      }
      return row;
    });
    box.replaceChildren(
      h('h3', {}, t('notify.title')),
      pushRow,
      check('notify-push', t('notify.push'), settings.push, false, async (e) => {
        await notifyApi.set(token, { push: e.target.checked });
      }),
      check('notify-email', settings.email_verified ? t('notify.email') : t('notify.emailNeedsAddress'), settings.email, !settings.email_verified || !settings.email_available, async (e) => {
        await notifyApi.set(token, { email: e.target.checked });
        await render();
      }),
      check('notify-digest', t('notify.digest'), settings.digest, !settings.email, async (e) => {
        await notifyApi.set(token, { digest: e.target.checked });
      }),
      h('p', { class: 'subtle', id: 'notify-time-zone' }, t('notify.timeZone', { zone: settings.time_zone || 'UTC' })),
      rows.length ? h('ul', { class: 'notify-games' }, rows) : h('p', { class: 'subtle' }, t('notify.gamesHelp')),
    );
  };
  guard(render)();
  return box;
}

// "Standing orders": how the server decides for you when a decision falls to you outside
// your turn and you are away (each game may change them on its page).
function standingOrdersSection(ctx, error) {
  const token = ctx.session.token;
  const box = h('section', { id: 'standing-orders' }, h('h3', {}, t('orders.title')));
  const render = (reply) => {
    box.replaceChildren(
      h('h3', {}, t('orders.title')),
      h('p', {}, t('orders.accountHelp')),
      ordersForm({
        idPrefix: 'standing',
        choices: reply.choices,
        values: reply.orders,
        onChange: async (order, value) => {
          error.textContent = '';
          try {
            render(await accountApi.setStandingOrders(token, { [order]: value }));
            toast(t('orders.saved'));
          } catch (err) {
            error.textContent = err.message;
          }
        },
      }),
    );
  };
  accountApi.standingOrders(token).then(render, (err) => {
    error.textContent = err.message;
  });
  return box;
}

// Signs this browser in with a code (a link's or a recovery code) and goes to the lobby.
async function redeemAndEnter(ctx, code) {
  const typed = codeFromInput(code);
  const session = await accountApi.redeem(typed);
  saveSession({ player_id: session.player_id, name: session.name, token: session.token });
  // A sign-in link's code is 32 hex digits; anything else was the recovery code, now used up.
  const recovery = !/^[0-9a-fA-F]{32}$/.test(typed);
  toast(recovery ? t('signIn.doneWithCode', { name: session.name }) : t('signIn.done', { name: session.name }));
  location.hash = '#/';
  ctx.setSession({ player_id: session.player_id, name: session.name, token: session.token });
}

// #/signin/<code>
export function mountSignIn(root, ctx, code) {
  const error = h('p', { class: 'form-error', role: 'alert' });
  const go = async () => {
    error.textContent = '';
    try {
      await redeemAndEnter(ctx, code);
    } catch (err) {
      error.textContent = err.code === 'bad_code' ? t('signIn.linkUsed') : err.message;
    }
  };
  const card = h('section', { class: 'card', id: 'sign-in-page' }, h('h2', {}, t('signIn.title')), error);
  if (ctx.session) {
    // Never drop an identity silently: this browser's player may be reachable nowhere else.
    card.append(
      h('p', {}, t('signIn.alreadySignedIn', { name: ctx.session.name })),
      h('div', { class: 'modal-buttons' }, h('a', { class: 'btn', href: '#/account' }, t('signIn.keep', { name: ctx.session.name })), h('button', { type: 'button', class: 'btn btn-primary', id: 'use-sign-in-link', onclick: go }, t('signIn.useLink'))),
    );
  } else {
    card.append(h('p', {}, t('signIn.signingIn')));
    go();
  }
  root.replaceChildren(h('section', { class: 'welcome' }, card));
  return { destroy() {} };
}

// #/verify-email/<code>
export function mountVerifyEmail(root, ctx, code) {
  const text = h('p', { id: 'verify-result' }, t('verify.confirming'));
  root.replaceChildren(h('section', { class: 'welcome' }, h('section', { class: 'card' }, h('h2', {}, t('verify.title')), text, h('p', {}, h('a', { href: '#/' }, t('invite.toLobby'))))));
  accountApi.verifyEmail(code).then(
    (reply) => {
      text.textContent = t('verify.confirmed', { address: reply.address });
    },
    (err) => {
      text.textContent = err.code === 'bad_code' ? t('verify.linkUsed') : err.message;
    },
  );
  return { destroy() {} };
}

// For the welcome page: "I have played before" — a recovery code or link, or a link by e-mail.
export function returningPlayerCard(ctx) {
  const codeInput = h('input', { type: 'text', id: 'recovery-input', autocomplete: 'off', placeholder: t('returning.codePlaceholder') });
  const mailInput = h('input', { type: 'email', id: 'mail-link-address', placeholder: 'you@example.org' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  return h(
    'details',
    { class: 'card returning', id: 'returning-player' },
    h('summary', {}, t('returning.summary')),
    h(
      'form',
      {
        class: 'invite-row',
        onsubmit: async (ev) => {
          ev.preventDefault();
          error.textContent = '';
          try {
            await redeemAndEnter(ctx, codeInput.value);
          } catch (err) {
            error.textContent = err.code === 'bad_code' ? t('returning.badCode') : err.message;
          }
        },
      },
      codeInput,
      h('button', { type: 'submit', class: 'btn', id: 'recovery-submit' }, t('title.signIn')),
    ),
    h('p', { class: 'field-help' }, t('returning.codeOnce')),
    h(
      'form',
      {
        class: 'invite-row',
        onsubmit: async (ev) => {
          ev.preventDefault();
          error.textContent = '';
          try {
            await accountApi.mailLink(mailInput.value.trim());
            error.textContent = '';
            toast(t('returning.mailSent'));
          } catch (err) {
            error.textContent = err.message;
          }
        },
      },
      mailInput,
      h('button', { type: 'submit', class: 'btn' }, t('returning.mailMe')),
    ),
    error,
  );
}

// "switch": offers a sign-in link before this browser forgets the player. Resolves true when
// the player chose to forget this browser's identity.
export async function confirmSwitch(ctx) {
  const linkBox = h('div', {});
  const choice = await modal({
    title: t('switch.title'),
    body: [
      h('p', {}, t('switch.text', { name: ctx.session.name })),
      linkBox,
    ],
    buttons: [
      { label: t('dialog.cancel'), value: false, kind: 'plain' },
      { label: t('switch.accountPage'), value: 'account', kind: 'primary' },
      { label: t('switch.forget'), value: true, kind: 'danger' },
    ],
  });
  if (choice === 'account') {
    location.hash = '#/account';
    return false;
  }
  if (choice === true) clearSession();
  return choice === true;
}
