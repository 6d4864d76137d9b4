// The UI's words in English, French and Italian; each language uses its rulebook's terms.

export const LANGUAGES = ['en', 'fr', 'it'];
const LANG_KEY = 'seance.lang';
let words = {};
let current = 'en';
/** The words on screen where they differ from the usual ones (`new:key`, `stories:key`). */
let dialect = null;

/** Speaks `name` (a game's `dialect`: `new`, `stories`), or the usual words (null). */
export function setDialect(name) {
  dialect = name ?? null;
}

export function language() { return current; }

/** The language this device chose, if any (it overrides the table's). */
export function deviceLanguage() {
  const lang = localStorage.getItem(LANG_KEY);
  return LANGUAGES.includes(lang) ? lang : null;
}

/** The first of the browser's languages that Séance speaks, if any (`fr-FR` → `fr`). */
export function browserLanguage() {
  return (navigator.languages ?? [navigator.language]).map((l) => l?.slice(0, 2).toLowerCase())
    .find((l) => LANGUAGES.includes(l)) ?? null;
}

/** Each language's words, fetched once. */
const fetched = new Map();

/** The words of `lang`, fetched once: beside this module, under the version the page was
 * served with. */
function wordsOf(lang) {
  if (!fetched.has(lang)) {
    const loading = fetch(new URL(`i18n/${lang}.json`, import.meta.url)).then((r) => r.json());
    fetched.set(lang, loading);
    loading.catch(() => fetched.delete(lang));
  }
  return fetched.get(lang);
}

/** Fetches the words of `lang` for later, changing nothing now. */
export function prefetchLanguage(lang) {
  if (LANGUAGES.includes(lang)) wordsOf(lang).catch(() => {});
}

/** How many languages were asked for: the words of the last one asked are spoken, however
 * the fetches come back. */
let asked = 0;

/** Speaks `lang` from now on (`remember`: this device's own choice, kept). */
export async function setLanguage(lang, { remember = false } = {}) {
  if (!LANGUAGES.includes(lang)) lang = 'en';
  if (remember) localStorage.setItem(LANG_KEY, lang);
  const mine = ++asked;
  const loaded = await wordsOf(lang);
  if (mine !== asked) return;
  words = loaded;
  current = lang;
  document.documentElement.lang = lang;
}

/** The phrase for `key` in dialect `spoken`, else this language's own, if any. */
const phrase = (spoken, key) => (spoken && words[`${spoken}:${key}`]) ?? words[key];

/** Whether this language (or the dialect spoken) has a phrase for `key`. */
export function has(key) {
  return Boolean(phrase(dialect, key));
}

/** A refusal `{code, params, error}` in this language: its phrase with the params filled in
 * (lists joined, a game's terms in this language's words); the server's English if this
 * language has no phrase for it. */
export function refusal({ code, params = {}, error }) {
  const key = `refusal.${code}`;
  if (!has(key)) return error;
  const said = (value) => {
    if (Array.isArray(value)) return value.map(said).join(', ');
    if (value && typeof value === 'object' && value.term) return t(value.term);
    if (value && typeof value === 'object' && value.name) return person(value.name, value.colour);
    return value;
  };
  return t(key, Object.fromEntries(Object.entries(params).map(([k, v]) => [k, said(v)])));
}

/** A player by name, with `colour` (a key, `colour.red`) when they play two colours. */
function person(name, colour) {
  return colour ? t('psychic.name_colour', { name, colour: t(colour) }) : name;
}

/** A psychic as the table calls them: their player's name, and their colour when that
 * player plays two. */
export function nameOf(psychic) {
  return person(psychic.name, psychic.two_colours && `colour.${psychic.colour}`);
}

/** Each psychic's initials, as few letters as tell the names apart ("S", "An", "Al"), for
 * marks too small for a name: who is who never by colour alone. A mark is never the start
 * of another name, so a name that another begins with (Chris, Christine) takes its first
 * and last letters ("Cs", "Ce"), or its first and another; one player's two colours share
 * a mark. */
export function initials(psychics) {
  // One player by one name, as the rules tell names apart (letter case aside); the marks in
  // capitals, however a name's capitals are spelt ("Strauß" and "Strauss" stay two).
  const keys = psychics.map((p) => p.name.trim().toLowerCase());
  const distinct = [...new Set(keys)];
  const upper = new Map(distinct.map((key) => [key, key.toLocaleUpperCase()]));
  const candidates = (letters) => {
    const later = letters.map((_, k) => k).slice(1).reverse();
    return [
      ...[1, 2, 3].filter((n) => n <= letters.length).map((n) => letters.slice(0, n).join('')),
      ...later.map((k) => letters[0] + letters[k]),
      ...later.filter((k) => k > 1).map((k) => letters[0] + letters[1] + letters[k]),
    ];
  };
  const marks = new Map();
  for (const key of distinct) {
    const name = upper.get(key);
    const letters = [...name];
    const others = distinct.filter((other) => other !== key).map((other) => upper.get(other));
    const misleads = (mark) => mark !== name && others.some((other) => other.startsWith(mark));
    const used = new Set(marks.values());
    let mark = candidates(letters).find((c) => !used.has(c) && !misleads(c));
    for (let n = 1; !mark; n += 1) {
      const numbered = `${letters[0]}${n}`;
      if (!used.has(numbered) && !misleads(numbered)) mark = numbered;
    }
    marks.set(key, mark);
  }
  return keys.map((key) => {
    const [first, ...rest] = marks.get(key);
    return first + rest.join('').toLocaleLowerCase();
  });
}

/** Hour `hour` (1 to 7) as the game's words write it (`spoken`, the screen's unless
 * said): the classic clock's numerals, the new edition's pocket watch's figures. */
export function hourMark(hour, spoken = dialect) {
  return tIn(spoken, 'hour.marks').split(' ')[hour - 1];
}

/** The ghost's seat: "Laura, the ghost", or "The ghost" when the setup kept the default
 * name (no "Ghost, the ghost"). */
export function ghostSeat(name) {
  const unnamed = name.trim().toLowerCase() === t('setup.ghost_default').toLowerCase();
  return unnamed ? t('join.ghost_unnamed') : t('join.ghost', { name });
}

/** t('home.devices', {n: 2}) → the phrase, with {n} filled in; the key itself if missing. */
export function t(key, vars = {}) {
  return tIn(dialect, key, vars);
}

/** `t` in dialect `spoken` (a listed game's), whatever the screen speaks. */
function tIn(spoken, key, vars = {}) {
  return elided(phrase(spoken, key) ?? key, vars).replace(/\{(\w+)\}/g, (_, name) => vars[name] ?? `{${name}}`);
}

/** A word that French elides before: a vowel (not an h or a y, which some names keep). */
const VOWEL = /^[aeiouàâäéèêëîïôöùûüœæ]/iu;

/** `phrase` with French's elision where a blank is filled with a word that takes it: "le
 * pion de {name}" is "le pion d'Alex" (and "de Stephanie"). */
function elided(phrase, vars) {
  if (current !== 'fr') return phrase;
  return phrase.replace(/\b([dD])e \{(\w+)\}/g, (whole, d, name) => (VOWEL.test(String(vars[name] ?? '')) ? `${d}'{${name}}` : whole));
}
