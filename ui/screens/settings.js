// The settings screen.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { languageSwitch, topBar } from './chrome.js';

export function renderSettings(state) {
  return h('div', { id: 'settings', class: 'screen' },
    topBar(),
    h('section', { class: 'panel' },
      h('h1', {}, t('settings.title')),
      h('h2', {}, t('settings.language')),
      languageSwitch(),
      h('p', { class: 'note' }, t('settings.language_hint')),
      h('p', { class: 'about' }, t('settings.about', { version: state.info.version })),
      h('a', { class: 'button', href: '#' }, t('settings.back'))));
}
