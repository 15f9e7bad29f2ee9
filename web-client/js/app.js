// Entry point: session, connection, the top bar and the hash router.
//   #/                       lobby (or the name form when this browser has no session)
//   #/game/<id>              a game (waiting room before it starts)
//   #/join/<id>/<invite>     take a seat with an invitation link, then #/game/<id>
//   #/replay/<id>            step through a finished game
//   #/account                sign-in links, recovery code, e-mail (account.js)
//   #/signin/<code>          sign this browser in with a link made on another device
//   #/verify-email/<code>    confirm an e-mail address
//   #/player/<id>            a player's profile (profile.js)
//   #/finished[?tab=|player=] finished games: mine, all public, one player's (finished.js)
//   #/ladder[?players=N]     the ladder of N-player games (ladder.js)

//
// Each page's modules are loaded when the page is first shown (import()), so the name form and
// the lobby load a few modules, not the game's forty; the browser keeps them (their URLs carry
// their versions: docs/server.md, "Static files: versions, caching, compression").

import { Connection, loadSession, clearSession, api } from './net.js';
import { h, toast } from './util.js';
import { registerWorker, rememberTimeZone } from './push.js';
import { t, LANG } from './i18n.js';
import { languageSwitch } from './language_switch.js';

const pages = {
  lobby: () => import('./lobby.js'),
  invite: () => import('./invite.js'),
  game: () => import('./game.js'),
  replay: () => import('./replay.js'),
  account: () => import('./account.js'),
  tutorial: () => import('./tutorial/coach.js'),
  profile: () => import('./profile.js'),
  friends: () => import('./friends.js'),
  finished: () => import('./finished.js'),
  ladder: () => import('./ladder.js'),
};

const root = document.getElementById('app');
const statusPill = document.getElementById('conn-status');
const meBox = document.getElementById('me');
// index.html's own words, in the page's language.
document.querySelector('.topbar .brand').title = t('title.lobby');
// The language switch in the top bar, on every page (js/language_switch.js).
document.getElementById('topbar-language-slot').append(languageSwitch({ compact: true }));

const ctx = {
  session: loadSession(),
  conn: null,
  setSession(session) {
    ctx.session = session;
    startConnection();
    route();
  },
};

let mounted = null;

function startConnection() {
  if (ctx.conn) ctx.conn.stop();
  if (!ctx.session) return;
  // Deadlines in notifications in this browser's time zone (docs/notifications.md).
  rememberTimeZone(ctx.session);
  // The server writes this player's mails and pushes in the page's language (docs/protocol.md,
  // "Accounts"); switching the language reloads the page, which tells it again.
  api.setLanguage(ctx.session.token, LANG).catch(() => {});
  const conn = new Connection(ctx.session.token);
  ctx.conn = conn;
  window.__viktory = { conn, ctx };
  conn.addEventListener('status', (e) => showStatus(e.detail.status, e.detail.attempt));
  conn.addEventListener('welcome', (e) => {
    ctx.session = { ...ctx.session, name: e.detail.name, player_id: e.detail.player_id };
    renderMe();
  });
  conn.addEventListener('authfailed', () => {
    // The server does not know this token (e.g. its database was reset): start over.
    clearSession();
    ctx.session = null;
    ctx.conn = null;
    toast(t('app.signedOut'), 'error');
    route();
  });
  showStatus('connecting', 0);
  conn.start();
}

function showStatus(status, attempt) {
  // Before a name is chosen there is no connection to speak of.
  statusPill.hidden = !ctx.session;
  statusPill.dataset.status = status;
  const text = {
    connecting: t('status.connecting'),
    online: t('status.online'),
    reconnecting: attempt > 1 ? t('status.reconnectingTry', { attempt }) : t('status.reconnecting'),
    offline: t('status.offline'),
  }[status] || status;
  statusPill.textContent = text;
  statusPill.title = status === 'online' ? t('status.onlineTitle') : t('status.offlineTitle');
  document.body.classList.toggle('disconnected', status !== 'online');
}

function renderMe() {
  meBox.replaceChildren();
  if (!ctx.session) return;
  meBox.append(
    h('a', { class: 'me-name', href: '#/account', title: t('topbar.accountTitle') }, ctx.session.name),
    h(
      'button',
      {
        type: 'button',
        class: 'btn btn-small btn-plain',
        title: t('topbar.switchTitle'),
        onclick: async () => {
          // Offers a sign-in link or recovery code before this browser forgets the player.
          const { confirmSwitch } = await pages.account();
          if (!(await confirmSwitch(ctx))) return;
          if (ctx.conn) ctx.conn.stop();
          ctx.conn = null;
          ctx.session = null;
          location.hash = '#/';
          route();
        },
      },
      t('topbar.switch'),
    ),
  );
}

// Shows the page of the current hash once its modules are loaded; a newer route wins over one
// whose modules are still loading.
let routing = 0;

