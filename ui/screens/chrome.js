// The bar atop every screen: the name, the connection, the language.

import { asset, h } from '../dom.js';
import { LANGUAGES, language, setLanguage, t } from '../i18n.js';
import { api } from '../api.js';
import { isTable, render, state } from '../context.js';

/** The table sets the table's language; others only their own. */
async function chooseLanguage(lang) {
  if (isTable()) {
    state.settings = await api('/settings', { method: 'PUT', body: { ...state.settings, language: lang } });
    await setLanguage(lang);
  } else {
    await setLanguage(lang, { remember: true });
  }
  render();
}

export function topBar() {
  return h('header', { class: 'bar' },
    h('a', { class: 'brand', href: '#' }, h('img', { src: asset('icons/brand.png'), alt: '' }), 'Séance'),
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
