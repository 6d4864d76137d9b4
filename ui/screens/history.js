// The history: every finished game of every rule set, the latest first, a page at a time,
// each as its rules recorded it (date, length, players and their parts, difficulty or
// edition, outcome; how far each psychic got; Mystery Rummy's totals). A game opens on its
// own screen, which ends on its summary; the table archives or deletes one (asked once, undone while this session lasts),
// and exports or imports the whole history.

import { h, live, toast } from '../dom.js';
import { hourMark, language, t } from '../i18n.js';
import { api, download } from '../api.js';
import { topBar } from './chrome.js';
import { gameHref } from './games.js';
import { MYSTERIUM, MYSTERY_RUMMY, gameName } from '../rule_sets.js';


/** How many games a page shows. */
const PAGE = 20;

/** Games deleted in this session, kept so the deletion can be undone here. */
const DELETED = 'seance.deleted';
const deleted = () => JSON.parse(sessionStorage.getItem(DELETED) ?? '[]');
const keepDeleted = (games) => sessionStorage.setItem(DELETED, JSON.stringify(games));


const when = (game) => new Date(game.began * 1000).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });
const list = (names) => new Intl.ListFormat(language(), { type: 'conjunction' }).format(names);

/** Each rule set's record as the history shows it: what kind of game (the rule set, with
 * its edition or difficulty), how it ended in a word and whether it was won, who played
 * and how far each got, and everyone's names. */
const RECORDS = {
  [MYSTERIUM]: {
    kind: (r, game) => [gameName(game), r.difficulty && t(`difficulty.${r.difficulty}`)].filter(Boolean).join(' · '),
    outcome: (r) => h('span', { class: `badge ${r.outcome === 'won' ? 'won' : 'lost'}` }, t(`history.${r.outcome}`)),
    players: (r, game) => {
      const reached = (p) => [p.finished ? t('history.finished', { hour: hourMark(p.finished, game.dialect) }) : t('history.found', { n: p.found }),
        p.track == null ? null : t('history.track', { n: p.track })].filter(Boolean).join(' · ');
      // A player of two colours (2 or 3 at the table) is one line, each colour named.
      const players = new Map();
      for (const p of r.psychics) players.set(p.name, [...(players.get(p.name) ?? []), p]);
      return h('ol', { class: 'history-players' },
        h('li', {}, h('span', { class: 'swatch ghost' }), h('span', { class: 'name' }, r.ghost), ' ', h('span', { class: 'figure' }, t('history.ghost'))),
        [...players].map(([name, colours]) => h('li', { 'data-colours': colours.length },
          colours.map((p) => h('span', { class: 'swatch', dataset: { colour: p.colour } })),
          h('span', { class: 'name' }, name), ' ',
          h('span', { class: 'figure' }, colours.length === 1 ? reached(colours[0])
            : colours.map((p) => t('history.colour_reached', { colour: t(`colour.${p.colour}`), reached: reached(p) })).join('; ')))));
    },
    names: (r) => [r.ghost, ...new Set(r.psychics.map((p) => p.name))],
  },
  [MYSTERY_RUMMY]: {
    kind: (_, game) => gameName(game),
    outcome: (r) => h('span', { class: 'badge won' }, t('history.rummy_winner', { name: r.players[r.winner], n: r.totals[r.winner] })),
    players: (r) => h('ol', { class: 'history-players' }, r.players.map((name, i) => h('li', {},
      h('span', { class: 'name' }, name), ' ', h('span', { class: 'figure' }, t('history.points', { n: r.totals[i] }))))),
    names: (r) => r.players,
  },
};
const shown = (game) => RECORDS[game.ruleset];
const kind = (game) => shown(game).kind(game.record, game);
const outcome = (game) => shown(game).outcome(game.record);
const players = (game) => shown(game).players(game.record, game);
const names = (game) => shown(game).names(game.record);

/** Puts `game` on `shelf` (`history`, `archived`, `deleted`), then says so. */
async function shelve(ctx, game, shelf, said) {
  try {
    await api(`/history/${game.id}/shelf`, { method: 'POST', body: { shelf } });
    if (shelf === 'deleted') keepDeleted([game, ...deleted().filter((g) => g.id !== game.id)]);
    else keepDeleted(deleted().filter((g) => g.id !== game.id));
    toast(t(said, { players: list(names(game)) }));
    ctx.render();
  } catch (error) {
    toast(error.message);
  }
}

/** A deletion, asked once: the button turns into the question. */
function deleteButton(ctx, game) {
  return h('button', {
    type: 'button', class: 'danger', 'data-delete': game.id,
    onclick: (event) => event.currentTarget.replaceWith(h('span', { class: 'confirm', role: 'group', 'aria-label': t('history.delete_ask') },
      h('span', { class: 'note' }, t('history.delete_ask')),
      h('button', { type: 'button', class: 'danger', 'data-delete-sure': game.id, onclick: () => shelve(ctx, game, 'deleted', 'history.deleted') }, t('history.delete_sure')),
      h('button', { type: 'button', onclick: () => ctx.render() }, t('history.keep')))),
  }, t('history.delete'));
}

