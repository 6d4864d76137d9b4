// Setting up a game: players, names and colours, optional ages, difficulty, who keeps the
// ghost's secrets, and the sand timer's length. Empty names take their placeholder, so a
// table can start in three taps and name people later never.

import { h, toast } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import { gameSwitch, topBar } from './chrome.js';

const COLOURS = ['red', 'yellow', 'blue', 'purple', 'white', 'green'];
const TIMER_SECONDS = [60, 90, 120, 150, 180];

/** The form's choices; kept while the screen re-renders (a language switch, say). */
const form = { players: 5, difficulty: 'easy', secrets: 'app_kept', seconds: 120 };

/** Psychic players at the table, and how many colours each runs (two with 2–3 players). */
function seats(players) {
  const count = players - 1;
  return { count, each: players <= 3 ? 2 : 1 };
}

function choice(name, options, current, label, onpick) {
  return h('fieldset', { class: 'choice', id: `setup-${name}` },
    h('legend', {}, label),
    h('div', { class: 'segmented' }, options.map(([value, text]) => h('button', {
      type: 'button', 'data-value': value, 'aria-pressed': String(value === current),
      onclick: () => onpick(value),
    }, text))));
}

function colourSelect(id, colour, label) {
  return h('select', { id, name: id, 'aria-label': label, class: `colour-select colour-${colour}`,
    onchange: (e) => { e.target.className = `colour-select colour-${e.target.value}`; } },
  COLOURS.map((c) => h('option', { value: c, selected: c === colour }, t(`colour.${c}`))));
}

function playerRow(i, each) {
  const dealt = COLOURS.slice(i * each, i * each + each);
  const placeholder = each === 1 ? t(`colour.${dealt[0]}`) : t('setup.player_n', { n: i + 1 });
  return h('div', { class: 'player-row' },
    h('span', { class: 'swatch', 'aria-hidden': 'true', dataset: { colour: dealt[0] } }),
    h('label', { class: 'visually-hidden', for: `name-${i}` }, t('setup.psychic_name', { n: i + 1 })),
    h('input', { id: `name-${i}`, class: 'name', type: 'text', placeholder, maxlength: 24, autocomplete: 'off' }),
    dealt.map((c, k) => colourSelect(`colour-${i}-${k}`, c, t('setup.colour_of', { n: i + 1 }))),
    h('label', { class: 'visually-hidden', for: `age-${i}` }, t('setup.age_of', { n: i + 1 })),
    h('input', { id: `age-${i}`, class: 'age', type: 'number', min: 1, max: 120, inputmode: 'numeric', placeholder: t('setup.age') }));
}

function collect() {
  const { count, each } = seats(form.players);
  const value = (id) => document.getElementById(id).value.trim();
  const players = Array.from({ length: count }, (_, i) => {
    const age = value(`age-${i}`);
    return {
      name: value(`name-${i}`) || document.getElementById(`name-${i}`).placeholder,
      colours: Array.from({ length: each }, (_, k) => value(`colour-${i}-${k}`)),
      age: age ? Number(age) : null,
    };
  });
  return {
    ghost: value('ghost-name') || t('setup.ghost_default'),
    players,
    difficulty: form.difficulty,
    secrets: form.secrets,
    sand_timer: form.seconds === 120 ? null : form.seconds,
  };
}

async function start(event) {
  event.preventDefault();
  const button = document.getElementById('start-game');
  if (button.disabled) return;
  button.disabled = true;
  try {
    const { id } = await api('/games', { method: 'POST', body: { setup: collect() } });
    location.hash = `#/game/${id}`;
  } catch (error) {
    toast(error.message);
    button.disabled = false;
  }
}

/** Draws the form again after a choice, keeping what was typed. */
function rerender() {
  const typed = [...document.querySelectorAll('#setup input, #setup select')].map((el) => [el.id, el.value]);
  document.getElementById('app').replaceChildren(renderSetup());
  for (const [id, value] of typed) {
    const el = document.getElementById(id);
    if (el) el.value = value;
  }
}

export function renderSetup() {
  const { count, each } = seats(form.players);
  const pick = (key) => (value) => { form[key] = value; rerender(); };
  const time = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  return h('div', { id: 'setup', class: 'screen' },
    topBar(),
    h('form', { class: 'panel wide', onsubmit: start },
      h('h1', {}, t('setup.title')),
      gameSwitch('mysterium-classic'),
      choice('players', [2, 3, 4, 5, 6, 7].map((n) => [n, String(n)]), form.players,
        t('setup.players'), pick('players')),
      h('p', { class: 'note' }, each === 2 ? t('setup.two_colours') : t('setup.ghost_included')),
      h('div', { class: 'player-row ghost-row' },
        h('span', { class: 'swatch ghost', 'aria-hidden': 'true' }),
        h('label', { for: 'ghost-name' }, t('setup.ghost')),
        h('input', { id: 'ghost-name', class: 'name', type: 'text', placeholder: t('setup.ghost_default'), maxlength: 24, autocomplete: 'off' })),
      h('div', { class: 'players' }, Array.from({ length: count }, (_, i) => playerRow(i, each))),
      h('p', { class: 'note' }, t('setup.ages_hint')),
      choice('difficulty', ['easy', 'medium', 'hard'].map((d) => [d, t(`difficulty.${d}`)]), form.difficulty,
        t('setup.difficulty'), pick('difficulty')),
      choice('secrets', [['app_kept', t('secrets.app_kept')], ['paper', t('secrets.paper')]], form.secrets,
        t('setup.secrets'), pick('secrets')),
      h('p', { class: 'note' }, t(`secrets.${form.secrets}_hint`)),
      choice('seconds', TIMER_SECONDS.map((s) => [s, time(s)]), form.seconds,
        t('setup.timer'), pick('seconds')),
      h('div', { class: 'row' },
        // Its own click, not only the form's submit: some WebViews' automation clicks
        // do not submit forms. Enter in a field still does.
        h('button', { id: 'start-game', type: 'button', class: 'primary', onclick: start }, t('setup.start')),
        h('a', { class: 'button', href: '#' }, t('settings.back')))));
}
