// A player's identity across devices (docs/protocol.md, "Accounts"): the account page
// (#/account) makes sign-in links and recovery codes, adds an e-mail address and signs other
// devices out; #/signin/<code> redeems a link on another device; #/verify-email/<code>
// confirms an address; the welcome page takes a recovery code or sends a link by e-mail.

import { ApiError, saveSession, clearSession } from './net.js';
import { count, h, toast } from './util.js';
import { modal } from './dialogs.js';
import { pushSupported, enablePush, disablePush, currentSubscription, notifyApi } from './push.js';
import { ordersForm } from './standing_orders.js';

async function accountFetch(path, { method = 'GET', body, token } = {}) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (token) headers.Authorization = `Bearer ${token}`;
  let response;
  try {
    response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body), cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check your connection.');
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw new ApiError(response.status, err.code || `http_${response.status}`, err.message || `Request failed (${response.status}).`);
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
  mailLink: (address) => accountFetch('/api/session/email-link', { method: 'POST', body: { address } }),
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

function copyButton(text, label = 'Copy') {
  return h(
    'button',
    {
      type: 'button',
      class: 'btn btn-small',
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(text);
          toast('Copied.');
        } catch {
          toast('Select the text and copy it by hand.', 'error');
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
    h('p', {}, `Open this link on your other device (or in another browser). It works once, for about ${hours} hours; this device stays signed in.`),
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
      emailBox.replaceChildren(h('p', { class: 'subtle' }, 'This server does not send e-mail.'));
      return;
    }
    const input = h('input', { type: 'email', id: 'email-address', maxlength: 254, placeholder: 'you@example.org', value: account.email ? account.email.address : '' });
    const state = account.email
      ? h('p', { id: 'email-state' }, account.email.verified ? `${account.email.address} is confirmed: you can ask for a sign-in link by e-mail on any device.` : `A confirmation link was sent to ${account.email.address}; open it to confirm the address.`)
      : h('p', { id: 'email-state' }, 'Optional. With a confirmed address you can get a sign-in link by e-mail on any device.');
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
              toast(reply.sent ? 'A confirmation link is on its way.' : 'Saved.');
              renderEmail(reply);
            })();
          },
        },
        input,
        h('button', { type: 'submit', class: 'btn', id: 'email-save' }, 'Save'),
      ),
    );
  };

  const refresh = guard(async () => {
    const account = await accountApi.get(token);
    const devices = account.devices === 1 ? 'this device only' : `${account.devices} devices`;
    facts.textContent = `Signed in as ${account.name} on ${devices}.${account.recovery_code_created ? ` Recovery code made ${new Date(account.recovery_code_created).toLocaleDateString()}.` : ' No recovery code yet.'}`;
    renderEmail(account);
  });

  root.replaceChildren(
    h(
      'section',
      { class: 'account-page' },
      h(
        'section',
        { class: 'card' },
        h('h1', { class: 'visually-hidden' }, 'Your account'),
        h('h2', {}, 'Your account'),
        facts,
        error,
        h('h3', {}, 'Play on another device'),
        h('p', {}, 'Your name and seats live in this browser. A sign-in link opens them on your phone, another computer or another browser.'),
        h('button', { type: 'button', class: 'btn btn-primary', id: 'make-sign-in-link', onclick: guard(() => showSignInLink(ctx, linkBox).then(refresh)) }, 'Make a sign-in link'),
        linkBox,
        h('h3', {}, 'Recovery code'),
        h('p', {}, 'Write it down or keep it in your password manager: if this browser forgets you (cleared storage, a new phone), the code brings your seats back. It works once; a new code replaces the old one.'),
        h(
          'button',
          {
            type: 'button',
            class: 'btn',
            id: 'make-recovery-code',
            onclick: guard(async () => {
              const reply = await accountApi.recoveryCode(token);
              codeBox.replaceChildren(h('p', {}, 'Your recovery code (shown only now). It signs you in once: after using it, make a new one here.'), h('div', { class: 'invite-row' }, h('code', { id: 'recovery-code', class: 'recovery-code' }, reply.code), copyButton(reply.code)));
              refresh();
            }),
          },
          'Make a recovery code',
        ),
        codeBox,
        h('h3', {}, 'E-mail'),
        emailBox,
        notificationsSection(ctx, error),
        standingOrdersSection(ctx, error),
        vacationSection(ctx),
        h('h3', {}, 'Sign out other devices'),
        h('p', {}, 'Lost a phone? This signs out every other device and cancels sign-in links not used yet and your recovery code (whoever had your phone could have made one): make a new code afterwards.'),
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
              toast(reply.recovery_code_revoked ? 'Every other device is signed out, and your recovery code no longer works: make a new one.' : 'Every other device is signed out.');
            }),
          },
          'Sign out other devices',
        ),
      ),
    ),
  );
  refresh();
  return { destroy() {} };
}