function show(title, load, mount) {
  const ticket = ++routing;
  document.title = `${title} · VIKTORY II`;
  load().then(
    (module) => {
      if (ticket !== routing) return;
      mounted = mount(module);
    },
    (err) => {
      if (ticket !== routing) return;
      // Offline, or a module missing after an update: say so instead of an empty page.
      root.replaceChildren(h('section', { class: 'card' }, h('h1', {}, t('app.pageNotLoaded')), h('p', { class: 'form-error' }, String(err && err.message ? err.message : err)), h('a', { class: 'btn', href: '#/', onclick: () => location.reload() }, t('app.tryAgain'))));
    },
  );
}

function route() {
  if (mounted && mounted.destroy) mounted.destroy();
  mounted = null;
  renderMe();
  const [path, query] = location.hash.replace(/^#\/?/, '').split('?');
  const parts = path.split('/').filter(Boolean).map(decodeURIComponent);
  // The server's invitation URLs read #/game/<id>?invite=<code>; ours #/join/<id>/<code>.
  const inviteParam = new URLSearchParams(query || '').get('invite');
  if (parts[0] === 'game' && parts[1] && inviteParam) {
    parts.splice(0, 3, 'join', parts[1], inviteParam);
  }
  if (parts[0] === 'signin' && parts[1]) {
    show(t('title.signIn'), pages.account, (m) => m.mountSignIn(root, ctx, parts[1]));
    return;
  }
  if (parts[0] === 'verify-email' && parts[1]) {
    show(t('title.verifyEmail'), pages.account, (m) => m.mountVerifyEmail(root, ctx, parts[1]));
    return;
  }
  if (parts[0] === 'replay' && parts[1]) {
    show(t('title.replay', { id: parts[1] }), pages.replay, (m) => m.mountReplay(root, ctx, parts[1]));
    return;
  }
  // Players' records are public (a visitor without a name sees them as any stranger would).
  if (parts[0] === 'player' && /^\d+$/.test(parts[1] || '')) {
    show(t('profile.title'), () => Promise.all([pages.profile(), pages.friends()]), ([m, friendsModule]) => {
      const page = m.mountProfile(root, ctx, parts[1]);
      // "Follow" beside the name, for a signed-in visitor who may see the profile (js/friends.js).
      page.ready.then((profile) => {
        if (profile && ctx.session && page.actions.isConnected) page.actions.append(friendsModule.followButton(ctx, parts[1]));
      });
      return page;
    });
    return;
  }
  if (parts[0] === 'finished') {
    show(t('records.finishedTitle'), pages.finished, (m) => m.mountFinished(root, ctx, query));
    return;
  }
  if (parts[0] === 'ladder') {
    show(t('records.ladderTitle'), pages.ladder, (m) => m.mountLadder(root, ctx, query));
    return;
  }
  const joining = parts[0] === 'join' && /^\d+$/.test(parts[1] || '') && parts[2];
  if (!ctx.session) {
    showStatus('offline', 0);
    // A visitor from an invitation link sees what he is invited to above the name form.
    show(
      joining ? t('title.invitation', { id: parts[1] }) : t('title.chooseName'),
      () => Promise.all([pages.lobby(), pages.account()]),
      ([lobby, account]) => {
        const page = lobby.mountWelcome(root, ctx, joining ? { gameId: Number(parts[1]), invite: parts[2] } : null);
        const nameForm = root.querySelector('.welcome-form');
        if (nameForm) nameForm.after(account.returningPlayerCard(ctx));
        return page;
      },
    );
    return;
  }
  if (!ctx.conn) startConnection();
  if (parts[0] === 'account') {
    show(t('title.account'), pages.account, (m) => m.mountAccount(root, ctx));
    return;
  }
  if (joining) {
    show(t('title.invitation', { id: parts[1] }), pages.invite, (m) => m.mountInvite(root, ctx, Number(parts[1]), parts[2]));
    return;
  }
  if (parts[0] === 'learn') {
    const again = new URLSearchParams(query || '').has('again');
    show(t('tutorial.title'), pages.tutorial, (m) => m.mountLearn(root, ctx, { again }));
    return;
  }
  if (parts[0] === 'game' && /^\d+$/.test(parts[1] || '')) {
    // The guided first game's page has its coach over it (js/tutorial/coach.js).
    show(t('title.game', { id: parts[1] }), () => Promise.all([pages.game(), pages.tutorial()]), ([m, coach]) => {
      const page = m.mountGame(root, ctx, { gameId: Number(parts[1]) });
      if (!coach.isTutorialGame(parts[1])) return page;
      const guide = coach.attachCoach(page, root, ctx);
      return { destroy: () => { guide.destroy(); page.destroy(); } };
    });
    return;
  }
  show(t('title.lobby'), pages.lobby, (m) => m.mountLobby(root, ctx));
}

window.addEventListener('hashchange', route);
if (ctx.session) startConnection();
else showStatus('offline', 0);
route();

// The service worker on every visit (not only once notifications are on): it serves the offline
// page when the network is down, makes the game installable, and receives Web Push (sw.js).
// After the page's load (the worker's own downloads wait for the page's); this module may run
// after the load event already: js/i18n.js awaits the catalogs before any module runs.
if ('serviceWorker' in navigator && window.isSecureContext) {
  const register = () =>
    registerWorker().catch(() => {
      // No worker (e.g. blocked by the browser's settings): the game works without it.
    });
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register);
}
