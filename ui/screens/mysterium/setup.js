// Setting up a Mysterium game of either edition: players, names and colours, who keeps the
// ghost's secrets; classic's difficulty, ages and sand timer; the new edition's card sets
// (from the box the players describe once) and its optional house-rule timer. Empty names
// take their placeholder, so a table can start in three taps and name people later never.

import { h, toast } from '../../dom.js';
import { setDialect, t } from '../../i18n.js';
import { api, gamePath } from '../../api.js';
import { gameSwitch, topBar } from '../chrome.js';
import { CATEGORIES, boxEditor, readBox } from './card_box.js';
import { bandsSaved, toldBands, trackBandsEditor } from './track_bands.js';
import { guiding, setGuiding } from '../shared/help.js';
import { MYSTERIUM, changeOwn, factsOf, pageOf, ruleSet, settingsOf } from '../../rule_sets.js';

const COLOURS = ['red', 'yellow', 'blue', 'purple', 'white', 'green'];
/** The sand timer's lengths offered (the box's among them); the rules check the one chosen. */
const TIMER_SECONDS = [60, 90, 120, 150, 180];

/** The form's choices; kept while the screen re-renders (a language switch, say). */
const form = {
  edition: 'classic', players: 5, difficulty: 'easy', printing: 'original', secrets: 'app_kept', seconds: null, third: 'objects',
  deal: 'sets', houseTimer: 0, boxRows: {}, firstNewGame: null, moreOpen: false,
};

/** The names of the latest games, fetched once per visit: `last` is the latest Mysterium
 * game's table (the ghost first), offered again in the same seats; `names` every recent
 * name, offered as each field's suggestions. */
let recent = null;

/** Fetches the recent names, then fills the fields nobody has typed in yet. */
async function remember() {
  recent = { last: [], names: [] };
  let games = [];
  try {
    games = await api('/games?limit=30');
  } catch {
    return; // no suggestions; the setup works without them
  }
  const last = games.find((g) => g.ruleset === MYSTERIUM)?.players ?? [];
  recent = { last, names: [...new Set(games.flatMap((g) => g.players))].sort((a, b) => a.localeCompare(b)) };
  document.getElementById('recent-names')?.replaceChildren(...suggestions());
  ['ghost-name', ...last.slice(1).map((_, i) => `name-${i}`)].forEach((id, k) => {
    const field = document.getElementById(id);
    if (field && !field.value) field.value = lastName(k, field.placeholder) ?? '';
  });
}

function suggestions() {
  return recent.names.map((name) => h('option', { value: name }));
}

/** The name in seat `k` (0: the ghost) last time, unless it was that seat's default. */
function lastName(k, placeholder) {
  const name = recent?.last[k];
  return name === placeholder ? null : name;
}

/** A set whose backs are green, which the new edition's rulebook suggests for a first game. */
const GREEN = /^(green|vert|verde)/i;

