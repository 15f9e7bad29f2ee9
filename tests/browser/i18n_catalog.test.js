// The message catalogs (web-client/i18n/*.json, docs/client.md "Languages") against the code,
// without a browser: every key the client uses is in every catalog, every catalog key is used,
// each key has the same placeholders in every language, and plural entries have exactly the
// forms Intl.PluralRules has for that language. A key is used where the code calls t('key')
// with the key written out: the client computes no keys, and this test fails on a t() whose
// first argument is not a plain string.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { repoRoot } from './lib/harness.js';

const jsRoot = path.join(repoRoot, 'web-client', 'js');
const catalogDir = path.join(repoRoot, 'web-client', 'i18n');

function sourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) {
      if (full !== catalogDir) out.push(...sourceFiles(full));
    } else if (name.endsWith('.js')) {
      out.push(full);
    }
  }
  return out;
}

// The keys the code uses, and the t() calls a scan cannot read (computed keys). Whole-line
// comments are left out (they may show a call as an example).
export function scanKeys(files) {
  const used = new Map();  // key -> first file:line
  const computed = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, i) => {
      if (/^\s*\/\//.test(line)) return;
      const where = `${path.relative(repoRoot, file)}:${i + 1}`;
      for (const m of line.matchAll(/(?<![\w.$])t\(\s*('([^'\\]*)'|"([^"\\]*)"|[^\s)])/g)) {
        const key = m[2] ?? m[3];
        if (key === undefined) {
          if (!/function t\(/.test(line)) computed.push(`${where}: ${line.trim()}`);
        } else if (!used.has(key)) {
          used.set(key, where);
        }
      }
    });
  }
  return { used, computed };
}

// The server's keys: `"mail.signIn.subject"_key` literals in its sources (server/text/catalog.h).
const serverRoot = path.join(repoRoot, 'server');
function serverSourceFiles(dir) {
  const out = [];
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) out.push(...serverSourceFiles(full));
    else if (/\.(cpp|h)$/.test(name)) out.push(full);
  }
  return out;
}

export function scanServerKeys(files, used = new Map()) {
  for (const file of files) {
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      if (/^\s*\/\//.test(line)) return;
      for (const m of line.matchAll(/"([^"\\]+)"_key\b/g)) {
        if (!used.has(m[1])) used.set(m[1], `${path.relative(repoRoot, file)}:${i + 1}`);
      }
    });
  }
  return used;
}

// Every key in use: the client's and the server's.
function allKeys() {
  const { used, computed } = scanKeys(sourceFiles(jsRoot));
  scanServerKeys(serverSourceFiles(serverRoot), used);
  return { used, computed };
}

