// The bar atop every screen: the name, the connection, the language.

import { asset, h } from '../dom.js';
import { LANGUAGES, language, t } from '../i18n.js';
import { chooseLanguage } from '../app.js';
import { awake, onAwakeChange } from '../awake.js';
import { chimes, setChimes, vibrates } from '../tell.js';

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

/**
 * A seat's bar on a phone, on one line: its colour, who holds the seat, what the game shows
 * beside it (the hour), the connection's dot, the game's "?" and this phone's menu. Under
 * it, the place where the toast and the reconnect banner come (see showScreen in app.js).
 */
export function phoneBar({ who, colour = null, aside = null, help = null }) {
  // Kept in sight as the page scrolls, with what it has to say under it.
  return h('div', { class: 'phone-top' },
    h('header', { class: 'bar phone-bar' },
      h('span', { class: 'swatch', 'aria-hidden': 'true', dataset: colour ? { colour } : {} }),
      h('h1', { id: 'phone-me', class: 'who' }, who),
      aside,
      h('div', { id: 'connection', class: 'connection compact dot-only', role: 'status' },
        h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'label visually-hidden' })),
      help,
      phoneMenu()),
    h('div', { class: 'notices' }));
}

/** Whether this phone's screen is kept awake, said in its menu (hidden while not wanted). */
function awakeLine() {
  const state = awake();
  return h('p', { id: 'phone-awake', class: 'note', 'data-awake': state, hidden: state === 'off' },
    state === 'off' ? null : t(`phone.awake.${state}`));
}

// The line follows the wake lock as it is taken or refused, without drawing the screen again.
onAwakeChange(() => document.getElementById('phone-awake')?.replaceWith(awakeLine()));

/** This phone's own settings: its language, its chime, and whether it stays awake. */
function phoneMenu() {
  // Open as it is on screen now: its toggle event comes later than a render may.
  const open = document.getElementById('phone-menu')?.open ?? false;
  return h('details', { id: 'phone-menu', class: 'phone-menu', open },
  h('summary', { 'aria-label': t('phone.menu'), title: t('phone.menu') }, '⚙'),
  h('div', { class: 'menu-panel panel' },
    languageSwitch(),
    vibrates() ? null : h('label', { class: 'switch' },
      h('input', {
        id: 'phone-chime', type: 'checkbox', checked: chimes(),
        onchange: (e) => setChimes(e.currentTarget.checked),
      }),
      t('phone.chime')),
    awakeLine()));
}

/** Which game a new game is: Mysterium or the Mystery Rummy scorepad. */
export function gameSwitch(current) {
  return h('nav', { id: 'ruleset', class: 'segmented ruleset', 'aria-label': t('setup.which_game') },
    [['mysterium-classic', '#/new'], ['mystery-rummy', '#/new/rummy']].map(([ruleset, href]) => h('a', {
      href, class: 'button', 'data-ruleset': ruleset, 'aria-current': ruleset === current ? 'page' : false,
    }, t(`ruleset.${ruleset}`))));
}
