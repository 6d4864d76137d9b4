// The help behind "?": what to do with the box now, step by step (Mysterium's
// `guide.<phase>`, with the new edition's own steps; Mystery Rummy's round), and what each
// mark on the screen means. A first game of Mysterium can keep the steps on the table
// screen itself; that choice is this device's.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { render } from '../../context.js';

let shown = false;
const GUIDE = 'seance.guide';

/** Whether the table shows the phase's steps on the board (a first game). */
export function guiding() {
  return localStorage.getItem(GUIDE) === 'on';
}

export function setGuiding(on) {
  localStorage.setItem(GUIDE, on ? 'on' : 'off');
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

/** Steps worded under `key`, one a line, as a numbered list. */
function steps(key) {
  return h('ol', { class: 'guide-steps' }, t(key).split('\n').map((step) => h('li', {}, step)));
}

/** The steps on the board, in a first game. */
export function guide(view) {
  return guiding() ? h('section', { id: 'guide', class: 'guide', 'aria-label': t('help.open') }, steps(`guide.${view.phase}`)) : null;
}

/** What the help of a Mysterium game tells: this phase's steps, and what the marks on its
 * screen mean (only those it shows); the first-game steps may go on its board. */
export function mysteriumHelp(view) {
  const legend = [
    view.track_side && 'space', view.track_side && 'level', view.tokens_per_psychic && 'held',
    view.tokens_per_psychic && 'token', view.track_side && 'marker', 'progress', 'phone',
  ].filter(Boolean);
  return { title: t(`phase.${view.phase}`), steps: `guide.${view.phase}`, legend, board: true };
}

/** What the help of a Mystery Rummy scorepad tells: a round, from the deal to the score. */
export function rummyHelp() {
  return { title: t('ruleset.mystery-rummy'), steps: 'guide.rummy', legend: [], board: false };
}

/** The help over the screen, when open: `topic` (above) says what it tells; `table`: this
 * device may put the steps on its board. */
export function helpPanel(topic, table) {
  if (!shown) return null;
  return h('div', { class: 'help-backdrop', onclick: (e) => { if (e.target === e.currentTarget) toggle(false); } },
    h('section', {
      id: 'help-panel', class: 'panel help-panel', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'help-title',
      onkeydown: (e) => { if (e.key === 'Escape') toggle(false); },
    },
    // Its title and its close stay at its top as it scrolls: in reach on the smallest phone.
    h('div', { class: 'help-head' },
      h('h2', { id: 'help-title' }, t('help.title', { phase: topic.title })),
      h('button', { id: 'help-close', type: 'button', 'aria-label': t('help.close'), title: t('help.close'), onclick: () => toggle(false) }, '✕')),
    steps(topic.steps),
    topic.legend.length ? h('div', {}, h('h2', {}, t('help.legend')),
      h('ul', { class: 'legend-list' }, topic.legend.map((key) => h('li', { 'data-legend': key }, t(`legend.${key}`))))) : null,
    table && topic.board ? h('label', { class: 'check' },
      h('input', {
        id: 'guide-on', type: 'checkbox', checked: guiding(),
        onchange: (e) => { setGuiding(e.target.checked); render(); },
      }),
      t('help.guide')) : null,
    h('div', { class: 'row' },
      h('button', { id: 'help-back', type: 'button', class: 'primary', onclick: () => toggle(false) }, t('help.close')))));
}
