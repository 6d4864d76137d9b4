// Statistics of the finished games, among everyone, one group of players or one player, as
// the server counts them: Mysterium's wins by difficulty and by number at the table, the
// hour games end in, the ghosts and how often their table won, the clairvoyancy reached;
// Mystery Rummy's rounds per game, highest totals, votes that named Jack and wins. Drawn
// by Chartist (vendored, SVG); each chart has its figures as a table for screen readers.

import { BarChart } from '../vendor/chartist/chartist.js';
import { asset, h, live, toast } from '../dom.js';
import { hourMark, language, t } from '../i18n.js';
import { api } from '../api.js';
import { topBar } from './chrome.js';
import { MYSTERIUM, MYSTERY_RUMMY, pageOf, ruleSets } from '../rule_sets.js';


/** Chartist's own style sheet, linked once. */
function chartStyles() {
  if (document.getElementById('chartist-css')) return;
  document.head.append(h('link', { id: 'chartist-css', rel: 'stylesheet', href: asset('vendor/chartist/chartist.css') }));
}

/** Whose games: '' for everyone, `group:[…]` or `player:name`. */
let among = '';

const query = () => {
  if (among.startsWith('group:')) return `?group=${encodeURIComponent(among.slice(6))}`;
  if (among.startsWith('player:')) return `?player=${encodeURIComponent(among.slice(7))}`;
  return '';
};

const list = (names) => new Intl.ListFormat(language(), { type: 'conjunction' }).format(names);
const percent = (part, whole) => new Intl.NumberFormat(language(), { style: 'percent' }).format(whole ? part / whole : 0);

/**
 * A bar chart: `labels` along one axis, `series` ({ name, values }) stacked on each; its
 * figures also as a table, for screen readers (each row named by `spoken`, the labels in
 * words), and the series named in a legend.
 */
function chart(id, title, labels, series, { horizontal = false, spoken = labels } = {}) {
  const box = h('div', { class: `chart${horizontal ? ' horizontal' : ''}`, 'aria-hidden': 'true' });
  const height = horizontal ? Math.max(120, labels.length * 38 + 40) : 200;
  // Chartist draws horizontal bars from the bottom up: the list's first goes on top by
  // reversing each row's order, never the series' (whose order gives each its class and
  // colour, as the legend shows them: Chartist's own `reverseData` swaps those too).
  const row = (values) => (horizontal ? [...values].reverse() : values);
  setTimeout(() => new BarChart(box, { labels: row(labels), series: series.map((s) => row(s.values)) }, {
    stackBars: true,
    horizontalBars: horizontal,
    height: `${height}px`,
    axisX: horizontal ? { onlyInteger: true } : { showGrid: false },
    axisY: horizontal ? { offset: 110, showGrid: false } : { onlyInteger: true, offset: 30 },
    chartPadding: { top: 18, right: 16, bottom: 0, left: 0 },
  }));
  return h('figure', { id, class: 'stat-chart' },
    h('figcaption', {}, title),
    series.length > 1 ? h('p', { class: 'legend' }, series.map((s, i) => h('span', { class: `key series-${'ab'[i]}` }, s.name))) : null,
    box,
    // A table ignores overflow, so the box around it is what hides it.
    h('div', { class: 'visually-hidden' }, h('table', {},
      h('caption', {}, title),
      h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ''), series.map((s) => h('th', { scope: 'col' }, s.name)))),
      h('tbody', {}, spoken.map((label, i) => h('tr', {},
        h('th', { scope: 'row' }, label), series.map((s) => h('td', {}, String(s.values[i])))))))));
}

const wonLost = (rates) => [
  { name: t('statistics.won'), values: rates.map((r) => r.won) },
  { name: t('statistics.lost'), values: rates.map((r) => r.games - r.won) },
];

/** How the hours are marked: the classic clock's numerals where every game was classic, the
 * new edition's figures where every one was new, plain figures where both were played. */
function hourMarks(m) {
  const played = new Set(m.by_level.map(([level]) => (level === 'new_edition' ? 'new' : 'classic')));
  if (played.size > 1) return (hour) => String(hour);
  return (hour) => hourMark(hour, played.has('new') ? 'new' : null);
}

