// Each psychic at a glance: colour and name, the three cards sought and found, whether the
// ghost has given the vision this turn, the intuition pawn, the clairvoyancy tokens on it,
// the ghost's answer, and where they stand on the track.

import { h, reserved } from '../../dom.js';
import { initials, nameOf, t } from '../../i18n.js';

/** What each psychic seeks, in order. */
export const CATEGORIES = ['character', 'location', 'object'];

/** Psychic `i`'s card of category `k` at the end: found, or (in brackets) the one they
 * sought, where the view tells it. */
export function cardAtEnd(view, i, k) {
  return view.psychics[i].found[k] ?? (view.assignments ? `(${view.assignments[i][k]})` : '—');
}

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

/** Whether psychic `p`'s tile holds still now: from the first vision to the sand's end, when
 * pawns are placed at once, a vision given, a pawn placed or the sand turned on another device
 * moves nothing on the table, where someone may be reaching for a pawn. */
const holdsRoom = (view, p) => Boolean(p.seeking) && ['visions', 'interpretation'].includes(view.phase);

/** Cards the pawn may go on (the rules say which); the one it is on is pressed. While the tile
 * holds still and none is offered, the sought category's cards keep their room: shown where
 * the pawn stands, unseen before it is placed. */
export function intuition(ctx, p, i) {
  const view = ctx.view;
  const cards = ctx.choices('place_intuition', 'cards', { psychic: i });
  const group = (chips) => h('div', { class: 'pawn', role: 'group', 'aria-label': t('psychic.intuition_of', { name: nameOf(p) }) }, chips);
  if (cards.length) {
    return group(cards.map((card) => h('button', {
      type: 'button', class: 'chip', 'aria-pressed': String(p.intuition === card), 'data-card': card,
      onclick: () => ctx.act('place_intuition', { psychic: i, card }),
    }, card)));
  }
  if (!holdsRoom(view, p)) return null;
  const shown = group((view.layout?.[`${p.seeking}s`] ?? []).map((card) => h('button', {
    type: 'button', class: 'chip', disabled: true, 'aria-pressed': String(p.intuition === card),
  }, card)));
  return p.intuition === null ? reserved(shown) : shown;
}

/** The token `by` has on `on`'s pawn: none → ✓ → ✗ → none, one tap (one command) each,
 * skipping a face the rules do not offer. */
function tokenToggle(ctx, by, on) {
  const view = ctx.view;
  const placed = view.placements.find((x) => x.by === by && x.on === on);
  const giver = view.psychics[by];
  const faces = ctx.choices('place_token', 'faces', { by, on });
  const later = placed?.face === 'agree' ? ['disagree'] : placed ? [] : ['agree', 'disagree'];
  const face = later.find((f) => faces.includes(f));
  const next = face ? ['place_token', { by, on, face }] : placed && ctx.may('withdraw_token', { by, on }) ? ['withdraw_token', { by, on }] : null;
  const mark = placed ? (placed.face === 'agree' ? '✓' : '✗') : null;
  const label = placed
    ? t(placed.face === 'agree' ? 'token.agree_by' : 'token.disagree_by', { name: nameOf(giver) })
    : t('token.none_by', { name: nameOf(giver) });
  return h('button', {
    type: 'button', class: 'token', 'data-by': by, 'data-face': placed?.face ?? 'none',
    dataset: { colour: giver.colour }, 'aria-label': label, title: label, disabled: !next,
    onclick: () => ctx.act(...next),
  }, h('span', { class: 'initials', 'aria-hidden': 'true' }, initials(view.psychics)[by]), h('span', { class: 'face', 'aria-hidden': 'true' }, mark ?? '\u00a0'));
}

/** The tokens on `on`'s pawn, a toggle for each other psychic; before any may be placed,
 * their room, unseen. */
function tokens(ctx, on) {
  const view = ctx.view;
  const p = view.psychics[on];
  const open = view.psychics.some((_, by) => ctx.may('place_token', { by, on }) || ctx.may('withdraw_token', { by, on }));
  const placed = view.placements.some((x) => x.on === on);
  if (!open && !placed && !(view.tokens_per_psychic && holdsRoom(view, p))) return null;
  const row = h('div', { class: 'tokens', role: 'group', 'aria-label': t('token.on_pawn', { name: nameOf(p) }) },
    view.psychics.map((_, by) => (by === on ? null : tokenToggle(ctx, by, on))));
  return open || placed ? row : reserved(row);
}

/** The ghost's answer to psychic `i`: the app's judgement to reveal (said as `reveal`: the
 * table asks the ghost, the ghost's phone answers), or right and wrong (right only once
 * their pawn is on a card), as the rules offer. */
