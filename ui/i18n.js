// The UI's words in English, French and Italian; each language uses its rulebook's terms.

export const LANGUAGES = ['en', 'fr', 'it'];
const LANG_KEY = 'seance.lang';
let words = {};
let current = 'en';
/** The rules' edition on screen: its own terms override the classic ones (`new:key`). */
let dialect = null;

/** 'new' while a new-edition game (or its setup) is on screen; null otherwise. */
export function setDialect(edition) { dialect = edition === 'new' ? 'new' : null; }

export function language() { return current; }

/** The language this device chose, if any (it overrides the table's). */
export function deviceLanguage() {
  const lang = localStorage.getItem(LANG_KEY);
  return LANGUAGES.includes(lang) ? lang : null;
}

export async function setLanguage(lang, { remember = false } = {}) {
  if (!LANGUAGES.includes(lang)) lang = 'en';
  if (remember) localStorage.setItem(LANG_KEY, lang);
  const response = await fetch(`i18n/${lang}.json`);
  words = await response.json();
  current = lang;
  document.documentElement.lang = lang;
}

/** t('home.devices', {n: 2}) → the phrase, with {n} filled in; the key itself if missing. */
export function t(key, vars = {}) {
  const phrase = (dialect && words[`${dialect}:${key}`]) ?? words[key] ?? key;
  return phrase.replace(/\{(\w+)\}/g, (_, name) => vars[name] ?? `{${name}}`);
}
