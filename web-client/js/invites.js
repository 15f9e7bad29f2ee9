// Invitation codes of private games this browser knows, kept in localStorage so that a link
// made once still works after a reload. A module of its own so that the lobby, the invitation
// page and the replay page need not load the game page (game.js re-exports both).

export function saveInvite(gameId, invite) {
  try {
    localStorage.setItem(`viktory.invite.${gameId}`, invite);
  } catch {
    // Storage full or blocked: the link is still shown while the page is open.
  }
}

export function loadInvite(gameId) {
  try {
    return localStorage.getItem(`viktory.invite.${gameId}`);
  } catch {
    return null;
  }
}