function item(ctx, game) {
  const table = ctx.table;
  return h('li', { class: 'history-item', 'data-game': game.id, 'data-ruleset': game.ruleset },
    h('div', { class: 'history-head' },
      h('a', { class: 'history-open', href: gameHref(game) }, kind(game)),
      outcome(game)),
    h('p', { class: 'when' }, t('history.when', { date: when(game), minutes: game.minutes })),
    players(game),
    table ? h('div', { class: 'row history-actions' },
      game.archived
        ? h('button', { type: 'button', 'data-unarchive': game.id, onclick: () => shelve(ctx, game, 'history', 'history.unarchived') }, t('history.unarchive'))
        : h('button', { type: 'button', 'data-archive': game.id, onclick: () => shelve(ctx, game, 'archived', 'history.archived') }, t('history.archive')),
      deleteButton(ctx, game)) : null);
}

/** The games deleted in this session, each with its undo. */
function recentlyDeleted(ctx) {
  const games = deleted();
  if (!games.length || !ctx.table) return null;
  return h('section', { id: 'history-deleted', class: 'history-deleted', 'aria-labelledby': 'history-deleted-title' },
    h('h2', { id: 'history-deleted-title' }, t('history.deleted_title')),
    h('ul', {}, games.map((game) => h('li', {},
      h('span', {}, `${kind(game)} · ${when(game)} · ${list(names(game))}`),
      h('button', { type: 'button', 'data-undelete': game.id, onclick: () => shelve(ctx, game, 'history', 'history.undeleted') }, t('history.undo'))))));
}

/** The whole history as a file, and a file brought in. */
function files(ctx) {
  const picker = h('input', {
    id: 'history-file', type: 'file', accept: 'application/json,.json', class: 'visually-hidden',
    onchange: async () => {
      const file = live(picker).files[0];
      if (!file) return;
      try {
        const done = await api('/history/import', { method: 'POST', raw: await file.text() });
        toast(t('history.imported', { added: done.added, skipped: done.skipped }));
        ctx.render();
      } catch (error) {
        toast(error.message);
      }
      live(picker).value = '';
    },
  });
  const save = (path, name) => () => download(path, name).catch((error) => toast(error.message));
  return h('div', { class: 'row history-files' },
    h('button', { id: 'history-export-json', type: 'button', onclick: save('/history/export.json', 'seance-history.json') }, t('history.export_json')),
    h('button', { id: 'history-export-csv', type: 'button', onclick: save('/history/export.csv', 'seance-history.csv') }, t('history.export_csv')),
    h('label', { id: 'history-import', class: 'button' }, t('history.import'), picker));
}

export function renderHistory(ctx) {
  const archived = location.hash === '#/history/archived';
  // Filled once the games are fetched (on the page by then: `live`), and left so by a patch.
  const games = h('ul', { id: 'history-list', class: 'history-list', 'data-own': true }, h('li', { class: 'note' }, '…'));
  const older = h('button', {
    id: 'history-older', type: 'button', hidden: true, onclick: () => more().catch((error) => toast(error.message)),
  }, t('games.older'));
  let shown = 0;
  const more = async () => {
    const page = await api(`/history?limit=${PAGE}&offset=${shown}${archived ? '&archived=true' : ''}`);
    if (shown === 0) live(games).replaceChildren();
    live(games).append(...page.games.map((game) => item(ctx, game)));
    shown += page.games.length;
    live(older).hidden = !page.more;
    if (!live(games).children.length) live(games).append(h('li', { class: 'note', id: 'history-none' }, t(archived ? 'history.none_archived' : 'history.none')));
  };
  more().catch((error) => toast(error.message));
  return h('div', { id: 'history', class: 'screen' },
    topBar(ctx),
    h('section', { class: 'panel history' },
      h('h1', {}, t(archived ? 'history.archived_title' : 'history.title')),
      h('nav', { class: 'row tabs', 'aria-label': t('history.title') },
        h('a', { class: 'button', href: '#/history', 'aria-current': archived ? null : 'page' }, t('history.games')),
        h('a', { class: 'button', href: '#/history/archived', 'aria-current': archived ? 'page' : null }, t('history.archived_tab')),
        h('a', { id: 'to-statistics', class: 'button', href: '#/statistics' }, t('statistics.title'))),
      recentlyDeleted(ctx),
      games,
      older,
      ctx.table ? files(ctx) : null,
      h('a', { class: 'button', href: '#' }, t('settings.back'))));
}
