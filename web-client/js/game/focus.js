// Keeping the keyboard focus over a re-render. The panels are drawn anew on every update, so a
// focused button would vanish under the player's keyboard. Before drawing, the page notes what
// had the focus (its id or data-focus-key); afterwards it gives the focus to the new element
// with the same key. If that element is gone (the action it stood for is done), the focus goes
// to the map, on the hex the keyboard was last on, so a keyboard player is never dropped to
// the top of the page.

// Whether the player was last using the keyboard (then a lost focus goes to the map; after a
// mouse click it is simply let go).
let keyboardInUse = false;
document.addEventListener('keydown', (e) => {
  if (e.key === 'Tab' || e.key.startsWith('Arrow') || e.key === 'Enter' || e.key === ' ') keyboardInUse = true;
}, true);
document.addEventListener('pointerdown', () => {
  keyboardInUse = false;
}, true);

function keyOf(el) {
  if (!el || el === document.body) return null;
  if (el.dataset && el.dataset.hitHex !== undefined) return null; // map hexes persist by themselves
  if (el.dataset && el.dataset.focusKey) return { attr: 'data-focus-key', value: el.dataset.focusKey };
  if (el.id) return { attr: 'id', value: el.id };
  return { attr: null };
}

export function rememberFocus(root) {
  const el = document.activeElement;
  if (!el || !root.contains(el)) return null;
  return { el, key: keyOf(el) };
}

export function restoreFocus(page, focus) {
  if (!focus || !focus.key) return;
  if (focus.el.isConnected && document.activeElement === focus.el) return;
  if (document.querySelector('dialog[open]')) return; // a dialog holds the focus now
  const { attr, value } = focus.key;
  const again = attr ? page.root.querySelector(`[${attr}="${CSS.escape(value)}"]`) : null;
  if (again && !again.disabled && again.offsetParent !== null) {
    again.focus({ preventScroll: true });
    return;
  }
  if (keyboardInUse && page.board && page.board.cursorHex !== null) page.board.focusHex(page.board.cursorHex);
}
