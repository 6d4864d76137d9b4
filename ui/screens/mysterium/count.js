// The count in words: each ballot, then each step of the reasoning, as far as the view
// holds it. The rules put in the view only the lines the table has shown, so every screen
// (the table, a watcher, a phone) reads the same lines at the same moment.

import { h } from '../../dom.js';
import { nameOf, t } from '../../i18n.js';

function names(view, list) {
  return list.map((i) => nameOf(view.psychics[i])).join(', ');
}

function stepText(view, step) {
  switch (step.step) {
    case 'tally':
      return step.votes.map(([g, n]) => t(n === 1 ? 'count.tally_one' : 'count.tally', { group: g, n })).join(' · ');
    case 'majority':
      return t('count.majority', { group: step.group });
    case 'tie':
      return t('count.tie', { groups: step.groups.join(', ') });
    case 'outside_tie':
      return t('count.outside_tie', { names: names(view, step.psychics), space: step.space });
    case 'decided':
      return t(`count.decided_${step.because}`, { name: nameOf(view.psychics[step.by]), space: step.space, group: step.group });
    case 'elders_outside_tie':
      return t(step.psychics.length === 1 ? 'count.elders_outside_tie_one' : 'count.elders_outside_tie', { names: names(view, step.psychics) });
    case 'ask_eldest':
      return t(step.because === 'eldest_player' ? 'count.ask_eldest_player' : 'count.ask_eldest', { names: names(view, step.among) });
    default:
      return '';
  }
}

/** The count's lines the view holds, in words. */
export function countLines(view) {
  if (!view.count) return [];
  const ballots = view.count.ballots.map((b) => t('count.ballot', { name: nameOf(view.psychics[b.psychic]), group: b.group }));
  return [...ballots, ...view.count.steps.map((s) => stepText(view, s))];
}

/** Whether the table has shown the count's first line: until then it may still be covered
 * (the tablet passed back after the last vote), and no other screen says the count. */
export function countBegun(view) {
  return Boolean(view.count && (view.count.ballots.length || view.count.steps.length));
}

/** The count under its heading: its first `shown` lines (all by default), `below` after
 * them (the table's buttons; by default, while lines are to come, "the table is
 * reading…") and `beside` its heading; nothing before the votes are counted, nor, but on
 * the table (its `below`), before the table shows the first line. */
export function countList(view, { shown = Infinity, beside = null, below } = {}) {
  if (!view.count) return null;
  if (below === undefined) {
    if (view.counting && !countBegun(view)) return null;
    below = view.counting ? h('p', { class: 'note' }, t('count.reading')) : null;
  }
  const lines = countLines(view).slice(0, shown);
  return h('section', { id: 'count', class: 'count', 'aria-label': t('count.title'), 'aria-live': 'polite' },
    beside ? h('div', { class: 'count-head' }, h('h2', {}, t('count.title')), beside) : h('h2', {}, t('count.title')),
    lines.length ? h('ol', {}, lines.map((line) => h('li', {}, line))) : null,
    below);
}
