// A new Mystery Rummy scorepad: 2 to 4 players in seating order. Empty names take their
// placeholder, so a table starts in two taps.

import { h, toast } from '../../dom.js';
import { t } from '../../i18n.js';
import { api, gamePath } from '../../api.js';
import { gameSwitch, topBar } from '../chrome.js';
import { MYSTERY_RUMMY, factsOf, pageOf, ruleSet } from '../../rule_sets.js';

const form = { players: 3 };

async function start() {
  const button = document.getElementById('start-rummy');
  if (button.disabled) return;
  button.disabled = true;
  const players = Array.from({ length: form.players }, (_, i) => {
    const input = document.getElementById(`rummy-name-${i}`);
    return input.value.trim() || input.placeholder;
  });
  try {
    const { id } = await api(gamePath(ruleSet(MYSTERY_RUMMY).key), { method: 'POST', body: { setup: { players } } });
    location.hash = pageOf(MYSTERY_RUMMY, 'game', id);
  } catch (error) {
    toast(error.message);
    button.disabled = false;
  }
}

export function renderRummySetup(ctx) {
  const typed = [...document.querySelectorAll('#rummy-setup input')].map((el) => [el.id, el.value]);
  const screen = h('div', { id: 'rummy-setup', class: 'screen' },
    topBar(ctx),
    h('form', { class: 'panel wide', onsubmit: (e) => { e.preventDefault(); start(); } },
      h('h1', {}, t('rummy.setup_title')),
      gameSwitch(MYSTERY_RUMMY),
      h('fieldset', { class: 'choice', id: 'rummy-players' },
        h('legend', {}, t('rummy.players')),
        h('div', { class: 'segmented' }, factsOf(MYSTERY_RUMMY).players.map((n) => h('button', {
          type: 'button', 'data-value': n, 'aria-pressed': String(n === form.players),
          onclick: () => { form.players = n; ctx.showScreen(renderRummySetup(ctx)); },
        }, String(n))))),
      h('p', { class: 'note' }, t('rummy.deal', { n: factsOf(MYSTERY_RUMMY).deal[form.players] })),
      h('div', { class: 'players' }, Array.from({ length: form.players }, (_, i) => h('div', { class: 'player-row' },
        h('label', { for: `rummy-name-${i}` }, t('rummy.seat_n', { n: i + 1 })),
        h('input', { id: `rummy-name-${i}`, class: 'name', type: 'text', placeholder: t('rummy.player_n', { n: i + 1 }), maxlength: ctx.info.setup.name_chars, autocomplete: 'off' })))),
      h('p', { class: 'note' }, t('rummy.seating_hint')),
      h('div', { class: 'row' },
        h('button', { id: 'start-rummy', type: 'button', class: 'primary', onclick: start }, t('rummy.start')),
        h('a', { class: 'button', href: '#' }, t('settings.back')))));
  queueMicrotask(() => {
    for (const [id, value] of typed) {
      const el = document.getElementById(id);
      if (el) el.value = value;
    }
  });
  return screen;
}
