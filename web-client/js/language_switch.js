// The language switch (welcome page, account page): the languages on offer, each named in its
// own language ("English", "Deutsch"); choosing one saves it and reloads the page (js/i18n.js).
// `labelled`: with its own visible label (false: under a heading that says it, the account page).
// `compact`: the top bar's, on every page: the language codes only (EN, DE), named for screen
// readers by its aria-label and for the mouse by each option's title.

import { h } from './util.js';
import { LANG, availableLanguages, languageName, switchLanguage, t } from './i18n.js';

export function languageSwitch({ labelled = true, compact = false } = {}) {
  if (compact) {
    const small = h(
      'select',
      { id: 'topbar-language', class: 'topbar-language', 'aria-label': t('language.label'), title: t('language.label'), onchange: () => switchLanguage(small.value) },
      availableLanguages().map((code) => h('option', { value: code, lang: code, title: languageName(code), selected: code === LANG }, code.toUpperCase())),
    );
    return small;
  }
  const select = h(
    'select',
    { id: 'language', name: 'language', 'aria-label': labelled ? null : t('language.label'), onchange: () => switchLanguage(select.value) },
    availableLanguages().map((code) => h('option', { value: code, lang: code, selected: code === LANG }, languageName(code))),
  );
  if (!labelled) return h('div', { class: 'language-switch' }, select);
  return h('label', { class: 'field language-switch', for: 'language' }, h('span', {}, t('language.label')), select);
}