// "Vacation": declared in every running game with a clock at once (games.vacation); each game
// takes it from its own vacation days, and says so to its players.
const VACATION_TEXT = {
  title: 'Vacation',
  about: 'Going away? Your clocks stand still in every game with a clock until the day you choose, each taking it from that game\'s vacation days. It ends in a game as soon as you play there.',
  days: (n) => count(n, { one: 'day', other: 'days' }),
  button: 'Go on vacation in all my games',
  none: 'None of your running games has a clock.',
  until: (id, ms) => `Game ${id}: on vacation until ${new Date(ms).toLocaleString([], { dateStyle: 'medium', timeStyle: 'short' })}.`,
  refused: (id, message) => `Game ${id}: not there (${message})`,
};

function vacationSection(ctx) {
  const days = h('select', { id: 'vacation-all-days', 'aria-label': 'Days of vacation' }, [1, 2, 3, 5, 7, 14].map((n) => h('option', { value: String(n) }, VACATION_TEXT.days(n))));
  const result = h('ul', { class: 'vacation-results', id: 'vacation-results', 'aria-live': 'polite' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  const go = async () => {
    error.textContent = '';
    try {
      const { seen } = await ctx.conn.request('games.vacation', { days: Number(days.value) });
      const reply = seen.find((m) => m.type === 'games.vacation');
      const games = reply ? reply.games : [];
      result.replaceChildren(...(games.length ? games.map((g) => h('li', { class: g.until ? 'vacation-ok' : 'vacation-refused', dataset: { gameId: g.game_id } }, g.until ? VACATION_TEXT.until(g.game_id, g.until) : VACATION_TEXT.refused(g.game_id, g.message))) : [h('li', { class: 'subtle' }, VACATION_TEXT.none)]));
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
  const box = h('section', { id: 'notifications' }, h('h3', {}, 'Turn notifications'));
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
      pushRow.textContent = 'This browser cannot get push notifications here (the site needs https).';
    } else {
      pushRow.append(
        subscription ? 'This device gets a notification when it is your turn, even with the page closed. ' : 'This device gets no push notifications. ',
        h('button', { type: 'button', class: 'btn btn-small', id: 'push-toggle', onclick: guard(async () => {
          if (subscription) await disablePush(token);
          else await enablePush(token);
          await render();
        }) }, subscription ? 'Turn off on this device' : 'Turn on on this device'),
      );
    }
    const check = (id, label, checked, disabled, onchange) =>
      h('label', { class: 'check', for: id }, h('input', { type: 'checkbox', id, checked, disabled, onchange: guard(onchange) }), h('span', {}, label));
    const games = mine.filter((g) => g.status === 'running' || g.status === 'open');
    const me = ctx.session.player_id;
    const rows = games.map((g) => {
      const muted = settings.muted.includes(g.game_id);
      const row = h('li', { class: 'notify-game' },
        check(`mute-${g.game_id}`, `Game ${g.game_id}: mute`, muted, false, async (e) => {
          await notifyApi.mute(token, g.game_id, e.target.checked);
          toast(e.target.checked ? `Game ${g.game_id} is muted.` : `Game ${g.game_id} notifies you again.`);
        }));
      if (g.creator && g.creator.player_id === me) {
        const url = h('input', { type: 'url', class: 'webhook-url', placeholder: 'https://discord.com/api/webhooks/…', 'aria-label': `Webhook for game ${g.game_id}` });
        const format = h('select', { class: 'webhook-format', 'aria-label': 'Format' }, [['discord', 'Discord'], ['slack', 'Slack and compatible'], ['json', 'plain JSON']].map(([v, t]) => h('option', { value: v }, t)));
        const state = h('span', { class: 'subtle' });
        notifyApi.webhook(token, g.game_id).then((w) => {
          state.textContent = w.webhook ? ` (a ${w.webhook.format} webhook is set${w.webhook.disabled ? ', but its chat deleted it' : ''})` : '';
        }, () => {});
        row.append(h('form', { class: 'invite-row', onsubmit: guard(async (ev) => {
          ev.preventDefault();
          const w = await notifyApi.setWebhook(token, g.game_id, url.value.trim() || null, format.value);
          toast(w.webhook ? 'The group chat will hear of every turn.' : 'Webhook removed.');
          url.value = '';
          state.textContent = w.webhook ? ` (a ${w.webhook.format} webhook is set)` : '';
        }) }, url, format, h('button', { type: 'submit', class: 'btn btn-small' }, 'Set webhook')), state);
      }
      return row;
    });
    box.replaceChildren(
      h('h3', {}, 'Turn notifications'),
      pushRow,
      check('notify-push', 'Push notifications on my devices', settings.push, false, async (e) => {
        await notifyApi.set(token, { push: e.target.checked });
      }),
      check('notify-email', settings.email_verified ? 'An e-mail when it is my turn (not while the game is open; one per turn)' : 'An e-mail when it is my turn (needs a confirmed address above)', settings.email, !settings.email_verified || !settings.email_available, async (e) => {
        await notifyApi.set(token, { email: e.target.checked });
        await render();
      }),
      check('notify-digest', 'Instead, one e-mail a day at 08:00 my time listing the games that wait for me', settings.digest, !settings.email, async (e) => {
        await notifyApi.set(token, { digest: e.target.checked });
      }),
      h('p', { class: 'subtle', id: 'notify-time-zone' }, `Deadlines in notifications are given in ${settings.time_zone || 'UTC'}.`),
      rows.length ? h('ul', { class: 'notify-games' }, rows) : h('p', { class: 'subtle' }, 'Games you play in appear here, to mute them or (as their creator) to tell a group chat through a webhook.'),
    );
  };
  guard(render)();
  return box;
}

// "Standing orders": how the server decides for you when a decision falls to you outside
// your turn and you are away (each game may change them on its page).
function standingOrdersSection(ctx, error) {
  const token = ctx.session.token;
  const box = h('section', { id: 'standing-orders' }, h('h3', {}, 'Standing orders'));
  const render = (reply) => {
    box.replaceChildren(
      h('h3', {}, 'Standing orders'),
      h('p', {}, 'When a decision falls to you outside your turn (your losses in a battle, units lost with a Town…) and you are not in the game, these decide for you at once, so that nobody waits. The game log says "(standing order)". Each game can change them on its page.'),
      ordersForm({
        idPrefix: 'standing',
        choices: reply.choices,
        values: reply.orders,
        onChange: async (order, value) => {
          error.textContent = '';
          try {
            render(await accountApi.setStandingOrders(token, { [order]: value }));
            toast('Standing orders saved.');
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
  toast(recovery ? `Signed in as ${session.name}. That recovery code is used up: make a new one on your account page.` : `Signed in as ${session.name}.`);
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
      error.textContent = err.code === 'bad_code' ? 'This link was used already or has expired. Make a new one on the device where you are signed in.' : err.message;
    }
  };
  const card = h('section', { class: 'card', id: 'sign-in-page' }, h('h2', {}, 'Sign in with a link'), error);
  if (ctx.session) {
    // Never drop an identity silently: this browser's player may be reachable nowhere else.
    card.append(
      h('p', {}, `This browser is signed in as ${ctx.session.name}. The link signs it in as the player who made it instead; ${ctx.session.name} stays signed in on his other devices only. Make a sign-in link or recovery code for ${ctx.session.name} first if you want to come back to him here.`),
      h('div', { class: 'modal-buttons' }, h('a', { class: 'btn', href: '#/account' }, `Keep ${ctx.session.name}`), h('button', { type: 'button', class: 'btn btn-primary', id: 'use-sign-in-link', onclick: go }, 'Use the link')),
    );
  } else {
    card.append(h('p', {}, 'Signing in…'));
    go();
  }
  root.replaceChildren(h('section', { class: 'welcome' }, card));
  return { destroy() {} };
}

// #/verify-email/<code>
export function mountVerifyEmail(root, ctx, code) {
  const text = h('p', { id: 'verify-result' }, 'Confirming…');
  root.replaceChildren(h('section', { class: 'welcome' }, h('section', { class: 'card' }, h('h2', {}, 'E-mail address'), text, h('p', {}, h('a', { href: '#/' }, 'To the lobby')))));
  accountApi.verifyEmail(code).then(
    (reply) => {
      text.textContent = `${reply.address} is confirmed.`;
    },
    (err) => {
      text.textContent = err.code === 'bad_code' ? 'This link was used already or has expired. Save the address again on the account page for a new one.' : err.message;
    },
  );
  return { destroy() {} };
}

// For the welcome page: "I have played before" — a recovery code or link, or a link by e-mail.
export function returningPlayerCard(ctx) {
  const codeInput = h('input', { type: 'text', id: 'recovery-input', autocomplete: 'off', placeholder: 'xxxx-xxxx-… or a sign-in link' });
  const mailInput = h('input', { type: 'email', id: 'mail-link-address', placeholder: 'you@example.org' });
  const error = h('p', { class: 'form-error', role: 'alert' });
  return h(
    'details',
    { class: 'card returning', id: 'returning-player' },
    h('summary', {}, 'Played here before? Sign in with a recovery code, a link or your e-mail'),
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
            error.textContent = err.code === 'bad_code' ? 'This code is unknown, was used already or has expired.' : err.message;
          }
        },
      },
      codeInput,
      h('button', { type: 'submit', class: 'btn', id: 'recovery-submit' }, 'Sign in'),
    ),
    h('p', { class: 'field-help' }, 'A recovery code works once: after signing in with it, make a new one on your account page.'),
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
            toast('If this address is confirmed for a player, a sign-in link is on its way.');
          } catch (err) {
            error.textContent = err.message;
          }
        },
      },
      mailInput,
      h('button', { type: 'submit', class: 'btn' }, 'E-mail me a link'),
    ),
    error,
  );
}

// "switch": offers a sign-in link before this browser forgets the player. Resolves true when
// the player chose to forget this browser's identity.
export async function confirmSwitch(ctx) {
  const linkBox = h('div', {});
  const choice = await modal({
    title: 'Use another name?',
    body: [
      h('p', {}, `This browser forgets ${ctx.session.name}. His seats stay his; to come back to them, keep a sign-in link or a recovery code first (the account page has both).`),
      linkBox,
    ],
    buttons: [
      { label: 'Cancel', value: false, kind: 'plain' },
      { label: 'Account page', value: 'account', kind: 'primary' },
      { label: 'Forget me here', value: true, kind: 'danger' },
    ],
  });
  if (choice === 'account') {
    location.hash = '#/account';
    return false;
  }
  if (choice === true) clearSession();
  return choice === true;
}
