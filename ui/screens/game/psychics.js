// Each psychic at a glance: colour and name, the three cards sought and found, whether the
// ghost has given the vision this turn, the intuition pawn, the clairvoyancy tokens on it,
// the ghost's answer, and where they stand on the track.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { command, commands } from './actions.js';

const CATEGORIES = ['character', 'location', 'object'];

function progress(p) {
  return h('ol', { class: 'progress', 'aria-label': t('psychic.progress') },
    CATEGORIES.map((c, i) => {
      const card = p.found[i];
      const now = p.seeking === c;
      return h('li', { class: card ? 'found' : now ? 'seeking' : 'later', 'aria-current': now ? 'step' : null },
        h('span', { class: 'what' }, t(`category.${c}`)),
        h('span', { class: 'card' }, card ?? (now ? '?' : '·')));
    }));
}

/** Cards the pawn may go on (the rules say which); the one it is on is pressed. */
function intuition(p, i) {
  if (!p.pawn_cards.length) return null;
  return h('div', { class: 'pawn', role: 'group', 'aria-label': t('psychic.intuition_of', { name: p.name }) },
    p.pawn_cards.map((card) => h('button', {
      type: 'button', class: 'chip', 'aria-pressed': String(p.intuition === card), 'data-card': card,
      onclick: () => command('place_intuition', { psychic: i, card }),
    }, card)));
}

/** The token `by` has on `on`'s pawn: none → ✓ → ✗ → none, one tap each. */
function tokenToggle(view, by, on) {
  const placed = view.placements.find((x) => x.by === by && x.on === on);
  const giver = view.psychics[by];
  const next = !placed ? [['place_token', { by, on, face: 'agree' }]]
    : placed.face === 'agree'
      ? [['withdraw_token', { by, on }], ['place_token', { by, on, face: 'disagree' }]]
      : [['withdraw_token', { by, on }]];
  const mark = placed ? (placed.face === 'agree' ? '✓' : '✗') : '';
  const label = placed
    ? t(placed.face === 'agree' ? 'token.agree_by' : 'token.disagree_by', { name: giver.name })
    : t('token.none_by', { name: giver.name });
  return h('button', {
    type: 'button', class: 'token', 'data-by': by, 'data-face': placed?.face ?? 'none',
    dataset: { colour: giver.colour }, 'aria-label': label, title: label,
    onclick: () => commands(next),
  }, mark);
}

function tokens(view, on) {
  const p = view.psychics[on];
  // Tokens go beside a pawn on a card: none to place before it is.
  if (!view.tokens_per_psychic || p.intuition === null || !['visions', 'interpretation'].includes(view.phase)) return null;
  return h('div', { class: 'tokens', role: 'group', 'aria-label': t('token.on_pawn', { name: p.name }) },
    view.psychics.map((_, by) => (by === on ? null : tokenToggle(view, by, on))));
}

function answer(view, p, i) {
  if (view.phase !== 'manifestation' || !p.vision) return null;
  if (p.result !== null) return null;
  if (view.secrets === 'app_kept') {
    return h('div', { class: 'answer' },
      h('button', { type: 'button', class: 'primary', 'data-manifest': i, onclick: () => command('manifest', { psychic: i }) },
        t('manifest.reveal')));
  }
  return h('div', { class: 'answer' },
    h('button', { type: 'button', class: 'right', 'data-right': i, onclick: () => command('manifest', { psychic: i, right: true }) }, t('manifest.right')),
    h('button', { type: 'button', class: 'wrong', 'data-wrong': i, onclick: () => command('manifest', { psychic: i, right: false }) }, t('manifest.wrong')));
}

function status(view, p, i) {
  const said = view.manifestations.find((m) => m.psychic === i);
  if (said) {
    return h('p', { class: `result ${said.right ? 'right' : 'wrong'}`, 'data-result': said.right ? 'right' : 'wrong' },
      said.right ? t('result.right', { card: said.card }) : t('result.wrong'),
      said.bonus ? ` ${t('result.bonus', { n: said.bonus })}` : '');
  }
  if (!p.seeking) return h('p', { class: 'result done' }, t('psychic.finished'));
  if (p.vision) return h('p', { class: 'result vision-in' }, t('vision.received'));
  if (['visions', 'interpretation'].includes(view.phase)) {
    return h('button', { type: 'button', class: 'vision', 'data-vision': i, onclick: () => command('give_vision', { psychic: i }) },
      p.completing ? t('vision.complete') : t('vision.give'));
  }
  return null;
}

function standing(view, p) {
  const items = [];
  if (view.track_side) {
    items.push(h('span', { class: 'space', title: t('track.space', { n: p.track }) }, `◆${p.track}`));
    items.push(h('span', { class: 'level' }, p.level ? t(`level.${p.level}`) : t('level.unknown')));
  }
  if (view.tokens_per_psychic) {
    items.push(h('span', { class: 'held', title: t('token.held', { agree: p.tokens.agree, disagree: p.tokens.disagree }) },
      `✓${p.tokens.agree} ✗${p.tokens.disagree}`));
  }
  return items.length ? h('span', { class: 'standing' }, items) : null;
}

export function psychicTile(view, p, i) {
  return h('article', {
    class: 'psychic', 'data-psychic': i, dataset: { colour: p.colour },
    'data-has-vision': String(p.vision), 'aria-label': p.name,
  },
  h('header', {},
    h('span', { class: 'swatch', 'aria-hidden': 'true', dataset: { colour: p.colour } }),
    h('h3', {}, p.name),
    standing(view, p)),
  progress(p),
  status(view, p, i),
  intuition(p, i),
  tokens(view, i),
  answer(view, p, i));
}

export function psychicGrid(view) {
  return h('section', { id: 'psychics', class: 'psychics', 'data-count': view.psychics.length, 'aria-label': t('psychics.title') },
    view.psychics.map((p, i) => psychicTile(view, p, i)));
}
