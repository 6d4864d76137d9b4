// The bar atop every screen: the name, the connection, the language.

import { asset, h } from '../dom.js';
import { LANGUAGES, language, t } from '../i18n.js';
import { chooseLanguage } from '../app.js';

export function topBar() {
  return h('header', { class: 'bar' },
    h('a', { class: 'brand', href: '#' }, h('img', { src: asset('favicon.svg'), alt: '' }), 'Séance'),
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

/** Which game a new game is: Mysterium or the Mystery Rummy scorepad. */
export function gameSwitch(current) {
  return h('nav', { id: 'ruleset', class: 'segmented ruleset', 'aria-label': t('setup.which_game') },
    [['mysterium-classic', '#/new'], ['mystery-rummy', '#/new/rummy']].map(([ruleset, href]) => h('a', {
      href, class: 'button', 'data-ruleset': ruleset, 'aria-current': ruleset === current ? 'page' : false,
    }, t(`ruleset.${ruleset}`))));
}
