// What the endings of every rule set's games share: the ways on (a rematch with the phones'
// seats kept, BG Stats).

import { api, bgStatsQrUrl, gamePath } from '../../api.js';
import { h, toast } from '../../dom.js';
import { t } from '../../i18n.js';

/** Seats phones hold that the table has unticked for the rematch, by game. */
const dropped = new Map();

/** The seats the table has unticked in game `id`. */
function droppedIn(id) {
  if (!dropped.has(id)) dropped.set(id, new Set());
  return dropped.get(id);
}

/** The phones holding seats in the game on screen, each ticked to keep its seat in the
 * rematch (the table unticks one to free it there); `seats` lists the game's seats as
 * [name, label, colour]. Nothing where no phone holds a seat or no rematch is allowed. */
export function seatsKept(ctx, seats) {
  const held = ctx.snapshot.seats ?? [];
  if (!ctx.may('rematch') || !held.length) return null;
  const off = droppedIn(ctx.game.id);
  return h('fieldset', { id: 'rematch-seats', class: 'kept-seats' },
    h('legend', {}, t('ending.keep_seats')),
    seats.filter(([seat]) => held.includes(seat)).map(([seat, label, colour]) => h('label', {},
      h('input', {
        type: 'checkbox', 'data-keep': seat, checked: !off.has(seat),
        onchange: (event) => { if (event.target.checked) off.delete(seat); else off.add(seat); },
      }),
      colour ? h('span', { class: 'swatch', dataset: { colour } }) : null,
      label)));
}

/** "Play again" on an ending, where the rules allow it (what it keeps in its title): the
 * rematch is made on the server with the seats the table keeps ([`seatsKept`]), and every
 * screen of this game, this one too, goes on to it from its view. */
export function playAgain(ctx) {
  if (!ctx.may('rematch')) return null;
  return h('button', {
    id: 'rematch', type: 'button', class: 'primary', title: t('ending.rematch_hint'),
    onclick: async () => {
      const keep = (ctx.snapshot.seats ?? []).filter((seat) => !droppedIn(ctx.game.id).has(seat));
      if (await ctx.post('/rematch', { keep })) await ctx.refresh();
    },
  }, t('ending.rematch'));
}

/** The game over, sent to BG Stats: on the table a QR code a player's phone scans, on a
 * phone a button that opens BG Stats with the play filled in. */
export function toBgStats(ctx) {
  const { id, kind } = ctx.game;
  if (ctx.table) {
    return h('figure', { id: 'bgstats', class: 'bgstats' },
      // The short link's 33 modules and their quiet zone, 5 screen pixels each: a phone
      // reads it off the table from where its players sit.
      h('img', { class: 'qr', src: bgStatsQrUrl(kind, id), alt: t('bgstats.qr_alt'), width: 205, height: 205 }),
      h('figcaption', { class: 'note' }, t('bgstats.scan')));
  }
  return h('button', {
    id: 'bgstats', type: 'button',
    onclick: async () => {
      try {
        location.href = (await api(gamePath(kind, id, 'bgstats'))).url;
      } catch (error) {
        toast(error.message);
      }
    },
  }, t('bgstats.send'));
}
