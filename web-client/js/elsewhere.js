// Several servers share one database (docs/postgresql.md, "Several servers on one database"):
// a game is served by one of them at a time, and another answers game_elsewhere with that
// server's URL. Behind one address, the proxy sends a browser to a given server by the
// viktory_server cookie (deploy/nginx-several-servers.conf): the page sets it and loads the
// game again. Only once in a while per game: when the same answer comes back at once, nothing
// routes by the cookie here (servers reached at addresses of their own), and the page says
// where the game is served instead of loading again.

const COOKIE = 'viktory_server';
const RETRY_MS = 15000; // a second answer within this: the proxy did not route us; stop there

// What to do with a game_elsewhere answer for `gameId` naming `server`, at `now`, when this
// page last followed one for this game at `lastFollowed` (ms, or 0): 'follow' (set the cookie,
// load again) or 'show' (say where the game is).
export function elsewhereStep({ server, gameId, now, lastFollowed }) {
  if (typeof server !== 'string' || !/^https?:\/\/[^\s;,]+$/.test(server) || !gameId) return 'show';
  if (lastFollowed && now - lastFollowed >= 0 && now - lastFollowed < RETRY_MS) return 'show';
  return 'follow';
}

// Follows (or says where the game is, through `show(text)`) for the game page.
export function followToServer(server, gameId, show) {
  const key = `viktory.elsewhere.${gameId}`;
  const lastFollowed = Number(sessionStorage.getItem(key) || 0);
  const step = elsewhereStep({ server, gameId, now: Date.now(), lastFollowed });
  if (step === 'show') {
    show(server);
    return false;
  }
  sessionStorage.setItem(key, String(Date.now()));
  document.cookie = `${COOKIE}=${encodeURIComponent(server)}; path=/; SameSite=Strict`;
  location.reload();
  return true;
}