function loadCatalog(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

async function loadCatalogs() {
  const catalogs = {};
  for (const name of readdirSync(catalogDir).filter((n) => n.endsWith('.json')).sort()) {
    catalogs[name.slice(0, -5)] = loadCatalog(path.join(catalogDir, name));
  }
  return catalogs;
}

const placeholders = (text) => [...String(text).matchAll(/\{(\w+)\}/g)].map((m) => m[1]);

// The placeholders of an entry, all forms together.
function entryPlaceholders(entry) {
  const forms = typeof entry === 'object' ? Object.values(entry) : [entry];
  return [...new Set(forms.flatMap(placeholders))].sort();
}

// Everything wrong with the catalogs against the code, as sentences (empty: all is well).
export function catalogProblems(catalogs, used, computed) {
  const problems = computed.map((c) => `computed key (write the key out): ${c}`);
  const english = catalogs.en;
  if (!english) return [...problems, 'no English catalog (en.json), the fallback of every other'];
  for (const [lang, catalog] of Object.entries(catalogs)) {
    if (!/^[a-z]{2,3}(-[A-Za-z0-9]+)*$/.test(lang)) problems.push(`${lang}.json: not a language code js/i18n.js reads`);
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories;
    for (const [key, where] of used) {
      if (!(key in catalog)) problems.push(`${lang}: missing "${key}" (used in ${where})`);
    }
    for (const [key, entry] of Object.entries(catalog)) {
      if (!used.has(key)) problems.push(`${lang}: "${key}" is used nowhere in web-client/js or server/`);
      if (!(key in english)) problems.push(`${lang}: "${key}" is not in the English catalog`);
      if (typeof entry === 'object' && entry !== null) {
        const forms = Object.keys(entry).sort();
        const wanted = [...categories].sort();
        if (forms.join() !== wanted.join()) problems.push(`${lang}: plural "${key}" has forms ${forms.join(', ')}; ${lang} needs ${wanted.join(', ')}`);
        for (const form of forms) {
          if (typeof entry[form] !== 'string') problems.push(`${lang}: "${key}".${form} is not a string`);
        }
      } else if (typeof entry !== 'string') {
        problems.push(`${lang}: "${key}" is neither a string nor plural forms`);
      }
      if (key in english) {
        const isPlural = typeof entry === 'object';
        if (isPlural !== (typeof english[key] === 'object')) problems.push(`${lang}: "${key}" is plural in one language and not in the other`);
        const mine = entryPlaceholders(entry).join();
        const theirs = entryPlaceholders(english[key]).join();
        if (mine !== theirs) problems.push(`${lang}: "${key}" has placeholders {${mine}}, English {${theirs}}`);
      }
    }
  }
  return problems;
}

test('every key used in web-client/js is in every catalog, and every catalog key is used', async () => {
  const catalogs = await loadCatalogs();
  assert.ok(Object.keys(catalogs).length >= 2, 'English and German at least');
  const { used, computed } = allKeys();
  assert.ok(used.size > 100, `the scan finds the keys (${used.size})`);
  assert.deepEqual(catalogProblems(catalogs, used, computed), []);
});

// The check itself must be able to fail: each kind of mistake, made on a copy of the real
// catalogs, is found.
test('the catalog check finds a missing key, an unused key, a placeholder mismatch, a wrong plural and a computed key', async () => {
  const catalogs = await loadCatalogs();
  const { used, computed } = allKeys();
  const copy = () => Object.fromEntries(Object.entries(catalogs).map(([lang, c]) => [lang, { ...c }]));

  const missing = copy();
  delete missing.de['lobby.openGames'];
  assert.deepEqual(catalogProblems(missing, used, computed), [`de: missing "lobby.openGames" (used in ${used.get('lobby.openGames')})`]);

  const unused = copy();
  unused.en['lobby.neverUsed'] = 'Never used';
  unused.de['lobby.neverUsed'] = 'Nie benutzt';
  assert.deepEqual(catalogProblems(unused, used, computed), ['de: "lobby.neverUsed" is used nowhere in web-client/js or server/', 'en: "lobby.neverUsed" is used nowhere in web-client/js or server/']);

  const renamed = copy();
  renamed.de['invite.title'] = '{wer} lädt dich zu Partie {id} ein';
  assert.match(catalogProblems(renamed, used, computed).join('\n'), /de: "invite.title" has placeholders \{id,wer\}, English \{id,name\}/);

  const plural = copy();
  plural.de['lobby.games'] = { one: '{count} Partie', few: '{count} Partien', other: '{count} Partien' };
  assert.match(catalogProblems(plural, used, computed).join('\n'), /de: plural "lobby.games" has forms few, one, other; de needs one, other/);

  assert.match(catalogProblems(catalogs, used, ["web-client/js/x.js:1: t(`lobby.${name}`)"]).join('\n'), /computed key/);
});

test('the scan reads t() calls and only those', async () => {
  const { mkdtempSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(path.join(tmpdir(), 'i18n-scan-'));
  const file = path.join(dir, 'x.js');
  writeFileSync(file, ["h('p', {}, t('a.one'), t(\"a.two\", { n: 1 }));", '// t(\'a.comment\')', 'const n = count(3); format(\'x\'); obj.t(\'not.this\');', 'const k = t(key);', 'x = t(`a.${b}`);'].join('\n'));
  const { used, computed } = scanKeys([file]);
  assert.deepEqual([...used.keys()], ['a.one', 'a.two']);
  assert.equal(computed.length, 2);
  const cpp = path.join(dir, 'x.cpp');
  writeFileSync(cpp, ['auto s = catalogs().text(lang, "mail.subject"_key, {{"id", 3}});', '// "mail.comment"_key', 'const char* not_a_key = "mail.plain";'].join('\n'));
  assert.deepEqual([...scanServerKeys([cpp]).keys()], ['mail.subject']);
});

// js/i18n.js itself, run by node on a copy of the web root's files (the browser's globals made
// up): the language chosen from the import map, the saved choice and the browser's languages;
// plurals and numbers in that language; a key missing in a catalog shows the English text.
test('js/i18n.js: the language from the saved choice or the browser, the English text for a missing key', async () => {
  const { cpSync, mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { pathToFileURL } = await import('node:url');
  const dir = mkdtempSync(path.join(tmpdir(), 'i18n-run-'));
  const realFetch = globalThis.fetch;
  try {
    writeFileSync(path.join(dir, 'package.json'), '{"type":"module"}');
    cpSync(path.join(jsRoot, 'i18n.js'), path.join(dir, 'i18n.js'));
    cpSync(catalogDir, path.join(dir, 'i18n'), { recursive: true });
    // German without one of its keys.
    const german = loadCatalog(path.join(catalogDir, 'de.json'));
    delete german['lobby.openGamesHelp'];
    writeFileSync(path.join(dir, 'i18n', 'de.json'), JSON.stringify(german));

    const page = ({ languages, saved = null, importMap = true }) => {
      const imports = { '/js/i18n.js': '/js/i18n.js?v=1', '/i18n/de.json': '/i18n/de.json?v=2', '/i18n/en.json': '/i18n/en.json?v=3', '/js/lobby.js': '/js/lobby.js?v=4' };
      const documentElement = {};
      const fake = {
        document: { documentElement, querySelector: () => (importMap ? { textContent: JSON.stringify({ imports }) } : null) },
        navigator: { languages, language: languages[0] },
        localStorage: { getItem: (k) => (k === 'viktory.lang' ? saved : null) },
        // The catalog a URL names, from the copy (node resolves "/i18n/de.json" to a file URL).
        fetch: async (url) => {
          const file = path.join(dir, 'i18n', path.basename(new URL(String(url), 'file:///').pathname));
          try {
            const body = readFileSync(file, 'utf8');
            return { ok: true, status: 200, json: async () => JSON.parse(body) };
          } catch {
            return { ok: false, status: 404, json: async () => ({}) };
          }
        },
      };
      for (const [name, value] of Object.entries(fake)) Object.defineProperty(globalThis, name, { value, configurable: true, writable: true });
      return documentElement;
    };
    let run = 0;
    const load = () => import(`${pathToFileURL(path.join(dir, 'i18n.js')).href}?run=${(run += 1)}`);

    const html = page({ languages: ['fr-FR', 'de-AT', 'en'] });
    const de = await load();
    assert.equal(de.LANG, 'de');
    assert.equal(html.lang, 'de');
    assert.deepEqual(de.availableLanguages(), ['de', 'en']);
    assert.equal(de.t('lobby.openGames'), 'Offene Partien');
    assert.equal(de.t('lobby.openGamesHelp'), 'Public games waiting for players, oldest first. This list updates by itself.');
    assert.equal(de.t('lobby.games', { count: 1 }), '1 Partie');
    assert.equal(de.t('lobby.games', { count: 1200 }), '1.200 Partien');
    assert.equal(de.t('lobby.game', { id: 1200 }), 'Partie 1200');
    assert.equal(de.formatNumber(1234.5), '1.234,5');
    assert.equal(de.languageName('de'), 'Deutsch');
    assert.equal(de.languageName('en'), 'English');
    // A message whose key came as data (a log line's `msg`), its message parameters written
    // first; the server's English text for a line without one or with a key no catalog has.
    const moved = { key: 'log.unitMovedByRoad', params: { player: { key: 'seat.yellow' }, unit: { key: 'log.unit.cavalry' }, from: 'E5', to: 'F6' } };
    assert.equal(de.translateMessage(moved), 'Gelb: Kavallerie zieht auf der Straße von E5 nach F6.');
    assert.equal(de.logLineText({ text: "Yellow's Cavalry moves from E5 to F6 by road.", msg: moved }), 'Gelb: Kavallerie zieht auf der Straße von E5 nach F6.');
    assert.equal(de.translateMessage({ key: 'log.diceAveraged', params: { player: { key: 'seat.red' }, count: 2, hex: 'F6' } }), 'Rot wirft auf F6 2 Würfelpaare nicht: 2 automatische Treffer.');
    assert.equal(de.logLineText({ text: 'A newer line.', msg: { key: 'log.fromANewerServer' } }), 'A newer line.');
    assert.equal(de.logLineText({ text: 'A newer part.', msg: { key: 'log.and', params: { first: { key: 'seat.red' }, second: { key: 'seat.magenta' } } } }), 'A newer part.');
    assert.equal(de.logLineText({ text: 'A stored clock line.' }), 'A stored clock line.');
    assert.equal(de.translateMessage({ key: 'constructor' }), null);
    // A moment is written in the reader's language and time zone, with the zone named.
    assert.match(de.translateMessage({ key: 'log.clock.vacation', params: { player: { key: 'seat.red' }, duration: { key: 'log.duration.days', params: { count: 2 } }, until: { time: Date.UTC(2026, 10, 29, 4, 51) } } }), /29\. Nov\. 2026, \d\d:51 \S+\.$/);

    page({ languages: ['de-DE'], saved: 'en' });
    assert.equal((await load()).LANG, 'en', 'the saved choice wins over the browser');
    page({ languages: ['de-DE'], saved: 'xx' });
    assert.equal((await load()).LANG, 'de', 'a saved language without a catalog is passed over');
    page({ languages: ['de-DE'], importMap: false });
    const plain = await load();
    assert.equal(plain.LANG, 'en', 'without an import map: English only');
    assert.equal(plain.t('lobby.games', { count: 1200 }), '1,200 games');
    assert.equal(plain.t('no.such.key'), 'no.such.key');
  } finally {
    for (const name of ['document', 'navigator', 'localStorage']) delete globalThis[name];
    globalThis.fetch = realFetch;
    rmSync(dir, { recursive: true, force: true });
  }
});
