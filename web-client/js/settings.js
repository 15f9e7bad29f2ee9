// Player preferences of this browser, kept in localStorage: confirmations, hex labels, sounds.
// Nothing here reaches the server.

const KEY = 'viktory.settings';

export const SETTING_DEFAULTS = {
  // Ask before actions that the undo rules seal (a revealed tile or a die roll): building,
  // upgrading, bombarding, starting a battle.
  confirmSealing: true,
  // Also ask before a move, landing or placement that turns face-down tiles over [9.2].
  confirmExploring: false,
  // Warn when the Movement phase ends while units could still move.
  warnUnmoved: true,
  hexLabels: false,
  soundTurn: false,
  soundBattle: false,
};

function load() {
  try {
    const raw = localStorage.getItem(KEY);
    const stored = raw ? JSON.parse(raw) : {};
    const out = { ...SETTING_DEFAULTS };
    for (const key of Object.keys(SETTING_DEFAULTS)) {
      if (typeof stored[key] === typeof SETTING_DEFAULTS[key]) out[key] = stored[key];
    }
    return out;
  } catch {
    return { ...SETTING_DEFAULTS };
  }
}

class Settings extends EventTarget {
  constructor() {
    super();
    this.values = load();
    // Another tab of this browser changed a setting: follow it.
    window.addEventListener('storage', (e) => {
      if (e.key !== KEY) return;
      this.values = load();
      this.dispatchEvent(new CustomEvent('change', { detail: {} }));
    });
  }

  get(name) {
    return this.values[name];
  }

  set(name, value) {
    this.values = { ...this.values, [name]: value };
    try {
      localStorage.setItem(KEY, JSON.stringify(this.values));
    } catch {
      // Storage blocked: the setting still holds while the page is open.
    }
    this.dispatchEvent(new CustomEvent('change', { detail: { name, value } }));
  }
}

export const settings = new Settings();
