// The home screen: start or resume a game, the history, settings, and the join card with
// its QR code.

import { h } from '../dom.js';
import { t } from '../i18n.js';
import { qrUrl } from '../api.js';
import { topBar } from './chrome.js';
import { MYSTERIUM, pageOf } from '../rule_sets.js';

export function renderHome(ctx) {
  const address = new URL(ctx.info.join_url);
  const table = ctx.table;
  return h('div', { id: 'home', class: 'screen' },
    topBar(ctx),
    h('section', { class: 'home' },
      h('div', { class: 'hero' },
        h('h1', {}, 'Séance'),
        h('p', { class: 'tagline' }, t('app.tagline')),
        h('div', { class: 'actions' },
          table ? null : h('a', { id: 'join-game', class: 'button primary', href: '#/join' }, t('join.join_game')),
          table ? h('a', { id: 'new-game', class: 'button primary', href: pageOf(MYSTERIUM, 'new') }, t('home.new_game')) : null,
          table ? h('a', { id: 'resume', class: 'button', href: '#/games' }, t('home.resume')) : null,
          h('a', { id: 'to-history', class: 'button', href: '#/history' }, t('home.history')),
          h('a', { class: 'button', href: '#/settings' }, t('home.settings')))),
      h('aside', { class: 'join-card', 'aria-labelledby': 'join-title' },
        h('h2', { id: 'join-title' }, t('join.title')),
        h('img', { id: 'join-qr', class: 'qr', src: qrUrl(), width: 240, height: 240, alt: `QR: ${address.host}` }),
        h('p', { class: 'hint' }, t('join.hint')),
        h('dl', {},
          h('dt', {}, t('join.code')), h('dd', { id: 'table-code' }, ctx.info.join_code),
          h('dt', {}, t('join.address')), h('dd', { id: 'join-url' }, address.host)))));
}
