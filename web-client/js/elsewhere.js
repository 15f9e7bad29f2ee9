// Several servers share one database (docs/postgresql.md, "Several servers on one database"):
// a game is served by one of them at a time, and another answers game_elsewhere with that
// server's URL. Behind one address, the proxy sends a browser to a given server by the
// viktory_server cookie (deploy/nginx-several-servers.conf): the page sets it and loads the
// game again. When the same answer comes back at once, either the named server has just died
// (its lease still runs: the proxy sends us to another server, which takes the game over once
// the lease lapses) or nothing routes by the cookie here (servers reached at addresses of their
// own). The game page cannot tell which: it waits and loads again a few times, saying so, and
// then says where the game is served instead of loading again.

const COOKIE = 'viktory_server';
export const RETRY_MS = 15000; // a second answer within this: the same answer came back at once
export const RETRY_DELAY_MS = 3000; // between two loads while it comes back
export const MAX_RETRIES = 8; // about half a minute: longer than a lease's default term (10 s)

// What to do with a game_elsewhere answer for `gameId` naming `server`, at `now`, when this
// page last followed one for this game at `lastFollowed` (ms, or 0) after `retries` loads in a
// row that came back with it: 'follow' (set the cookie, load again), 'retry' (the same, after
// RETRY_DELAY_MS) or 'show' (say where the game is).
export function elsewhereStep({ server, gameId, now, lastFollowed, retries = 0 }) {
  if (typeof server !== 'string' || !/^https?:\/\/[^\s;,]+$/.test(server) || !gameId) return 'show';
  if (lastFollowed && now - lastFollowed >= 0 && now - lastFollowed < RETRY_MS) {
    return retries < MAX_RETRIES ? 'retry' : 'show';
  }
  return 'follow';
}

// Follows (or says where the game is, through `show(text)`). With `waiting(text)` (the game
// page), an answer that came back at once is followed again a few times after a pause, which
// `waiting` says; without it (a click in the lobby, an invitation) it is shown at once.
export function followToServer(server, gameId, show, { waiting } = {}) {
  const key = `viktory.elsewhere.${gameId}`;
  const lastFollowed = Number(sessionStorage.getItem(key) || 0);
  const retries = Number(sessionStorage.getItem(`${key}.retries`) || 0);
  const step = elsewhereStep({ server, gameId, now: Date.now(), lastFollowed, retries });
  if (step === 'show' || (step === 'retry' && !waiting)) {
    show(server);
    return false;
  }
  const go = () => {
    sessionStorage.setItem(key, String(Date.now()));
    sessionStorage.setItem(`${key}.retries`, String(step === 'retry' ? retries + 1 : 0));
    document.cookie = `${COOKIE}=${encodeURIComponent(server)}; path=/; SameSite=Strict`;
    location.reload();
  };
  if (step === 'retry') {
    waiting(server);
    setTimeout(go, RETRY_DELAY_MS);
  } else {
    go();
  }
  return true;
}
