// The clairvoyancy track: each psychic's marker on its space, and each space's level as
// the view gives it. Where a band's start is uncertain the spaces are hatched and say so.

import { h } from '../../dom.js';
import { initials, nameOf, t } from '../../i18n.js';

export function track(view) {
  if (!view.spaces.length) return null;
  const marks = initials(view.psychics);
  return h('section', { id: 'track', class: 'track', 'aria-label': t('track.title', { side: view.track_side }) },
    h('h2', {}, t('track.title', { side: view.track_side })),
    h('ol', { class: 'spaces' },
      view.spaces.map((level, space) => {
        const here = view.psychics.map((p, i) => [p, marks[i]]).filter(([p]) => p.track === space);
        const kind = level ?? 'uncertain';
        return h('li', { class: `space band-${kind}`, 'data-space': space, title: t(`band.${kind}`) },
          h('span', { class: 'number' }, space),
          h('span', { class: 'markers' }, here.map(([p, mark]) => h('span', {
            class: 'marker', role: 'img', dataset: { colour: p.colour }, title: nameOf(p), 'aria-label': nameOf(p),
          }, mark))));
      })),
    // The keys of the bands on this track: "Check your track" only where a space needs it.
    h('p', { class: 'legend' },
      ['low', 'intermediate', 'high', 'uncertain'].filter((k) => view.spaces.some((level) => (level ?? 'uncertain') === k))
        .map((k) => h('span', { class: `key band-${k}` }, t(`band.${k}`)))));
}
