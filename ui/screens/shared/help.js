// The help behind "?", as every rule set's screens have it: a topic's steps with the box
// and what each mark on the screen means (each game says its topic). A first game of
// Mysterium can keep the steps on the table screen itself; that choice is this device's.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';

let shown = false;
const GUIDE = 'seance.guide';

/** Whether the table shows the phase's steps on the board (a first game). */
export function guiding() {
  return localStorage.getItem(GUIDE) === 'on';
}

export function setGuiding(on) {
  localStorage.setItem(GUIDE, on ? 'on' : 'off');
}

function toggle(ctx, open) {
  shown = open;
  ctx.render();
  if (open) queueMicrotask(() => document.getElementById('help-close')?.focus({ preventScroll: true }));
}

/** The bar's "?" button. */
export function helpButton(ctx) {
  return h('button', {
    id: 'help', type: 'button', 'aria-label': t('help.open'), title: t('help.open'), 'aria-expanded': String(shown),
    onclick: () => toggle(ctx, !shown),
  }, '?');
}

/** Steps worded under `key`, one a line, as a numbered list. */
export function steps(key) {
  return h('ol', { class: 'guide-steps' }, t(key).split('\n').map((step) => h('li', {}, step)));
}

/** The help over the screen, when open: `topic` says what it tells (`title`, its `steps`'
 * key, the marks of its `legend`, and whether its steps may go on the `board`); the table
 * may put them there. */
export function helpPanel(ctx, topic) {
  if (!shown) return null;
  const close = () => toggle(ctx, false);
  return h('div', { class: 'help-backdrop', onclick: (e) => { if (e.target === e.currentTarget) close(); } },
    h('section', {
      id: 'help-panel', class: 'panel help-panel', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'help-title',
      onkeydown: (e) => { if (e.key === 'Escape') close(); },
    },
    // Its title and its close stay at its top as it scrolls: in reach on the smallest phone.
    h('div', { class: 'help-head' },
      h('h2', { id: 'help-title' }, t('help.title', { phase: topic.title })),
      h('button', { id: 'help-close', type: 'button', 'aria-label': t('help.close'), title: t('help.close'), onclick: close }, '✕')),
    steps(topic.steps),
    topic.legend.length ? h('div', {}, h('h2', {}, t('help.legend')),
      h('ul', { class: 'legend-list' }, topic.legend.map((key) => h('li', { 'data-legend': key }, t(`legend.${key}`))))) : null,
    ctx.table && topic.board ? h('label', { class: 'check' },
      h('input', {
        id: 'guide-on', type: 'checkbox', checked: guiding(),
        onchange: (e) => { setGuiding(e.target.checked); ctx.render(); },
      }),
      t('help.guide')) : null,
    h('div', { class: 'row' },
      h('button', { id: 'help-back', type: 'button', class: 'primary', onclick: close }, t('help.close')))));
}