function mysterium(m) {
  const mark = hourMarks(m);
  return h('section', { id: 'statistics-mysterium', class: 'stat-section' },
    h('h2', {}, t('ruleset.mysterium-classic')),
    h('p', { class: 'lead' }, t('statistics.rate', { games: m.rate.games, won: m.rate.won, percent: percent(m.rate.won, m.rate.games) })),
    h('div', { class: 'stat-grid' },
      chart('chart-levels', t('statistics.by_level'), m.by_level.map(([level]) => t(`statistics.level.${level}`)), wonLost(m.by_level.map(([, r]) => r))),
      // Under each bar its number alone (six "n players" run together on a narrow chart).
      chart('chart-players', t('statistics.by_players'), m.by_players.map(([n]) => String(n)), wonLost(m.by_players.map(([, r]) => r)),
        { spoken: m.by_players.map(([n]) => t('statistics.at_table', { n })) }),
      chart('chart-hours', t('statistics.hours'), m.hours.map((hour) => mark(hour.hour)), [
        { name: t('statistics.won'), values: m.hours.map((hour) => hour.won) },
        { name: t('statistics.lost'), values: m.hours.map((hour) => hour.lost) }]),
      m.ghosts.length ? chart('chart-ghosts', t('statistics.ghosts'), m.ghosts.map((g) => g.name), wonLost(m.ghosts.map((g) => g.rate)), { horizontal: true }) : null,
      m.clairvoyancy.length ? chart('chart-clairvoyancy', t('statistics.clairvoyancy'), m.clairvoyancy.map((r) => r.name),
        [{ name: t('statistics.average_space'), values: m.clairvoyancy.map((r) => Math.round((10 * r.spaces) / r.psychics) / 10) }],
        { horizontal: true }) : null),
    m.clairvoyancy.length ? h('ul', { class: 'stat-notes' }, m.clairvoyancy.map((r) => h('li', {},
      t('statistics.reach', { name: r.name, best: r.best, finished: r.finished, psychics: r.psychics })))) : null);
}

function rummy(r) {
  return h('section', { id: 'statistics-rummy', class: 'stat-section' },
    h('h2', {}, t('ruleset.mystery-rummy')),
    h('p', { class: 'lead' }, t('statistics.rummy_games', { n: r.games })),
    h('div', { class: 'stat-grid' },
      chart('chart-rounds', t('statistics.rounds'), r.rounds.map(([n]) => t('statistics.rounds_n', { n })),
        [{ name: t('statistics.games'), values: r.rounds.map(([, games]) => games) }]),
      chart('chart-votes', t('statistics.votes'), r.accuracy.map((a) => a.name), [
        { name: t('statistics.votes_right'), values: r.accuracy.map((a) => a.right) },
        { name: t('statistics.votes_wrong'), values: r.accuracy.map((a) => a.cast - a.right) }], { horizontal: true }),
      chart('chart-wins', t('statistics.wins'), r.wins.map(([name]) => name), wonLost(r.wins.map(([, rate]) => rate)), { horizontal: true })),
    h('section', { class: 'stat-highest' },
      h('h3', {}, t('statistics.highest')),
      h('ol', { id: 'statistics-highest' }, r.highest.map((top) => h('li', {},
        h('a', { href: pageOf(MYSTERY_RUMMY, 'game', top.game) }, t('statistics.top', { name: top.name, n: top.total })))))));
}

/** Each rule set's statistics as this screen draws them (the server sends them under its
 * name), registered once. */
const STATISTICS = {
  [MYSTERIUM]: mysterium,
  [MYSTERY_RUMMY]: rummy,
};

/** The choice of whose games: everyone, a group, a player. */
function picker(stats, redraw) {
  const option = (value, text) => h('option', { value, selected: value === among }, text);
  const select = h('select', { id: 'statistics-among' },
    option('', t('statistics.everyone')),
    stats.groups.length ? h('optgroup', { label: t('statistics.groups') },
      stats.groups.map((g) => option(`group:${JSON.stringify(g)}`, list(g)))) : null,
    stats.players.length ? h('optgroup', { label: t('statistics.players') },
      stats.players.map((p) => option(`player:${p}`, p))) : null);
  select.onchange = () => { among = select.value; redraw(); };
  return h('label', { class: 'field' }, h('span', {}, t('statistics.among')), select);
}

export function renderStatistics(ctx) {
  chartStyles();
  // Filled once the statistics are fetched (on the page by then: `live`), charts and all,
  // and left so by a patch.
  const body = h('div', { id: 'statistics-body', 'data-own': true }, h('p', { class: 'note' }, '…'));
  const draw = async () => {
    const stats = await api(`/statistics${query()}`);
    if (!stats.players.length) {
      live(body).replaceChildren(h('p', { id: 'statistics-none', class: 'banner' }, t('statistics.none')));
      return;
    }
    live(body).replaceChildren(
      picker(stats, () => draw().catch((error) => toast(error.message))),
      ...ruleSets().filter(({ name }) => stats.rule_sets[name] && STATISTICS[name])
        .map(({ name }) => STATISTICS[name](stats.rule_sets[name])));
  };
  draw().catch((error) => toast(error.message));
  return h('div', { id: 'statistics', class: 'screen' },
    topBar(ctx),
    h('section', { class: 'panel statistics' },
      h('h1', {}, t('statistics.title')),
      h('nav', { class: 'row tabs', 'aria-label': t('history.title') },
        h('a', { class: 'button', href: '#/history' }, t('history.games')),
        h('a', { class: 'button', href: '#/history/archived' }, t('history.archived_tab')),
        h('a', { class: 'button', href: '#/statistics', 'aria-current': 'page' }, t('statistics.title'))),
      body,
      h('a', { class: 'button', href: '#' }, t('settings.back'))));
}
