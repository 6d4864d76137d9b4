// The table screen of a Mystery Rummy game: the running totals, who deals, this round's
// secret vote, "End the round" (the tally form), how each round was scored, and the end
// of the game. Everything it shows comes worked out in the view.

import { asset, h } from '../dom.js';
import { isTable, render } from '../context.js';
import { t } from '../i18n.js';
import { playAgain, refresh, seatsKept, toBgStats, unreadable } from './game/actions.js';
import { cover, phonesPanel } from './game/hidden.js';
import { barLanguages, barMenu, languageSwitch } from './chrome.js';
import { barTop, tableControls, watching } from './game.js';
import { votePanel, voteEntry } from './rummy/vote.js';
import { roundChosen, roundDetails, scoreboard } from './rummy/rounds.js';
import { openTally, tallyForm } from './rummy/tally.js';
import { printedForm } from './rummy/printed.js';
import { may } from '../allowed.js';
import { lastChange } from '../log.js';
import { helpButton, helpPanel, rummyHelp } from './game/help.js';

/** A scorepad's seats as the phones panel lists them: [name, label, colour]. */
const seatsOf = (view) => view.players.map((name, i) => [`player:${i}`, name, null]);

/** What covers the screen now: null, 'phones' or 'printed'. */
let sheet = null;
const show = (which) => { sheet = which; render(); };

function bar(snapshot) {
  return h('header', { class: 'bar game-bar' },
    h('a', { class: 'brand', href: '#', 'aria-label': t('game.home') }, h('img', { src: asset('icons/brand.png'), alt: '' })),
    h('span', { class: 'bar-title' }, t('ruleset.mystery-rummy')),
    h('div', { id: 'connection', class: 'connection compact', role: 'status' },
      h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'label' })),
    helpButton(),
    isTable() ? [
      h('button', { id: 'printed', type: 'button', onclick: () => show('printed') }, t('rummy.printed')),
      tableControls(snapshot, () => show('phones')),
      barLanguages(),
    ] : barMenu([watching(), languageSwitch()], { fold: 'phone', label: '⚙', aria: t('phone.menu') }));
}

function roundPanel(view) {
  if (view.winner !== null) {
    return h('section', { id: 'rummy-end', class: 'panel stage ending', 'data-outcome': 'won' },
      h('h1', {}, t('rummy.winner', { name: view.players[view.winner], n: view.totals[view.winner] })),
      h('p', {}, t('rummy.winner_why')),
      h('div', { class: 'row' }, playAgain(), seatsKept(seatsOf(view))),
      toBgStats());
  }
  return h('section', { id: 'rummy-round', class: 'panel stage' },
    view.another_round ? h('p', { id: 'another-round', class: 'banner', role: 'status' }, t('rummy.another_round')) : null,
    h('h1', {}, t('rummy.round', { n: view.round })),
    h('p', { id: 'dealer', class: 'lead' }, t(view.dealt === 'drawn' ? 'rummy.dealer_drawn' : 'rummy.dealer', {
      name: view.players[view.dealer], n: view.deal,
    })),
    view.dealt === 'passed' ? h('p', { id: 'deal-convention', class: 'note' }, t('rummy.deal_convention')) : null,
    votePanel(view),
    h('button', { id: 'end-round', type: 'button', class: 'primary big', disabled: !may('end_round'), onclick: () => openTally(view, null) },
      t('rummy.end_round')));
}

export function renderRummy(state) {
  const game = state.game;
  const snapshot = game.snapshot;
  if (game.refused && !snapshot) return unreadable(game);
  if (!snapshot) {
    refresh();
    return h('div', { id: 'rummy', class: 'screen' }, h('p', { class: 'note loading' }, '…'));
  }
  const view = snapshot.view;
  const entry = voteEntry(view);
  // The scorepad stays in sight for the whole game.
  const awake = String(view.winner === null);
  if (entry) return h('div', { id: 'rummy', class: 'screen covered', 'data-version': snapshot.version, 'data-awake': awake }, entry);
  if (sheet === 'phones') {
    return h('div', { id: 'rummy', class: 'screen covered', 'data-version': snapshot.version, 'data-awake': awake },
      cover(null, phonesPanel(seatsOf(view), () => show(null))));
  }
  const form = tallyForm(view) ?? (sheet === 'printed' ? printedForm(view, () => show(null)) : null);
  return h('div', { id: 'rummy', class: 'screen game rummy', 'data-version': snapshot.version, 'data-awake': awake },
    barTop(bar(snapshot)),
    lastChange(snapshot),
    form ?? h('div', { class: 'board rummy-board', inert: !isTable() },
      roundPanel(view),
      scoreboard(view),
      // The ending fits one screen: a round's details come when its row is tapped.
      view.rounds.length && (view.winner === null || roundChosen())
        ? roundDetails(view, { correct: may('correct_round') && ((r) => openTally(view, r)) }) : null),
    helpPanel(rummyHelp(), false));
}
