// About Séance: its version and licence, and the licences of all it ships (the font, the
// vendored chart library, and every library built into the app, from `licences.json`,
// which `scripts/licences` makes from the dependency tree with cargo-about).

import { asset, h } from '../dom.js';
import { language, t } from '../i18n.js';
import { topBar } from './chrome.js';

/** `licences.json`, fetched the first time the screen shows. */
let shipped = null;
let asked = false;

function fetchLicences(ctx) {
  asked = true;
  fetch(asset('licences.json'))
    .then((response) => (response.ok ? response.json() : Promise.reject(new Error(response.statusText))))
    .then((json) => { shipped = json; })
    .catch(() => { asked = false; shipped = { failed: true }; })
    .finally(() => { if (location.hash === '#/licences') ctx.render(); });
}

/** A licence's text, folded away until asked for. */
const text = (body) => h('details', {}, h('summary', {}, t('licences.text')), h('pre', {}, body));

/** Works shipped as they are (the font, the chart library): each with its authors and licence. */
function credits(id, title, works, words) {
  return h('section', { id },
    h('h2', {}, title),
    works.map((work) => h('article', { class: 'licence' },
      h('h3', {}, work.name),
      h('p', {}, t(words, {
        by: new Intl.ListFormat(language(), { type: 'conjunction' }).format(work.by), licence: work.licence,
      })),
      text(work.text))));
}

function libraries(licences) {
  // A library under two licences (MIT or Apache-2.0) is listed under each, counted once.
  const count = new Set(licences.flatMap((l) => l.used_by)).size;
  return h('section', { id: 'licences-libraries', 'aria-labelledby': 'licences-libraries-title' },
    h('h2', { id: 'licences-libraries-title' }, t('licences.libraries', { n: count })),
    h('p', { class: 'note' }, t('licences.libraries_hint')),
    licences.map((licence) => h('article', { class: 'licence' },
      h('h3', {}, licence.name),
      h('p', { class: 'used-by' }, licence.used_by.join(', ')),
      text(licence.text))));
}

export function renderLicences(ctx) {
  if (!asked) fetchLicences(ctx);
  const body = shipped === null ? h('p', { class: 'note' }, '…')
    : shipped.failed ? h('p', { class: 'note', role: 'alert' }, t('licences.failed'))
      : [
        h('section', { id: 'licences-app' },
          h('h2', {}, t('licences.app_title')),
          h('p', {}, t('licences.app', { version: ctx.info.version, licence: shipped.app.licence })),
          text(shipped.app.text)),
        credits('licences-fonts', t('licences.fonts'), shipped.fonts, 'licences.font'),
        credits('licences-scripts', t('licences.scripts'), shipped.scripts, 'licences.script'),
        libraries(shipped.libraries),
      ];
  return h('div', { id: 'licences', class: 'screen' },
    topBar(ctx),
    h('section', { class: 'panel' },
      h('h1', {}, t('licences.title')),
      body,
      h('a', { class: 'button', href: '#/settings' }, t('settings.back'))));
}
