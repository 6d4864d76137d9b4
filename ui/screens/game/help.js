// The table's help: what to do with the box in this phase, step by step (`guide.<phase>`,
// with the new edition's own steps), and what each mark on the screen means. A first game
// can keep the steps on the table screen itself; that choice is this device's.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { render } from '../../app.js';

let shown = false;
const GUIDE = 'seance.guide';

/** Whether the table shows the phase's steps on the board (a first game). */
export function guiding() {
  return localStorage.getItem(GUIDE) === 'on';
}

function toggle(open) {
  shown = open;
  render();
  if (open) queueMicrotask(() => document.getElementById('help-close')?.focus({ preventScroll: true }));
}

/** The bar's "?" button. */
export function helpButton() {
  return h('button', {
    id: 'help', type: 'button', 'aria-label': t('help.open'), title: t('help.open'), 'aria-expanded': String(shown),
    onclick: () => toggle(!shown),
  }, '?');
}

/** This phase's steps, as a numbered list. */
export function steps(view) {
  return h('ol', { class: 'guide-steps' }, t(`guide.${view.phase}`).split('\n').map((step) => h('li', {}, step)));
}

/** The steps on the board, in a first game. */
export function guide(view) {
  return guiding() ? h('section', { id: 'guide', class: 'guide', 'aria-label': t('help.open') }, steps(view)) : null;
}

/** What the marks on this game's screen mean: only those it shows. */
function legend(view) {
  const keys = [
    view.track_side && 'space', view.track_side && 'level', view.tokens_per_psychic && 'held',
    view.tokens_per_psychic && 'token', view.track_side && 'marker', 'progress', 'phone',
  ].filter(Boolean);
  return h('ul', { class: 'legend-list' }, keys.map((key) => h('li', { 'data-legend': key }, t(`legend.${key}`))));
}

/** The help over the game, when open; `table`: this device may turn on the first-game steps. */
export function helpPanel(view, table) {
  if (!shown) return null;
  return h('div', { class: 'help-backdrop', onclick: (e) => { if (e.target === e.currentTarget) toggle(false); } },
    h('section', {
      id: 'help-panel', class: 'panel help-panel', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'help-title',
      onkeydown: (e) => { if (e.key === 'Escape') toggle(false); },
    },
    h('div', {}, h('h2', { id: 'help-title' }, t('help.title', { phase: t(`phase.${view.phase}`) })), steps(view)),
    h('div', {}, h('h2', {}, t('help.legend')), legend(view)),
    table ? h('label', { class: 'check' },
      h('input', {
        id: 'guide-on', type: 'checkbox', checked: guiding(),
        onchange: (e) => { localStorage.setItem(GUIDE, e.target.checked ? 'on' : 'off'); render(); },
      }),
      t('help.guide')) : null,
    h('div', { class: 'row' },
      h('button', { id: 'help-close', type: 'button', class: 'primary', onclick: () => toggle(false) }, t('help.close')))));
}
