// The rule sets the server carries, as it tells them in the page (`assets.rs`): each one's
// name (as the journal and the lists of games name it), key (its games' place in the API:
// `/api/rummy/3`), pages (where the UI shows its games: `#/rummy/{id}`) and facts (what
// its setup asks of its rules). The app routes by them, and every path of a game in the API
// is made from its key (`gamePath`, in `ask.js`): no screen spells a key, nor assumes one.

import { t } from './i18n.js';

/** Mysterium's name in the journal: its own screens ask for its facts by it. */
export const MYSTERIUM = 'mysterium-classic';
/** Mystery Rummy's. */
export const MYSTERY_RUMMY = 'mystery-rummy';

/** Every rule set, as the server tells it: in the page, so a first visit routes its link
 * before any question to the server. */
const TOLD = JSON.parse(document.getElementById('rule-sets').textContent);

/** Every rule set, as the server tells it. */
export const ruleSets = () => TOLD;

/** Rule set `name`, as the server tells it. */
export const ruleSet = (name) => ruleSets().find((r) => r.name === name);

/** Rule set `name`'s own part of the table's `settings`: what the table told it once for
 * every game (`{}` until then). */
export const settingsOf = (settings, name) => settings?.rule_sets?.[name] ?? {};

/** A change to the table's settings (for `ctx.saveSettings`) made to rule set `name`'s own
 * part: `change` takes that part as it stands when the change is saved and gives the fields
 * to change, or null for none. */
export const changeOwn = (name, change) => (settings) => {
  const own = settingsOf(settings, name);
  const made = change(own);
  return made && { rule_sets: { ...settings?.rule_sets, [name]: { ...own, ...made } } };
};

/** The facts rule set `name`'s setup asks of its rules. */
export const factsOf = (name) => ruleSet(name).facts;

/** The rule set whose games are under `key` (`mysterium`, `rummy`) in the API. */
export const byKey = (key) => ruleSets().find((r) => r.key === key);

/** Page `page` (`new`, `game`, `join`, `phone`) of game `id` of rule set `name`. */
export const pageOf = (name, page, id) => ruleSet(name).pages[page].replace('{id}', id);

/** What a game of the lists (or the history) is called: its `title`, each edition a game of
 * its own; a newer build's rule set by its name. */
export const gameName = (game) => (game.title ? t(`ruleset.${game.title}`) : game.ruleset);
