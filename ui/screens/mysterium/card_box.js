// The new edition's box, as the players describe it: each category's sets, by a name
// (the colour of their backs, say) and the numbers printed on their eight cards' backs.
// Kept in the table's settings; the server checks it and says what to fix.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';

export const CATEGORIES = ['characters', 'locations', 'objects'];

/** "1-8", "1 2 3" or "1, 2, 3" → [1, 2, 3, …]; what is not a number is left out. */
export function parseNumbers(text) {
  return text.split(/[\s,;]+/).filter(Boolean).flatMap((part) => {
    const range = part.match(/^(\d+)[-–](\d+)$/);
    if (!range) return /^\d+$/.test(part) ? [Number(part)] : [];
    const [from, to] = [Number(range[1]), Number(range[2])];
    return to >= from && to - from < 64 ? Array.from({ length: to - from + 1 }, (_, k) => from + k) : [];
  });
}

/** [1,2,…,8] → "1-8"; other lists as they are. */
function showNumbers(cards) {
  const run = cards.every((c, k) => k === 0 || c === cards[k - 1] + 1);
  return run && cards.length > 2 ? `${cards[0]}-${cards[cards.length - 1]}` : cards.join(' ');
}

function setRow(category, k, set) {
  return h('div', { class: 'set-row', 'data-set': `${category}-${k}` },
    h('input', { id: `set-${category}-${k}-name`, class: 'set-name', type: 'text', value: set.name, maxlength: 24,
      placeholder: t('box.set_name'), 'aria-label': t('box.set_name'), autocomplete: 'off' }),
    h('input', { id: `set-${category}-${k}-cards`, class: 'set-cards', type: 'text', value: showNumbers(set.cards),
      placeholder: t('box.set_cards'), 'aria-label': t('box.set_cards'), inputmode: 'numeric', autocomplete: 'off' }));
}

/** The editor; `box` is the settings' `card_box`, `rows` how many sets to show per category. */
export function boxEditor(box, rows, addRow) {
  return h('div', { id: 'card-box', class: 'card-box' },
    h('p', { class: 'note' }, t('box.hint')),
    CATEGORIES.map((category) => {
      const sets = box[category];
      const count = Math.max(rows[category] ?? 0, sets.length, 1);
      return h('fieldset', { class: 'box-category', 'data-category': category },
        h('legend', {}, t(`box.${category}`)),
        Array.from({ length: count }, (_, k) => setRow(category, k, sets[k] ?? { name: '', cards: [] })),
        h('button', { type: 'button', class: 'add-set', 'data-add': category, onclick: () => addRow(category, count + 1) },
          t('box.add_set')));
    }));
}

/** The box as typed in the editor (rows left empty are no set). */
export function readBox() {
  const box = {};
  for (const category of CATEGORIES) {
    box[category] = [...document.querySelectorAll(`[data-category="${category}"] .set-row`)].map((row) => ({
      name: row.querySelector('.set-name').value.trim(),
      cards: parseNumbers(row.querySelector('.set-cards').value),
    })).filter((set) => set.name || set.cards.length);
  }
  return box;
}
