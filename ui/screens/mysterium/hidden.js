// Hidden entry on the table itself, for a table without phones: the tablet is passed to one
// person, the screen blanks for everybody else, and blanks again before it is passed back.
// The ghost's secrets are fetched only when the ghost asks to see them, and dropped when
// hidden: they are never in the page otherwise.

import { h, toast } from '../../dom.js';
import { ghostSeat, nameOf, t } from '../../i18n.js';
import { api, gamePath } from '../../api.js';
import { cover, nextAround, passTo, phonesPanel, sealed } from '../shared/hidden.js';
import { sealedChoice, traceOf } from './groups.js';
import { CATEGORIES } from './psychics.js';

/** The panel open now: null, or { kind: 'secrets' | 'culprit' | 'vote' | 'phones' | 'invite', step, psychic?, group?, ghost?, seat?, qr? }. */
let panel = null;

export function open(ctx, kind, fields = {}) {
  panel = { kind, step: 'pass', ...fields };
  ctx.render();
}

function close(ctx) {
  panel = null;
  ctx.render();
}

function go(ctx, step, fields = {}) {
  Object.assign(panel, { step }, fields);
  ctx.render();
}

/** Whether a hidden panel covers the screen (nothing else should be drawn under it). */
export function covering() {
  return panel !== null;
}

async function showSecrets(ctx) {
  try {
    const snapshot = await api(`${gamePath(ctx.game.kind, ctx.game.id)}?role=ghost`);
    go(ctx, 'show', { ghost: snapshot.view });
  } catch (error) {
    toast(error.message);
  }
}

/** What only the ghost knows: the drawn culprit (new edition) and each psychic's cards. */
function secrets(ghost) {
  const culprit = ghost.groups.find((g) => g.number === ghost.culprit);
  const whose = culprit && traceOf(ghost, culprit);
  return [
    whose ? h('p', { id: 'ghost-culprit', class: 'banner', 'data-culprit': culprit.number },
      t('culprit.drawn', { name: nameOf(whose), cards: culprit.cards.join(' · ') })) : null,
    ghost.assignments ? secretCards(ghost) : null,
  ];
}

function secretCards(ghost) {
  return h('table', { id: 'ghost-secrets', class: 'secrets' },
    h('thead', {}, h('tr', {}, h('th', {}, ''), CATEGORIES.map((c) => h('th', { scope: 'col' }, t(`category.${c}`))))),
    h('tbody', {}, ghost.psychics.map((p, i) => h('tr', { dataset: { colour: p.colour } },
      h('th', { scope: 'row' }, h('span', { class: 'swatch', dataset: { colour: p.colour } }), nameOf(p)),
      CATEGORIES.map((c, k) => h('td', { class: p.seeking === c ? 'now' : p.found.length > k ? 'found' : '' },
        ghost.assignments[i][k]))))));
}

/** A game's seats as the phones panel lists them: [name, label, colour]. */
export const seatsOf = (view) => [
  ['ghost', ghostSeat(view.ghost), null],
  ...view.psychics.map((p, i) => [`psychic:${i}`, nameOf(p), p.colour]),
];

function phones(ctx) {
  return phonesPanel(ctx, seatsOf(ctx.view), () => close(ctx), (seat) => go(ctx, 'pass', { kind: 'invite', seat }));
}

/** The table's invitation to `panel.seat`, shown to its player alone: a QR code the
 * phone scans to take the seat (once), then the seat on that phone. */
async function showInvitation(ctx) {
  try {
    const { qr } = await api(gamePath(ctx.game.kind, ctx.game.id, 'seats', panel.seat, 'invitation'), { method: 'POST' });
    go(ctx, 'show', { qr });
  } catch (error) {
    toast(error.message);
  }
}

