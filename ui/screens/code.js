// Shown when this device has no table code, or a wrong one: type the code from the table,
// as a person types it (`setCode` reads spaces, dashes, case and look-alike letters).

import { h } from '../dom.js';
import { setLanguage, t } from '../i18n.js';
import { setCode } from '../api.js';
import { languageSwitch } from './chrome.js';

export function renderCodeEntry(wrong, retry) {
  const input = h('input', {
    id: 'code-input', name: 'code', autocomplete: 'off', autocapitalize: 'characters',
    spellcheck: 'false', inputmode: 'text', placeholder: 'ABCDE-FGHJK', required: true,
  });
  return h('div', { id: 'code-entry', class: 'screen' },
    h('form', {
      class: 'panel', onsubmit: (event) => { event.preventDefault(); setCode(input.value); retry(); },
    },
    h('h1', {}, t('code.title')),
    h('p', {}, t('code.hint')),
    wrong ? h('p', { class: 'error', role: 'alert' }, t('code.wrong')) : null,
    h('label', { for: 'code-input' }, t('code.label')), input,
    h('button', { type: 'submit', class: 'primary' }, t('code.join')),
    languageSwitch(null, (lang) => setLanguage(lang, { remember: true }).then(retry))));
}
