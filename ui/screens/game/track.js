// The clairvoyancy track: each psychic's marker on its space, and the level bands as far
// as they are known. Where a band's start is uncertain the spaces are hatched and say so.

import { h } from '../../dom.js';
import { t } from '../../i18n.js';

/** The level of `space` under the bands: a name, or 'uncertain'. */
function band(bands, space) {
  const { intermediate_from: mid, high_from: high } = bands;
  if (space >= high.hi) return 'high';
  if (space >= high.lo) return 'uncertain';
  if (space >= mid.hi) return 'intermediate';
  if (space >= mid.lo) return 'uncertain';
  return 'low';
}

export function track(view) {
  if (!view.track_side || !view.bands) return null;
  const furthest = Math.max(...view.psychics.map((p) => p.track));
  const last = Math.max(12, furthest + 1);
  return h('section', { id: 'track', class: 'track', 'aria-label': t('track.title', { side: view.track_side }) },
    h('h2', {}, t('track.title', { side: view.track_side })),
    h('ol', { class: 'spaces' },
      Array.from({ length: last + 1 }, (_, space) => {
        const here = view.psychics.filter((p) => p.track === space);
        const kind = band(view.bands, space);
        return h('li', { class: `space band-${kind}`, 'data-space': space, title: t(`band.${kind}`) },
          h('span', { class: 'number' }, space),
          h('span', { class: 'markers' }, here.map((p) => h('span', {
            class: 'marker', role: 'img', dataset: { colour: p.colour }, title: p.name, 'aria-label': p.name,
          }))));
      })),
    h('p', { class: 'legend' },
      ['low', 'intermediate', 'high', 'uncertain'].map((k) => h('span', { class: `key band-${k}` }, t(`band.${k}`)))));
}
