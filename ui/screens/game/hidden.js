// Hidden entry on the table itself, for a table without phones: the tablet is passed to one
// person, the screen blanks for everybody else, and blanks again before it is passed back.
// The ghost's secrets are fetched only when the ghost asks to see them, and dropped when
// hidden: they are never in the page otherwise.

import { h, toast } from '../../dom.js';
import { ghostSeat, nameOf, t } from '../../i18n.js';
import { api, qrUrl } from '../../api.js';
import { state, render } from '../../context.js';
import { command } from './actions.js';
import { may } from '../../allowed.js';
import { sealedChoice, traceOf } from './groups.js';
import { CATEGORIES } from './psychics.js';

/** The panel open now: null, or { kind: 'secrets' | 'culprit' | 'vote' | 'phones' | 'invite', step, psychic?, group?, ghost?, seat?, qr? }. */
let panel = null;

export function open(kind, fields = {}) {
  panel = { kind, step: 'pass', ...fields };
  render();
}

function close() {
  panel = null;
  render();
}

function go(step, fields = {}) {
  Object.assign(panel, { step }, fields);
  render();
}

/** Whether a hidden panel covers the screen (nothing else should be drawn under it). */
export function covering() {
  return panel !== null;
}

async function showSecrets() {
  try {
    const snapshot = await api(`/games/${state.game.id}?role=ghost`);
    go('show', { ghost: snapshot.view });
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

/** The phones at the table: the code to scan, and each seat ([name, label, colour]),
 * taken or free; `invite(seat)`, where given, passes the tablet to the player of a seat
 * taken only by the table's invitation (the snapshot's `by_invitation`). Shared by every
 * game's table screen. */
export function phonesPanel(seats, done, invite = null) {
  const game = state.game;
  const taken = new Set(game.snapshot.seats ?? []);
  const invited = new Set(game.snapshot.by_invitation ?? []);
  const action = (name) => {
    if (taken.has(name)) {
      return h('button', {
        type: 'button', 'data-free': name,
        onclick: async () => { await api(`/${game.kind}/${game.id}/seats/${name}`, { method: 'DELETE' }); },
      }, t('phones.release'));
    }
    return invite && invited.has(name)
      ? h('button', { type: 'button', 'data-invite': name, onclick: () => invite(name) }, t('phones.invite'))
      : null;
  };
  const seat = ([name, label, colour]) => h('li', { class: 'phone-row', 'data-seat': name, dataset: colour ? { colour } : {} },
    h('span', { class: 'swatch', dataset: colour ? { colour } : {} }),
    h('span', { class: 'name' }, label),
    h('span', { class: 'taken' }, taken.has(name) ? t('phones.on_phone') : invited.has(name) ? t('phones.by_invitation') : t('phones.free')),
    action(name));
  return [
    h('h2', { id: 'hidden-title' }, t('phones.title')),
    h('img', { id: 'phones-qr', class: 'qr', src: qrUrl(game.id, game.kind), width: 220, height: 220, alt: t('join.hint') }),
    h('p', { class: 'note' }, t('phones.hint', { code: state.info.join_code, address: new URL(state.info.join_url).host })),
    h('ul', { class: 'phone-list' }, seats.map(seat)),
    h('button', { id: 'hidden-done', type: 'button', class: 'primary big', onclick: done }, t('hidden.done')),
  ];
}

/** A game's seats as the phones panel lists them: [name, label, colour]. */
export const seatsOf = (view) => [
  ['ghost', ghostSeat(view.ghost), null],
  ...view.psychics.map((p, i) => [`psychic:${i}`, nameOf(p), p.colour]),
];

function phones(view) {
  return phonesPanel(seatsOf(view), close, (seat) => go('pass', { kind: 'invite', seat }));
}

/** The table's invitation to `panel.seat`, shown to its player alone: a QR code the
 * phone scans to take the seat (once), then the seat on that phone. */
async function showInvitation() {
  try {
    const { qr } = await api(`/${state.game.kind}/${state.game.id}/seats/${panel.seat}/invitation`, { method: 'POST' });
    go('show', { qr });
  } catch (error) {
    toast(error.message);
  }
}

function invitation() {
  // Hidden again, the invitation opens nothing: a photograph of it is no key.
  const { id, kind } = state.game;
  const seat = panel.seat;
  const back = () => {
    api(`/${kind}/${id}/seats/${seat}/invitation`, { method: 'DELETE' }).catch(() => {});
    go('show', { kind: 'phones', qr: null });
  };
  if ((state.game.snapshot.seats ?? []).includes(seat)) {
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
function steps(view) {
  if (panel.kind === 'phones') return phones(view);
  const who = panel.kind === 'vote' ? nameOf(view.psychics[panel.psychic]) : view.ghost;
  switch (`${panel.kind}:${panel.step}`) {
    case 'invite:pass':
      return passTo(who, showInvitation);
    case 'invite:show':
      return invitation();
    case 'secrets:pass':
    case 'culprit:pass':
      return passTo(who, () => (panel.kind === 'secrets' ? showSecrets() : go('enter')));
    case 'secrets:show':
      return [
        h('h2', {}, t('hidden.secrets_title')),
        secrets(panel.ghost),
        h('button', { id: 'hidden-done', type: 'button', class: 'primary big', onclick: close }, t('hidden.hide')),
      ];
    case 'culprit:enter':
      return [
        h('h2', {}, t('culprit.choose')),
        sealedChoice(view, {
          id: 'hidden-seal', chosen: panel.group, onpick: (group) => go('enter', { group }),
          seal: async (group) => { if (await command('choose_culprit', { group })) close(); },
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
          id: 'hidden-seal', chosen: panel.group, onpick: (group) => go('enter', { group }),
          seal: async (group) => {
            if (!(await command('vote', { psychic: panel.psychic, group }))) return;
            const next = nextVoter(panel.psychic);
            if (next !== null) go('enter', { psychic: next, group: null });
            else if (state.game.snapshot.view.counting) go('sealed', { group: null });
            else close();
          },
          label: (n) => (n ? t('vote.seal', { n }) : t('vote.pick_first')),
        }),
      ];
    case 'vote:sealed':
      return sealed(close);
    default:
      return [];
  }
}

/** Of the seats `left` (in seating order), the first after `after` round the table (from
 * the first when `after` is null), or null: who the passed tablet goes to next. */
export function nextAround(left, after) {
  return left.find((i) => after === null || i > after) ?? left[0] ?? null;
}

/** Who votes next on the tablet, as the rules allow now, after psychic `after`. */
function nextVoter(after) {
  const { psychics } = state.game.snapshot.view;
  return nextAround(psychics.map((_, i) => i).filter((i) => psychics[i].voting_now && may('vote', { psychic: i })), after);
}

/** "Pass the tablet to NAME": everybody else looks away until `ready` ("I am NAME"). */
export function passTo(name, ready) {
  return [
    h('h2', {}, t('hidden.pass_to', { name })),
    h('p', {}, t('hidden.look_away')),
    h('button', { id: 'hidden-ready', type: 'button', class: 'primary big', onclick: ready }, t('hidden.i_am', { name })),
  ];
}

/** A secret vote sealed: the tablet goes back. */
export function sealed(done) {
  return [
    h('h2', {}, t('vote.sealed')),
    h('p', {}, t('hidden.pass_back')),
    h('button', { id: 'hidden-done', type: 'button', class: 'primary big', onclick: done }, t('hidden.done')),
  ];
}

/** The card over the whole screen: an eyebrow `title` (or none, when the body carries
 * #hidden-title), the body, and Cancel when `cancel` is given. */
export function cover(title, body, cancel = null) {
  return h('div', { id: 'hidden', class: 'hidden-entry', role: 'dialog', 'aria-modal': 'true', 'aria-labelledby': 'hidden-title' },
    h('div', { class: 'hidden-card' },
      title ? h('p', { id: 'hidden-title', class: 'eyebrow' }, title) : null,
      body,
      cancel ? h('button', { id: 'hidden-cancel', type: 'button', class: 'quiet', onclick: cancel }, t('hidden.cancel')) : null));
}

/** The panel over the whole screen, or null. */
export function hiddenPanel(view) {
  if (!panel) return null;
  const entering = panel.step === 'pass' || panel.step === 'enter';
  return cover(panel.kind === 'phones' ? null : t(`hidden.${panel.kind}`), steps(view), entering ? close : null);
}