function invitation(ctx) {
  // Hidden again, the invitation opens nothing: a photograph of it is no key.
  const { id, kind } = ctx.game;
  const seat = panel.seat;
  const back = () => {
    api(gamePath(kind, id, 'seats', seat, 'invitation'), { method: 'DELETE' }).catch(() => {});
    go(ctx, 'show', { kind: 'phones', qr: null });
  };
  if ((ctx.snapshot.seats ?? []).includes(seat)) {
    return [
      h('h2', {}, t('phones.invited_taken')),
      h('p', {}, t('hidden.pass_back')),
      h('button', { id: 'hidden-done', type: 'button', class: 'primary big', onclick: back }, t('hidden.done')),
    ];
  }
  return [
    h('h2', {}, t('phones.invitation_title')),
    h('img', { id: 'invitation-qr', class: 'qr', src: panel.qr, width: 220, height: 220, alt: t('phones.invitation_hint') }),
    h('p', { class: 'note' }, t('phones.invitation_hint')),
    h('button', { id: 'hidden-done', type: 'button', class: 'primary big', onclick: back }, t('phones.invitation_hide')),
  ];
}

/** Who the tablet goes to, and what they do once they have it. */
function steps(ctx) {
  const view = ctx.view;
  if (panel.kind === 'phones') return phones(ctx);
  const who = panel.kind === 'vote' ? nameOf(view.psychics[panel.psychic]) : view.ghost;
  switch (`${panel.kind}:${panel.step}`) {
    case 'invite:pass':
      return passTo(who, () => showInvitation(ctx));
    case 'invite:show':
      return invitation(ctx);
    case 'secrets:pass':
    case 'culprit:pass':
      return passTo(who, () => (panel.kind === 'secrets' ? showSecrets(ctx) : go(ctx, 'enter')));
    case 'secrets:show':
      return [
        h('h2', {}, t('hidden.secrets_title')),
        secrets(panel.ghost),
        h('button', { id: 'hidden-done', type: 'button', class: 'primary big', onclick: () => close(ctx) }, t('hidden.hide')),
      ];
    case 'culprit:enter':
      return [
        h('h2', {}, t('culprit.choose')),
        sealedChoice(view, {
          id: 'hidden-seal', chosen: panel.group, onpick: (group) => go(ctx, 'enter', { group }),
          seal: async (group) => { if (await ctx.act('choose_culprit', { group })) close(ctx); },
          label: (n) => (n ? t('culprit.seal', { n }) : t('culprit.pick_first')),
        }),
      ];
    case 'vote:enter':
      // Nothing secret is on screen before a vote, nor once it is sealed: the tablet goes
      // from voter to voter with no cover between them, and back under one only when the
      // count waits behind it.
      return [
        h('h2', {}, t('vote.choose', { name: who })),
        h('p', {}, t('hidden.look_away')),
        sealedChoice(view, {
          id: 'hidden-seal', chosen: panel.group, onpick: (group) => go(ctx, 'enter', { group }),
          seal: async (group) => {
            if (!(await ctx.act('vote', { psychic: panel.psychic, group }))) return;
            // The vote's answer drew the screen again: who votes next is the new context's.
            const now = ctx.now();
            const next = nextVoter(now, panel.psychic);
            if (next !== null) go(now, 'enter', { psychic: next, group: null });
            else if (now.view.counting) go(now, 'sealed', { group: null });
            else close(now);
          },
          label: (n) => (n ? t('vote.seal', { n }) : t('vote.pick_first')),
        }),
      ];
    case 'vote:sealed':
      return sealed(() => close(ctx));
    default:
      return [];
  }
}

/** Who votes next on the tablet, as the rules allow now, after psychic `after`. */
function nextVoter(ctx, after) {
  const { psychics } = ctx.view;
  return nextAround(psychics.map((_, i) => i).filter((i) => psychics[i].voting_now && ctx.may('vote', { psychic: i })), after);
}

/** The panel over the whole screen, or null. */
export function hiddenPanel(ctx) {
  if (!panel) return null;
  const entering = panel.step === 'pass' || panel.step === 'enter';
  return cover(panel.kind === 'phones' ? null : t(`hidden.${panel.kind}`), steps(ctx), entering ? () => close(ctx) : null);
}
