// Entry point: session, connection, the top bar and the hash router.
//   #/                       lobby (or the name form when this browser has no session)
//   #/game/<id>              a game (waiting room before it starts)
//   #/join/<id>/<invite>     take a seat with an invitation link, then #/game/<id>
//   #/replay/<id>            step through a finished game
//   #/account                sign-in links, recovery code, e-mail (account.js)
//   #/signin/<code>          sign this browser in with a link made on another device
//   #/verify-email/<code>    confirm an e-mail address

import { Connection, loadSession, clearSession } from './net.js';
import { mountWelcome, mountLobby } from './lobby.js';
import { mountInvite } from './invite.js';
import { mountGame } from './game.js';
import { mountReplay } from './replay.js';
import { h, toast } from './util.js';
import { rememberTimeZone } from './push.js';
import { mountAccount, mountSignIn, mountVerifyEmail, returningPlayerCard, confirmSwitch } from './account.js';

const root = document.getElementById('app');
const statusPill = document.getElementById('conn-status');
const meBox = document.getElementById('me');

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
    toast('This browser is signed out. Sign in with a recovery code or a sign-in link, or choose a name.', 'error');
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
    connecting: 'connecting…',
    online: 'online',
    reconnecting: attempt > 1 ? `reconnecting… (try ${attempt})` : 'reconnecting…',
    offline: 'offline',
  }[status] || status;
  statusPill.textContent = text;
  statusPill.title = status === 'online' ? 'Connected to the server' : 'Not connected: moves by others appear when the connection is back';
  document.body.classList.toggle('disconnected', status !== 'online');
}

function renderMe() {
  meBox.replaceChildren();
  if (!ctx.session) return;
  meBox.append(
    h('a', { class: 'me-name', href: '#/account', title: 'Your account: play on another device, recovery code' }, ctx.session.name),
    h(
      'button',
      {
        type: 'button',
        class: 'btn btn-small btn-plain',
        title: 'Use another name (your current seats stay with the old name)',
        onclick: async () => {
          // Offers a sign-in link or recovery code before this browser forgets the player.
          if (!(await confirmSwitch(ctx))) return;
          if (ctx.conn) ctx.conn.stop();
          ctx.conn = null;
          ctx.session = null;
          location.hash = '#/';
          route();
        },
      },
      'switch',
    ),
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
    mounted = mountSignIn(root, ctx, parts[1]);
    return;
  }
  if (parts[0] === 'verify-email' && parts[1]) {
    mounted = mountVerifyEmail(root, ctx, parts[1]);
    return;
  }
  if (parts[0] === 'replay' && parts[1]) {
    mounted = mountReplay(root, ctx, parts[1]);
    return;
  }
  const joining = parts[0] === 'join' && /^\d+$/.test(parts[1] || '') && parts[2];
  if (!ctx.session) {
    showStatus('offline', 0);
    // A visitor from an invitation link sees what he is invited to above the name form.
    mounted = mountWelcome(root, ctx, joining ? { gameId: Number(parts[1]), invite: parts[2] } : null);
    const nameForm = root.querySelector('.welcome-form');
    if (nameForm) nameForm.after(returningPlayerCard(ctx));
    return;
  }
  if (!ctx.conn) startConnection();
  if (parts[0] === 'account') {
    mounted = mountAccount(root, ctx);
    return;
  }
  if (joining) {
    mounted = mountInvite(root, ctx, Number(parts[1]), parts[2]);
    return;
  }
  if (parts[0] === 'game' && /^\d+$/.test(parts[1] || '')) {
    mounted = mountGame(root, ctx, { gameId: Number(parts[1]) });
    return;
  }
  mounted = mountLobby(root, ctx);
}

window.addEventListener('hashchange', route);
if (ctx.session) startConnection();
else showStatus('offline', 0);
route();
