// Resume a game: the games in play, then those finished, a page at a time (a table's whole
// history is never fetched at once); an unfinished game may be put away, and brought back.

import { h, live, toast } from '../dom.js';
import { language, t } from '../i18n.js';
import { api, gamePath } from '../api.js';
import { topBar } from './chrome.js';
import { MYSTERIUM, gameName, pageOf, ruleSet } from '../rule_sets.js';

/** Where a game of the list opens on the table. */
export const gameHref = (game) => pageOf(game.ruleset, 'game', game.id);

/** Puts a game in play away, or brings one back; the list is drawn again. */
async function putAway(ctx, game, archived) {
  try {
    await api(gamePath(ruleSet(game.ruleset).key, game.id, 'archive'), { method: 'POST', body: { archived } });
    toast(t(archived ? 'games.archived' : 'games.restored', { players: game.players.join(', ') }));
    ctx.render();
  } catch (error) {
    toast(error.message);
  }
}

function item(ctx, game) {
  const when = new Date(game.updated_at * 1000).toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });
  return h('li', { class: 'game-item' },
    h('a', { class: 'game-link', href: gameHref(game), 'data-status': game.status, 'data-ruleset': game.ruleset },
      h('span', { class: 'who' }, game.players.join(' · ')),
      h('span', { class: 'ruleset' }, gameName(game)),
      h('span', { class: 'when' }, `${t(`status_game.${game.status}`)} · ${when}`)),
    // An unfinished game may be put away, out of the phones' list of games in play.
    game.status === 'playing'
      ? h('button', { type: 'button', 'data-archive': game.id, onclick: () => putAway(ctx, game, true) }, t('games.archive'))
      : game.status === 'archived'
        ? h('button', { type: 'button', 'data-restore': game.id, onclick: () => putAway(ctx, game, false) }, t('games.restore'))
        : null);
}

/** How many games a page shows. */
const PAGE = 20;

export function renderGames(ctx) {
  // Filled once the games are fetched (on the page by then: `live`), and left so by a patch.
  const list = h('ul', { id: 'game-list', class: 'game-list', 'data-own': true }, h('li', { class: 'note' }, '…'));
  const older = h('button', {
    id: 'games-older', type: 'button', hidden: true, onclick: () => more().catch((error) => toast(error.message)),
  }, t('games.older'));
  // The games in play first, then those finished, a page at a time, the latest first.
  const pages = { state: 'playing', shown: 0, first: true };
  const more = async () => {
    const games = await api(`/games?state=${pages.state}&limit=${PAGE}&offset=${pages.shown}`);
    if (pages.first) live(list).replaceChildren();
    pages.first = false;
    live(list).append(...games.map((game) => item(ctx, game)));
    pages.shown += games.length;
    if (games.length < PAGE && pages.state === 'playing') {
      Object.assign(pages, { state: 'finished', shown: 0 });
      return more();
    }
    live(older).hidden = games.length < PAGE;
    if (!live(list).children.length) live(list).append(h('li', { class: 'note' }, t('games.none')));
  };
  more().catch((error) => toast(error.message));
  // The games put away, on demand. Not `data-own`: a drawing anew empties it and shows its
  // button again, as it always has (a game brought back is not left in it).
  const away = h('ul', { id: 'archived-list', class: 'game-list' });
  const showAway = h('button', {
    id: 'games-archived', type: 'button',
    onclick: async () => {
      const games = await api(`/games?state=archived&limit=${PAGE}`).catch((error) => { toast(error.message); return []; });
      live(away).replaceChildren(...(games.length ? games.map((game) => item(ctx, game)) : [h('li', { class: 'note' }, t('games.none_archived'))]));
      live(showAway).hidden = true;
    },
  }, t('games.show_archived'));
  return h('div', { id: 'games', class: 'screen' },
    topBar(ctx),
    h('section', { class: 'panel' },
      h('h1', {}, t('games.title')),
      list,
      older,
      showAway,
      away,
      h('div', { class: 'row' },
        h('a', { class: 'button primary', href: pageOf(MYSTERIUM, 'new') }, t('home.new_game')),
        h('a', { class: 'button', href: '#' }, t('settings.back')))));
}
