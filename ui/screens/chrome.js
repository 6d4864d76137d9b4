// The frame of every screen: the bar atop it (the name, the connection, the language), and
// a game's screen while its game is not shown yet (being read, or unreadable).

import { api, gamePath } from '../api.js';
import { asset, h, toast } from '../dom.js';
import { LANGUAGES, language, setLanguage, t } from '../i18n.js';
import { ruleSets } from '../rule_sets.js';

/** The table sets the table's language; others only their own. */
async function chooseLanguage(ctx, lang) {
  if (ctx.table) {
    await ctx.saveSettings({ language: lang });
    await setLanguage(lang);
  } else {
    await setLanguage(lang, { remember: true });
  }
  ctx.render();
}

export function topBar(ctx) {
  return h('header', { class: 'bar' },
    h('a', { class: 'brand', href: '#' }, h('img', { src: asset('icons/brand.png'), alt: '' }), 'Séance'),
    h('div', { id: 'connection', class: 'connection', role: 'status' },
      h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'label' })),
    languageSwitch(ctx));
}

/** Whether a bar's folded menu is open on this screen. */
let menuOpen = false;

/**
 * What a game's bar holds where it has the room, and behind one button where it has not (the
 * style sheet says where: `fold` is `tablet`, folded on screens narrower than 1280 px, or
 * `phone`, folded on phones): the languages, and a watcher's own. Its button says `label`
 * (`aria`: in words).
 */
export function barMenu(ctx, items, { fold, label, aria }) {
  const toggle = () => { menuOpen = !menuOpen; ctx.render(); };
  return h('div', { id: 'bar-menu', class: `bar-menu fold-${fold}`, 'data-open': String(menuOpen) },
    h('button', {
      id: 'bar-menu-toggle', type: 'button', class: 'bar-menu-toggle', 'aria-expanded': String(menuOpen),
      'aria-label': aria, title: aria, onclick: toggle,
    }, label),
    h('div', { class: 'bar-menu-items' }, items));
}

/** The languages in a game's bar: folded behind the language's code on a tablet. */
export function barLanguages(ctx) {
  const code = language().toUpperCase();
  return barMenu(ctx, [languageSwitch(ctx)], { fold: 'tablet', label: `${code} ▾`, aria: `${t('settings.language')} ${code}` });
}

/** EN · FR · IT; `choose` defaults to setting the table's (or this phone's) language (a
 * screen before the app's start gives no context, only its `choose`). */
export function languageSwitch(ctx, choose = (lang) => chooseLanguage(ctx, lang)) {
  return h('nav', { class: 'languages', 'aria-label': 'Language / Langue / Lingua' },
    LANGUAGES.map((lang) => h('button', {
      type: 'button', lang, 'aria-pressed': String(lang === language()),
      onclick: () => { menuOpen = false; choose(lang); },
    }, lang.toUpperCase())));
}

/** Which game a new game is: Mysterium or the Mystery Rummy scorepad. */
export function gameSwitch(current) {
  return h('nav', { id: 'ruleset', class: 'segmented ruleset', 'aria-label': t('setup.which_game') },
    ruleSets().map(({ name, pages }) => h('a', {
      href: pages.new, class: 'button', 'data-ruleset': name, 'aria-current': name === current ? 'page' : false,
    }, t(`ruleset.${name}`))));
}

/** The game on screen could not be shown (`ctx.game.refused`): why, and on the table, for a
 * game that cannot be read from its start, the way to set it aside and go on. */
export function unreadable(ctx) {
  const { id, kind, refused } = ctx.game;
  const setAside = async () => {
    try {
      await api(gamePath(kind, id, 'set-aside'), { method: 'POST' });
      location.hash = '#/games';
    } catch (error) {
      toast(error.message);
    }
  };
  return h('div', { id: 'unreadable', class: 'screen' },
    h('section', { class: 'panel', role: 'alert' },
      h('p', { class: 'banner damage' }, refused.message),
      h('div', { class: 'row' },
        ctx.table && refused.code === 'start_damaged'
          ? h('button', { id: 'set-aside-start', type: 'button', class: 'primary', onclick: setAside }, t('game.set_aside_start'))
          : null,
        h('a', { class: 'button', href: '#' }, t('game.home')))));
}

/** The screen `id` while its game is read (asked here), with `top` (a bar) over it. */
export function loading(ctx, id, top = null) {
  ctx.refresh();
  return h('div', { id, class: 'screen' }, top, h('p', { class: 'note loading' }, '…'));
}

/** The screen `id` of a game not shown yet, or null once its snapshot is here: why it cannot
 * be read, or its place while it is read. */
export function notYet(ctx, id, top = null) {
  if (ctx.game.refused && !ctx.snapshot) return unreadable(ctx);
  return ctx.snapshot ? null : loading(ctx, id, top);
}
