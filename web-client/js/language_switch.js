// The language switch (welcome page, account page): the languages on offer, each named in its
// own language ("English", "Deutsch"); choosing one saves it and reloads the page (js/i18n.js).
// `labelled`: with its own visible label (false: under a heading that says it, the account page).

import { h } from './util.js';
import { LANG, availableLanguages, languageName, switchLanguage, t } from './i18n.js';

export function languageSwitch({ labelled = true } = {}) {
  const select = h(
    'select',
    { id: 'language', name: 'language', 'aria-label': labelled ? null : t('language.label'), onchange: () => switchLanguage(select.value) },
    availableLanguages().map((code) => h('option', { value: code, lang: code, selected: code === LANG }, languageName(code))),
  );
  if (!labelled) return h('div', { class: 'language-switch' }, select);
  return h('label', { class: 'field language-switch', for: 'language' }, h('span', {}, t('language.label')), select);
}
