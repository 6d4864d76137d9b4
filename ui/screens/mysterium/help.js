// Mysterium's help (`shared/help.js` shows it): this phase's steps with the box
// (`guide.<phase>`, with the new edition's own), what the marks on its screen mean, and a
// first game's steps on the board.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';
import { guiding, steps } from '../shared/help.js';

/** The steps on the board, in a first game. */
export function guide(view) {
  return guiding() ? h('section', { id: 'guide', class: 'guide', 'aria-label': t('help.open') }, steps(`guide.${view.phase}`)) : null;
}

/** What the help of a Mysterium game tells: this phase's steps, and what the marks on its
 * screen mean (only those it shows); the first-game steps may go on its board. */
export function mysteriumHelp(view) {
  const legend = [
    view.track_side && 'space', view.track_side && 'level', view.tokens_per_psychic && 'held',
    view.tokens_per_psychic && 'token', view.track_side && 'marker', 'progress', 'phone',
  ].filter(Boolean);
  return { title: t(`phase.${view.phase}`), steps: `guide.${view.phase}`, legend, board: true };
}