export function answerButtons(ctx, i, reveal = 'manifest.reveal') {
  const answers = ctx.may('manifest', { psychic: i })?.answers ?? [];
  if (answers.includes(null)) {
    return h('button', { type: 'button', class: 'primary', 'data-manifest': i, onclick: () => ctx.act('manifest', { psychic: i }) },
      t(reveal));
  }
  if (!answers.length) return null;
  return [
    h('button', { type: 'button', class: 'right', 'data-right': i, disabled: !answers.includes(true),
      onclick: () => ctx.act('manifest', { psychic: i, right: true }) }, t('manifest.right')),
    h('button', { type: 'button', class: 'wrong', 'data-wrong': i, onclick: () => ctx.act('manifest', { psychic: i, right: false }) },
      t('manifest.wrong')),
  ];
}

function answer(ctx, i) {
  const buttons = answerButtons(ctx, i);
  return buttons && h('div', { class: 'answer' }, buttons);
}

/** The ghost's answer to psychic `i` this turn, said; or that they have found all three. */
function result(view, p, i) {
  const said = view.manifestations.find((m) => m.psychic === i);
  if (said) {
    return h('p', { class: `result ${said.right ? 'right' : 'wrong'}`, 'data-result': said.right ? 'right' : 'wrong' },
      said.right ? t('result.right', { card: said.card }) : t('result.wrong'),
      said.bonus ? ` ${t('result.bonus', { n: said.bonus })}` : '');
  }
  return p.seeking ? null : h('p', { class: 'result done' }, t('psychic.finished'));
}

/** The ghost's button that gives (or completes) psychic `i`'s vision, where the rules offer it. */
function visionButton(ctx, p, i) {
  if (!ctx.choices('give_vision', 'psychics').includes(i)) return null;
  return h('button', { type: 'button', class: 'vision', 'data-vision': i, onclick: () => ctx.act('give_vision', { psychic: i }) },
    p.completing ? t('vision.complete') : t('vision.give'));
}

function standing(view, p) {
  const items = [];
  if (view.track_side) {
    items.push(h('span', { class: 'space', title: t('track.space', { n: p.track }) }, `◆${p.track}`));
    items.push(h('span', { class: 'level' }, p.level ? t(`level.${p.level}`) : t('level.unknown')));
  }
  if (view.tokens_per_psychic) {
    items.push(h('span', { class: 'held', title: t('token.held', { agree: p.tokens.agree, disagree: p.tokens.disagree }) },
      // One mark: ✓ and ✗ never wrap apart.
      `✓${p.tokens.agree}\u00a0✗${p.tokens.disagree}`));
  }
  return items.length ? h('p', { class: 'standing' }, items) : null;
}

/** A phone's outline: this psychic plays on their own phone. */
function phoneBadge() {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 12 18');
  svg.setAttribute('class', 'on-phone-icon');
  svg.setAttribute('aria-hidden', 'true');
  const body = document.createElementNS(ns, 'rect');
  for (const [k, v] of Object.entries({ x: 1, y: 1, width: 10, height: 16, rx: 2 })) body.setAttribute(k, v);
  svg.append(body);
  return h('span', { class: 'on-phone-badge', role: 'img', title: t('psychic.on_phone'), 'aria-label': t('psychic.on_phone') }, svg);
}

/** A psychic's tile; `phone`: their seat is held by a phone. */
export function psychicTile(ctx, p, i, phone = false) {
  const view = ctx.view;
  return h('article', {
    class: 'psychic', 'data-psychic': i, dataset: { colour: p.colour },
    'data-has-vision': String(p.vision), 'data-on-phone': String(phone), 'aria-label': nameOf(p),
  },
  h('header', {},
    h('span', { class: 'swatch', 'aria-hidden': 'true', dataset: { colour: p.colour } }),
    h('h3', {}, nameOf(p)),
    phone ? phoneBadge() : null),
  standing(view, p),
  progress(p),
  holdsRoom(view, p) ? phaseOne(ctx, p, i) : [result(view, p, i), answer(ctx, i)]);
}

/** A seeker's tile from the first vision to the sand's end, as tall throughout: the pawn's
 * cards and the tokens, or their room, where the vision's button lies over them before they
 * are offered. */
function phaseOne(ctx, p, i) {
  const room = pawnAndTokens(intuition(ctx, p, i), tokens(ctx, i));
  const giving = visionButton(ctx, p, i);
  return giving ? h('div', { class: 'vision-room' }, room, h('div', { class: 'over' }, giving)) : room;
}

/** The pawn's cards and the tokens on it, together: where a tile is narrow they share its
 * rows (the style sheet says where). */
function pawnAndTokens(pawn, tokens) {
  return pawn || tokens ? h('div', { class: 'pawn-tokens' }, pawn, tokens) : null;
}

/** Every psychic's tile; `onPhone(i)`: whether a phone holds psychic i's seat. */
export function psychicGrid(ctx, onPhone = () => false) {
  const view = ctx.view;
  return h('section', { id: 'psychics', class: 'psychics', 'data-count': view.psychics.length, 'aria-label': t('psychics.title') },
    view.psychics.map((p, i) => psychicTile(ctx, p, i, onPhone(i))));
}
