// The table screen of a Mystery Rummy game: the running totals, who deals, this round's
// secret vote, "End the round" (the tally form), how each round was scored, and the end
// of the game. Everything it shows comes worked out in the view.

import { asset, h } from '../dom.js';
import { t } from '../i18n.js';
import { playAgain, seatsKept, toBgStats } from './shared/ending.js';
import { cover, phonesPanel } from './shared/hidden.js';
import { barTop, tableControls, watching } from './shared/bar.js';
import { helpButton, helpPanel } from './shared/help.js';
import { barLanguages, barMenu, languageSwitch, notYet } from './chrome.js';
import { votePanel, voteEntry } from './rummy/vote.js';
import { roundChosen, roundDetails, scoreboard } from './rummy/rounds.js';
import { openTally, tallyForm } from './rummy/tally.js';
import { printedForm } from './rummy/printed.js';
import { lastChange } from '../log.js';

/** What the help of a Mystery Rummy scorepad tells: a round, from the deal to the score. */
const help = () => ({ title: t('ruleset.mystery-rummy'), steps: 'guide.rummy', legend: [], board: false });

/** A scorepad's seats as the phones panel lists them: [name, label, colour]. */
const seatsOf = (view) => view.players.map((name, i) => [`player:${i}`, name, null]);

/** What covers the screen now: null, 'phones' or 'printed'. */
let sheet = null;
const show = (ctx, which) => { sheet = which; ctx.render(); };

function bar(ctx) {
  return h('header', { class: 'bar game-bar' },
    h('a', { class: 'brand', href: '#', 'aria-label': t('game.home') }, h('img', { src: asset('icons/brand.png'), alt: '' })),
    h('span', { class: 'bar-title' }, t('ruleset.mystery-rummy')),
    h('div', { id: 'connection', class: 'connection compact', role: 'status' },
      h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'label' })),
    helpButton(ctx),
    ctx.table ? [
      h('button', { id: 'printed', type: 'button', onclick: () => show(ctx, 'printed') }, t('rummy.printed')),
      tableControls(ctx, () => show(ctx, 'phones')),
      barLanguages(ctx),
    ] : barMenu(ctx, [watching(), languageSwitch(ctx)], { fold: 'phone', label: '⚙', aria: t('phone.menu') }));
}

function roundPanel(ctx) {
  const view = ctx.view;
  if (view.winner !== null) {
    return h('section', { id: 'rummy-end', class: 'panel stage ending', 'data-outcome': 'won' },
      h('h1', {}, t('rummy.winner', { name: view.players[view.winner], n: view.totals[view.winner] })),
      h('p', {}, t('rummy.winner_why')),
      h('div', { class: 'row' }, playAgain(ctx), seatsKept(ctx, seatsOf(view))),
      toBgStats(ctx));
  }
  return h('section', { id: 'rummy-round', class: 'panel stage' },
    view.another_round ? h('p', { id: 'another-round', class: 'banner', role: 'status' }, t('rummy.another_round')) : null,
    h('h1', {}, t('rummy.round', { n: view.round })),
    h('p', { id: 'dealer', class: 'lead' }, t(view.dealt === 'drawn' ? 'rummy.dealer_drawn' : 'rummy.dealer', {
      name: view.players[view.dealer], n: view.deal,
    })),
    view.dealt === 'passed' ? h('p', { id: 'deal-convention', class: 'note' }, t('rummy.deal_convention')) : null,
    votePanel(ctx),
    h('button', { id: 'end-round', type: 'button', class: 'primary big', disabled: !ctx.may('end_round'), onclick: () => openTally(ctx, null) },
      t('rummy.end_round')));
}

export function renderRummy(ctx) {
  const waiting = notYet(ctx, 'rummy');
  if (waiting) return waiting;
  const { snapshot, view } = ctx;
  const entry = voteEntry(ctx);
  // The scorepad stays in sight for the whole game.
  const awake = String(view.winner === null);
  if (entry) return h('div', { id: 'rummy', class: 'screen covered', 'data-version': snapshot.version, 'data-awake': awake }, entry);
  if (sheet === 'phones') {
    return h('div', { id: 'rummy', class: 'screen covered', 'data-version': snapshot.version, 'data-awake': awake },
      cover(null, phonesPanel(ctx, seatsOf(view), () => show(ctx, null))));
  }
  const form = tallyForm(ctx) ?? (sheet === 'printed' ? printedForm(ctx, () => show(ctx, null)) : null);
  return h('div', { id: 'rummy', class: 'screen game rummy', 'data-version': snapshot.version, 'data-awake': awake },
    barTop(bar(ctx)),
    lastChange(snapshot),
    form ?? h('div', { class: 'board rummy-board', inert: !ctx.table },
      roundPanel(ctx),
      scoreboard(ctx),
      // The ending fits one screen: a round's details come when its row is tapped.
      view.rounds.length && (view.winner === null || roundChosen())
        ? roundDetails(view, { correct: ctx.may('correct_round') && ((r) => openTally(ctx, r)) }) : null),
    helpPanel(ctx, help()));
}
