// The table's clairvoyancy track as printed: each side's first Intermediate and first High
// space, told once and kept in the table's settings, so that no game asks for a level
// again. The ranges a side may take are the rules' (Mysterium's `facts.track_bands`, told in
// the page).

import { h, toast } from '../../dom.js';
import { t } from '../../i18n.js';
import { MYSTERIUM, changeOwn, factsOf, settingsOf } from '../../rule_sets.js';

const BANDS = ['intermediate', 'high'];

/** Where `band` of `side` may start: one space when the rulebooks settle it. */
const range = (side, band) => factsOf(MYSTERIUM).track_bands[side][`${band}_from`];

/** The bands told for `side` in the table's `settings`, or null. */
export function toldBands(settings, side) {
  return settingsOf(settings, MYSTERIUM).track_bands?.[side] ?? null;
}

/** The latest save, for a setup to wait on before it starts a game with the bands (the app
 * sends saves one after another). */
let saving = Promise.resolve();

/** Saves of each side sent or waiting to be: a refusal with a later save behind it was of
 * a state already left (that save says its own). */
const pending = {};

/** Resolves once every band typed so far is saved. */
export const bandsSaved = () => saving;

/** Saves `side` as typed: told once every band has its space, forgotten when a told side
 * is cleared; a refused save keeps what was typed on screen and says why. */
function save(ctx, side, after) {
  // Both fields as they are on screen now, not as they were drawn.
  const typed = Object.fromEntries(BANDS.map((band) => {
    const { lo, hi } = range(side, band);
    const field = document.getElementById(`band-${side}-${band}`);
    return [band, lo === hi ? lo : field.value === '' ? null : Number(field.value)];
  }));
  pending[side] = (pending[side] ?? 0) + 1;
  // Onto the bands as they stand when it is sent: it keeps what the saves before it kept.
  const change = changeOwn(MYSTERIUM, (own) => {
    const bands = { ...(own.track_bands ?? {}) };
    if (BANDS.every((band) => typed[band] !== null)) bands[side] = typed;
    else if (bands[side]) delete bands[side];
    else return null;
    return { track_bands: bands };
  });
  saving = ctx.saveSettings(change).then(
    () => { pending[side] -= 1; after(); },
    (error) => {
      if (pending[side] === 1) toast(error.message);
      pending[side] -= 1;
    },
  );
}

/** A side's two band starts, each a number within the rules' range (or the one space they
 * allow), saved as soon as both are there; `after` draws the screen again. */
export function trackBandsEditor(ctx, side, after) {
  const told = toldBands(ctx.settings, side);
  const field = (band) => {
    const { lo, hi } = range(side, band);
    const id = `band-${side}-${band}`;
    return h('label', { class: 'band-field', for: id }, t(`band.first_${band}`),
      lo === hi
        ? h('output', { id }, lo)
        : h('input', {
          id, type: 'number', inputmode: 'numeric', min: lo, max: hi, value: told?.[band] ?? '',
          onchange: () => save(ctx, side, after),
        }));
  };
  return h('fieldset', { class: 'track-bands', 'data-side': side, 'data-told': String(Boolean(told)) },
    h('legend', {}, t('track.title', { side })),
    h('div', { class: 'row' }, BANDS.map(field)),
    h('p', { class: 'note' }, t(told ? 'bands.told' : 'bands.untold')));
}
