// Languages (docs/client.md, "Languages"): every text a player reads comes from a message
// catalog, one JSON file per language in the web root's i18n/ (en.json, de.json, ...), read by
// this module and by the server alike (its e-mails, pushes and webhooks: server/catalog.h).
// English is complete and the fallback; a third language is one new file there and nothing
// else: the server lists every catalog of the web root in the page's import map (docs/server.md,
// "Static files"), and this module reads the languages on offer from it.
//
// The language is chosen once, before any page module runs (this module's top-level await):
// the one saved by the switch (localStorage `viktory.lang`), else the first of the browser's
// languages that has a catalog, else English. Switching saves the choice and reloads the page,
// so a text never has to be redrawn: t() is a map lookup and nothing else.
//
// Catalog entries: a string with named placeholders ("Game {id}"), or the plural forms of the
// language's Intl.PluralRules categories ({ "one": "{count} day", "other": "{count} days" }),
// chosen by params.count. Keys are written out in the code, t('title.lobby'), never computed,
// so that tests/browser/i18n_catalog.test.js finds each one and checks every catalog.

const STORAGE_KEY = 'viktory.lang';
const FALLBACK = 'en';

// The languages the server offers: /i18n/<code>.json in the import map (English without one,
// e.g. a page opened from the files alone).
export function availableLanguages() {
  const codes = new Set([FALLBACK]);
  const map = typeof document !== 'undefined' && document.querySelector('script[type="importmap"]');
  if (map) {
    try {
      for (const path of Object.keys(JSON.parse(map.textContent).imports || {})) {
        const m = /^\/i18n\/([a-z]{2,3}(?:-[A-Za-z0-9]+)*)\.json$/.exec(path);
        if (m) codes.add(m[1]);
      }
    } catch {
      // A broken map: English only.
    }
  }
  return [...codes].sort();
}

function savedLanguage() {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;  // storage blocked by the browser's settings
  }
}

// The saved choice, else the browser's first language with a catalog ("de-AT" finds "de").
export function chooseLanguage(available, saved, preferred) {
  if (saved && available.includes(saved)) return saved;
  for (const tag of preferred || []) {
    const lower = String(tag).toLowerCase();
    const exact = available.find((code) => code.toLowerCase() === lower);
    if (exact) return exact;
    const base = available.find((code) => code.toLowerCase() === lower.split('-')[0]);
    if (base) return base;
  }
  return FALLBACK;
}

// A catalog by its versioned address in the import map (kept by the browser for a year), or
// its plain one without a map.
async function loadCatalog(code) {
  const specifier = `/i18n/${code}.json`;
  const url = typeof import.meta.resolve === 'function' ? import.meta.resolve(specifier) : specifier;
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${specifier}: ${response.status}`);
  return response.json();
}

const browserLanguages = typeof navigator !== 'undefined' ? navigator.languages || [navigator.language] : [];
let lang = chooseLanguage(availableLanguages(), savedLanguage(), browserLanguages);
// Both at once: English is the fallback of every other.
const [englishLoaded, chosenLoaded] = await Promise.allSettled([loadCatalog(FALLBACK), lang === FALLBACK ? null : loadCatalog(lang)]);
// Without English (offline with nothing cached) t() answers with the key; the page says it is
// offline anyway.
const english = englishLoaded.status === 'fulfilled' ? englishLoaded.value : {};
let catalog = english;
if (lang !== FALLBACK) {
  if (chosenLoaded.status === 'fulfilled') {
    catalog = chosenLoaded.value;
  } else {
    // Offline with the catalog not cached, or a file gone with an update: English.
    console.warn(`i18n: no catalog for ${lang}`, chosenLoaded.reason);
    lang = FALLBACK;
  }
}

export const LANG = lang;
if (typeof document !== 'undefined') document.documentElement.lang = LANG;

const pluralRules = new Intl.PluralRules(LANG);
const numberFormat = new Intl.NumberFormat(LANG);
const warned = new Set();
const developing = typeof location !== 'undefined' && /^(localhost|127\.0\.0\.1|\[::1\])$/.test(location.hostname);

function lookup(key) {
  const text = catalog[key];
  if (text !== undefined) return text;
  // Missing in this language: the English text, never the key.
  if (developing && !warned.has(key)) {
    warned.add(key);
    console.warn(`i18n: "${key}" is missing in ${LANG}`);
  }
  return english[key] !== undefined ? english[key] : key;
}

// t('lobby.game', { id: 7 }) -> "Game 7". `count` picks the plural form and is written the
// language's way ("1.200"); other numbers as they are (a game id is no quantity: "Game 1200").
export function t(key, params) {
  let text = lookup(key);
  if (text && typeof text === 'object') {
    const n = params && typeof params.count === 'number' ? params.count : 0;
    text = text[pluralRules.select(n)] ?? text.other;
  }
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in params)) return whole;
    const value = params[name];
    return name === 'count' && typeof value === 'number' ? numberFormat.format(value) : String(value);
  });
}

// t() for a key that came as data (the catalog test reads the keys of t('...') calls).
const textOfKey = t;

// A message whose key came as data, from the server: {"key": "log.unitMoved", "params": {...}}
// (docs/protocol.md, "log line"). A parameter that is itself a message ({"key": "seat.red"}) is
// written in the same language first. null when a key is in no catalog (a newer server than
// this page's catalogs): the caller then shows the server's English text.
export function translateMessage(msg) {
  if (!msg || typeof msg.key !== 'string' || !(Object.hasOwn(catalog, msg.key) || Object.hasOwn(english, msg.key))) return null;
  const params = {};
  for (const [name, value] of Object.entries(msg.params || {})) {
    if (value && typeof value === 'object') {
      const nested = translateMessage(value);
      if (nested === null) return null;
      params[name] = nested;
    } else {
      params[name] = value;
    }
  }
  return textOfKey(msg.key, params);
}

// A line of the game log (or of the clock) in the reader's language: its message, else (a line
// kept from an older server) its English text.
export function logLineText(line) {
  return (line && translateMessage(line.msg)) ?? (line && line.text) ?? '';
}

// The plural category of n in the current language ('one', 'other', 'few', ...).
export function pluralCategory(n) {
  return pluralRules.select(n);
}

export function formatNumber(n) {
  return numberFormat.format(n);
}

// A date or moment in the current language: formatDate(ms), formatDate(ms, { dateStyle: 'long' }).
export function formatDate(at, options = { dateStyle: 'medium' }) {
  return new Intl.DateTimeFormat(LANG, options).format(new Date(at));
}

export function formatDateTime(at, options = { dateStyle: 'medium', timeStyle: 'short' }) {
  return new Intl.DateTimeFormat(LANG, options).format(new Date(at));
}

// "vor 3 Minuten", "3 minutes ago": Intl.RelativeTimeFormat of the current language.
const relativeFormat = typeof Intl.RelativeTimeFormat === 'function' ? new Intl.RelativeTimeFormat(LANG, { numeric: 'auto', style: 'long' }) : null;
export function formatRelative(value, unit) {
  return relativeFormat ? relativeFormat.format(value, unit) : `${value} ${unit}`;
}

// A language's name in that language ("Deutsch", "English"), for the switch.
export function languageName(code) {
  try {
    const name = new Intl.DisplayNames([code], { type: 'language' }).of(code);
    return name ? name[0].toLocaleUpperCase(code) + name.slice(1) : code;
  } catch {
    return code;
  }
}

// Saves the choice and reloads the page in that language.
export function switchLanguage(code) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Storage blocked by the browser's settings: the browser's language stays.
  }
  location.reload();
}
