// The bar atop every screen: the name, the connection, the language.

import { h } from '../dom.js';
import { LANGUAGES, language } from '../i18n.js';
import { chooseLanguage } from '../app.js';

export function topBar() {
  return h('header', { class: 'bar' },
    h('a', { class: 'brand', href: '#' }, h('img', { src: 'favicon.svg', alt: '' }), 'Séance'),
    h('div', { id: 'connection', class: 'connection', role: 'status' },
      h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'label' })),
    languageSwitch());
}

/** EN · FR · IT; `choose` defaults to setting the table's (or this phone's) language. */
export function languageSwitch(choose = chooseLanguage) {
  return h('nav', { class: 'languages', 'aria-label': 'Language / Langue / Lingua' },
    LANGUAGES.map((lang) => h('button', {
      type: 'button', lang, 'aria-pressed': String(lang === language()),
      onclick: () => choose(lang),
    }, lang.toUpperCase())));
}
