// The tablet passed round, as every rule set's table screen does it for a table without
// phones: the card over the whole screen, "pass the tablet to NAME", a secret sealed and the
// tablet passed back, who gets it next; and the Phones panel (the code to scan, each seat
// taken or free).

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { api, gamePath, qrUrl } from '../../api.js';

/** The phones at the table: the code to scan, and each seat ([name, label, colour]),
 * taken or free; `invite(seat)`, where given, passes the tablet to the player of a seat
 * taken only by the table's invitation (the snapshot's `by_invitation`). */
export function phonesPanel(ctx, seats, done, invite = null) {
  const { id, kind } = ctx.game;
  const taken = new Set(ctx.snapshot.seats ?? []);
  const invited = new Set(ctx.snapshot.by_invitation ?? []);
  const action = (name) => {
    if (taken.has(name)) {
      return h('button', {
        type: 'button', 'data-free': name,
        onclick: async () => { await api(gamePath(kind, id, 'seats', name), { method: 'DELETE' }); },
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
    h('img', { id: 'phones-qr', class: 'qr', src: qrUrl(kind, id), width: 220, height: 220, alt: t('join.hint') }),
    h('p', { class: 'note' }, t('phones.hint', { code: ctx.info.join_code, address: new URL(ctx.info.join_url).host })),
    h('ul', { class: 'phone-list' }, seats.map(seat)),
    h('button', { id: 'hidden-done', type: 'button', class: 'primary big', onclick: done }, t('hidden.done')),
  ];
}

/** Of the seats `left` (in seating order), the first after `after` round the table (from
 * the first when `after` is null), or null: who the passed tablet goes to next. */
export function nextAround(left, after) {
  return left.find((i) => after === null || i > after) ?? left[0] ?? null;
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