/** Psychic players at the table, and how many colours each runs, as the rules say. */
function seats(players) {
  return { count: players - 1, each: factsOf(MYSTERIUM).colours_each[players] };
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

/** A psychic player's row; ages only where the straw poll may ask (classic). */
function playerRow(ctx, i, each, ages) {
  const dealt = COLOURS.slice(i * each, i * each + each);
  const placeholder = each === 1 ? t(`colour.${dealt[0]}`) : t('setup.player_n', { n: i + 1 });
  return h('div', { class: 'player-row' },
    h('span', { class: 'swatch', 'aria-hidden': 'true', dataset: { colour: dealt[0] } }),
    h('label', { class: 'visually-hidden', for: `name-${i}` }, t('setup.psychic_name', { n: i + 1 })),
    h('input', {
      id: `name-${i}`, class: 'name', type: 'text', placeholder, value: lastName(i + 1, placeholder),
      maxlength: ctx.info.setup.name_chars, autocomplete: 'off', list: 'recent-names',
    }),
    dealt.map((c, k) => colourSelect(`colour-${i}-${k}`, c, t('setup.colour_of', { n: i + 1 }))),
    ages ? [h('label', { class: 'visually-hidden', for: `age-${i}` }, t('setup.age_of', { n: i + 1 })),
      h('input', { id: `age-${i}`, class: 'age', type: 'number', min: factsOf(MYSTERIUM).ages.least, max: factsOf(MYSTERIUM).ages.most, inputmode: 'numeric', placeholder: t('setup.age') })]
      : null);
}

/** The setup's new-edition part: the box (saved to the table's settings) and the deal. */
async function newEditionCards(ctx) {
  const cardBox = readBox();
  await ctx.saveSettings(changeOwn(MYSTERIUM, () => ({ card_box: cardBox })));
  const deal = { kind: form.deal };
  if (form.deal === 'sets') {
    for (const category of CATEGORIES) {
      // The set picked; or, on a first game whose box is being told, its green set.
      const picker = document.getElementById(`deal-${category}`);
      const green = form.firstNewGame ? cardBox[category].find((set) => GREEN.test(set.name.trim()))?.name : null;
      const name = picker ? picker.value : green;
      if (name) deal[category] = name;
    }
  }
  return { card_box: cardBox, deal };
}

async function collect(ctx) {
  const { count, each } = seats(form.players);
  const value = (id) => document.getElementById(id).value.trim();
  const players = Array.from({ length: count }, (_, i) => {
    const age = document.getElementById(`age-${i}`) ? value(`age-${i}`) : '';
    return {
      name: value(`name-${i}`) || document.getElementById(`name-${i}`).placeholder,
      colours: Array.from({ length: each }, (_, k) => value(`colour-${i}-${k}`)),
      age: age ? Number(age) : null,
    };
  });
  const common = { edition: form.edition, ghost: value('ghost-name') || t('setup.ghost_default'), players, secrets: form.secrets };
  if (form.edition === 'new') {
    return { ...common, ...(await newEditionCards(ctx)), sand_timer: form.houseTimer || null };
  }
  return {
    ...common, difficulty: form.difficulty, printing: form.printing, sand_timer: form.seconds === factsOf(MYSTERIUM).sand_timer.box ? null : form.seconds,
    collection: owned(mine(ctx.settings)), third: form.third, track_bands: mine(ctx.settings).track_bands ?? {},
  };
}

async function start(ctx, event) {
  event.preventDefault();
  // A band typed just now is saved (and the form drawn again) before the game takes it.
  await bandsSaved();
  const button = document.getElementById('start-game');
  if (button.disabled) return;
  button.disabled = true;
  try {
    // The settings as they are now, the band just saved among them.
    const { id } = await api(gamePath(ruleSet(MYSTERIUM).key), { method: 'POST', body: { setup: await collect(ctx.now()) } });
    recent = null; // the next setup offers these names
    location.hash = pageOf(MYSTERIUM, 'game', id);
  } catch (error) {
    toast(error.message);
    button.disabled = false;
  }
}

/** Draws the form again after a choice, keeping what was typed (colours are dealt again:
 * how many each player runs depends on the count). */
function rerender(ctx) {
  const typed = [...document.querySelectorAll('#setup input, #setup select:not(.colour-select)')].map((el) => [el.id, el.value]);
  const now = ctx.now();
  now.showScreen(renderMysteriumSetup(now));
  for (const [id, value] of typed) {
    const el = document.getElementById(id);
    if (el) el.value = value;
  }
}

/** What the table told Mysterium once for every game, in its settings. */
const mine = (settings) => settingsOf(settings, MYSTERIUM);

/** The expansions and promo cards the table owns, as Mysterium's part of `settings` keeps
 * them. */
const owned = (own) => ({ expansions: [], promos: [], ...(own.collection ?? {}) });

/** The table's collection beyond the base box (kept in its settings: ticked once), and with
 * Secrets & Lies the third category, objects or stories. */
function collectionChoices(ctx, pick) {
  const collection = owned(mine(ctx.settings));
  // `change` of the collection as it stands when saved: a quick second tap keeps the first.
  const save = async (change) => {
    try {
      await ctx.saveSettings(changeOwn(MYSTERIUM, (own) => ({ collection: change(owned(own)) })));
    } catch (error) {
      toast(error.message);
    }
    rerender(ctx);
  };
  const toggle = (list, item) => (list.includes(item) ? list.filter((x) => x !== item) : [...list, item]);
  const stories = collection.expansions.includes('secrets_and_lies');
  if (!stories) form.third = 'objects';
  return [
    h('fieldset', { class: 'choice', id: 'setup-collection' },
      h('legend', {}, t('setup.collection')),
      h('div', { class: 'segmented wrap' },
        factsOf(MYSTERIUM).expansions.map((name) => h('button', {
          type: 'button', 'data-expansion': name, 'aria-pressed': String(collection.expansions.includes(name)),
          onclick: () => save((now) => ({ ...now, expansions: toggle(now.expansions, name) })),
        }, t(`expansion.${name}`))),
        factsOf(MYSTERIUM).promos.map((n) => h('button', {
          type: 'button', 'data-promo': n, 'aria-pressed': String(collection.promos.includes(n)),
          'aria-label': `${t('expansion.promos')} P${n}`,
          onclick: () => save((now) => ({ ...now, promos: toggle(now.promos, n).sort((a, b) => a - b) })),
        }, `P${n}`)))),
    h('p', { class: 'note' }, t('setup.collection_hint')),
    stories ? choice('third', [['objects', t('setup.third_objects')], ['stories', t('setup.third_stories')]],
      form.third, t('setup.third'), pick('third')) : null,
  ];
}

/** The side of the track this many players use, where they use one: told, it folds to a
 * line; untold, it opens for the numbers printed on the board. */
function trackChoice(ctx) {
  const side = factsOf(MYSTERIUM).track_sides[form.players];
  if (!side) return null;
  const told = toldBands(ctx.settings, side);
  return h('details', { id: 'setup-track', class: 'box-details', open: !told },
    h('summary', {}, told ? t('bands.summary_told', { side, ...told }) : t('bands.summary_untold', { side })),
    trackBandsEditor(ctx, side, () => rerender(ctx)));
}

/** Classic's own choices: difficulty, the sand timer, the table's collection, and (where a
 * straw poll is held) the rulebook printing whose tie-break the count follows. */
function classicChoices(ctx, pick, time) {
  form.seconds ??= factsOf(MYSTERIUM).sand_timer.box;
  return [
    choice('difficulty', ['easy', 'medium', 'hard'].map((d) => [d, t(`difficulty.${d}`)]), form.difficulty,
      t('setup.difficulty'), pick('difficulty')),
    trackChoice(ctx),
    h('button', {
      id: 'setup-first-game', type: 'button', 'aria-pressed': String(guiding()),
      onclick: () => { setGuiding(!guiding()); rerender(ctx); },
    }, t('setup.first_game')),
    // What a returning table keeps as it was, folded under one line.
    h('details', { id: 'setup-more', class: 'box-details', open: form.moreOpen, ontoggle: (e) => { form.moreOpen = e.target.open; } },
      h('summary', {}, t('setup.more')),
      choice('seconds', TIMER_SECONDS.map((s) => [s, time(s)]), form.seconds, t('setup.timer'), pick('seconds')),
      collectionChoices(ctx, pick),
      factsOf(MYSTERIUM).straw_poll.includes(form.players) ? [
        choice('printing', ['original', 'later'].map((p) => [p, t(`printing.${p}`)]), form.printing,
          t('setup.printing'), pick('printing')),
        h('p', { class: 'note' }, t('setup.printing_hint')),
      ] : null),
  ];
}

/** Whether no new-edition game was ever started at this table (asked once). */
async function learnFirstNewGame(ctx) {
  const games = await api('/games?edition=new&limit=1').catch(() => null);
  form.firstNewGame = Array.isArray(games) && games.length === 0;
  if (!document.getElementById('setup')) return;
  rerender(ctx);
  // Drawn again with what was typed, which is no choice yet: show the green sets chosen.
  for (const select of document.querySelectorAll('.deal-set select')) {
    const green = [...select.options].find((o) => o.defaultSelected);
    if (green) select.value = green.value;
  }
}

/** The new edition's own choices: the box, one set per category or mixed, a house timer. */
function newEditionChoices(ctx, pick, time) {
  const box = { characters: [], locations: [], objects: [], ...(mine(ctx.settings).card_box ?? {}) };
  const known = CATEGORIES.every((c) => box[c].length);
  if (form.firstNewGame === null) {
    // Asked once: no green preselection until the answer (or if it fails).
    form.firstNewGame = false;
    learnFirstNewGame(ctx);
  }
  const green = (category) => (form.firstNewGame ? box[category].find((set) => GREEN.test(set.name.trim())) : null);
  const setPicker = (category) => h('label', { class: 'deal-set' }, t(`box.${category}`),
    h('select', { id: `deal-${category}` },
      h('option', { value: '' }, t('deal.app_chooses')),
      box[category].map((set) => h('option', { value: set.name, selected: set === green(category) }, set.name))));
  const firstGame = form.deal === 'sets' && form.firstNewGame;
  return [
    choice('deal', [['sets', t('deal.sets')], ['mixed', t('deal.mixed')]], form.deal, t('setup.deal'), pick('deal')),
    h('p', { class: 'note' }, t(`deal.${form.deal}_hint`)),
    firstGame ? h('p', { id: 'first-game', class: 'note' }, t('deal.first_game')) : null,
    form.deal === 'sets' && known ? h('div', { class: 'row deal-sets' }, CATEGORIES.map(setPicker)) : null,
    h('details', { class: 'box-details', open: form.boxOpen ?? !known, ontoggle: (e) => { form.boxOpen = e.target.open; } },
      h('summary', {}, t('box.title')),
      boxEditor(box, form.boxRows, (category, n) => { form.boxRows[category] = n; rerender(ctx); })),
    choice('house-timer', [[0, t('setup.no_timer')], ...TIMER_SECONDS.map((s) => [s, time(s)])], form.houseTimer,
      t('setup.house_timer'), pick('houseTimer')),
  ];
}

export function renderMysteriumSetup(ctx) {
  if (!recent) queueMicrotask(remember);
  // The words of the game being set up: its edition's, or its stories'.
  setDialect(form.edition === 'new' ? 'new' : form.third === 'stories' ? 'stories' : null);
  // How many the edition takes, from the rules (/api/info).
  const counts = factsOf(MYSTERIUM).players[form.edition];
  if (!counts.includes(form.players)) form.players = counts[0];
  const { count, each } = seats(form.players);
  const pick = (key) => (value) => { form[key] = value; rerender(ctx); };
  const time = (s) => `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
  const classic = form.edition === 'classic';
  return h('div', { id: 'setup', class: 'screen' },
    topBar(ctx),
    h('form', { class: 'panel wide', onsubmit: (event) => start(ctx, event) },
      h('h1', {}, t('setup.title')),
      gameSwitch(MYSTERIUM),
      choice('edition', [['classic', t('edition.classic')], ['new', t('edition.new')]], form.edition,
        t('setup.edition'), pick('edition')),
      choice('players', counts.map((n) => [n, String(n)]), form.players,
        t('setup.players'), pick('players')),
      h('p', { class: 'note' }, each === 2 ? t('setup.two_colours') : t('setup.ghost_included')),
      classic ? null : h('p', { id: 'players-hint', class: 'note' }, t('setup.players_hint')),
      h('div', { class: 'player-row ghost-row' },
        h('span', { class: 'swatch ghost', 'aria-hidden': 'true' }),
        h('label', { for: 'ghost-name' }, t('setup.ghost')),
        h('input', {
          id: 'ghost-name', class: 'name', type: 'text', placeholder: t('setup.ghost_default'),
          value: lastName(0, t('setup.ghost_default')), maxlength: ctx.info.setup.name_chars, autocomplete: 'off', list: 'recent-names',
        })),
      h('datalist', { id: 'recent-names' }, recent ? suggestions() : null),
      h('div', { class: 'players' }, Array.from({ length: count }, (_, i) => playerRow(ctx, i, each, classic))),
      classic ? h('p', { class: 'note' }, t('setup.ages_hint')) : null,
      choice('secrets', [['app_kept', t('secrets.app_kept')], ['paper', t('secrets.paper')]], form.secrets,
        t('setup.secrets'), pick('secrets')),
      h('p', { class: 'note' }, t(`secrets.${form.secrets}_hint`)),
      classic ? classicChoices(ctx, pick, time) : newEditionChoices(ctx, pick, time),
      // Kept in sight at the foot of the screen, however long the form.
      h('div', { class: 'row setup-actions' },
        // Its own click, not only the form's submit: some WebViews' automation clicks
        // do not submit forms. Enter in a field still does.
        h('button', { id: 'start-game', type: 'button', class: 'primary', onclick: (event) => start(ctx, event) }, t('setup.start')),
        h('a', { class: 'button', href: '#' }, t('settings.back')))));
}
