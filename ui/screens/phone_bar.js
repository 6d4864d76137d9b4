// A seat's bar on a phone, and the phone's own menu: fetched with a seat's screen, never by
// a phone that only joins.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { awake, onAwakeChange } from '../awake.js';
import { chimes, setChimes, vibrates } from '../tell.js';
import { languageSwitch } from './chrome.js';

/**
 * A seat's bar on a phone, on one line: its colour, who holds the seat, what the game shows
 * beside it (the hour), the connection's dot, the game's "?" and this phone's menu. With
 * it, the place of the toast and the reconnect banner (see showScreen in app.js), which lie
 * over the page at the screen's foot: the bar stays one line high.
 */
export function phoneBar(ctx, { who, colour = null, aside = null, help = null }) {
  // Kept in sight as the page scrolls.
  return h('div', { class: 'phone-top' },
    h('header', { class: 'bar phone-bar' },
      h('span', { class: 'swatch', 'aria-hidden': 'true', dataset: colour ? { colour } : {} }),
      h('h1', { id: 'phone-me', class: 'who' }, who),
      aside,
      h('div', { id: 'connection', class: 'connection compact dot-only', role: 'status' },
        h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'label visually-hidden' })),
      help,
      phoneMenu(ctx)),
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
function phoneMenu(ctx) {
  // Open as it is on screen now: its toggle event comes later than a render may.
  const open = document.getElementById('phone-menu')?.open ?? false;
  return h('details', { id: 'phone-menu', class: 'phone-menu', open },
  h('summary', { 'aria-label': t('phone.menu'), title: t('phone.menu') }, '⚙'),
  h('div', { class: 'menu-panel panel' },
    languageSwitch(ctx),
    vibrates() ? null : h('label', { class: 'switch' },
      h('input', {
        id: 'phone-chime', type: 'checkbox', checked: chimes(),
        onchange: (e) => setChimes(e.currentTarget.checked),
      }),
      t('phone.chime')),
    awakeLine()));
}
