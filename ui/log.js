// What happened lately, as the snapshot's `log` tells it to this screen's role: each change
// in this language's words (`log.<type>`), who undid or redid it, and the names of the
// players it concerns. The log is the rules' account; this only words it.

import { h } from './dom.js';
import { has, nameOf, t } from './i18n.js';

const SIGNS = { agree: '✓', disagree: '✗' };

/** Names for the indices a told event carries, from the view. */
function namer(view) {
  const people = view.psychics?.map(nameOf) ?? view.players ?? [];
  const name = (i) => people[i] ?? '?';
  return {
    name,
    names: (list) => list.map(name).join(', '),
    sender(by) {
      if (by === null || by === undefined) return t('log.by_someone');
      if (by === 'table') return t('log.by_table');
      if (by === 'ghost') return view.ghost;
      return by.psychic !== undefined ? view.psychics[by.psychic]?.name ?? '?' : name(by.player);
    },
  };
}

/** One told event in words, or null for one this screen has no words for. */
function sentence(told, view, names) {
  const { name } = names;
  const vars = {
    name: name(told.psychic ?? told.player ?? told.by),
    by: name(told.by), on: name(told.on), card: told.card, face: SIGNS[told.face],
    hour: told.hour, bonus: told.bonus, group: told.group, count: told.count,
    level: told.level && t(`level.${told.level}`), round: (told.round ?? 0) + 1,
    chosen: told.chosen, culprit: told.culprit,
    suspect: told.suspect === undefined ? undefined : t(`suspect.${told.suspect}`),
  };
  let key = `log.${told.type}`;
  if (told.type === 'manifested') key = told.right ? 'log.manifested_right' : 'log.manifested_wrong';
  if (told.type === 'ended') key = told.won ? 'log.ended_won' : 'log.ended_lost';
  // Without a track (2 or 3 players, the new edition) there is no bonus to tell.
  if (told.type === 'finished' && !view.track_side) key = 'log.finished_no_track';
  if (told.type === 'voted') key = told.suspect !== undefined ? 'log.voted_suspect' : told.group === undefined ? 'log.voted_sealed' : 'log.voted';
  if (!has(key)) return null;
  let said = t(key, vars);
  if (told.type === 'manifested' && told.moved?.length) said += ` · ${t('log.moved', { names: names.names(told.moved) })}`;
  return said;
}

/** A change in words: what it told, and who undid or redid it. */
export function changeSaid(change, view) {
  const names = namer(view);
  // A token turned over is one act: taken back, then laid on its other face, said once.
  const turned = (told, k) => told.type === 'token_withdrawn'
    && change.told[k + 1]?.type === 'token_placed' && change.told[k + 1].by === told.by && change.told[k + 1].on === told.on;
  const what = change.told.filter((told, k) => !turned(told, k))
    .map((told) => sentence(told, view, names)).filter(Boolean).join(' · ');
  if (!what) return null;
  if (change.change === 'done') return what;
  return t(`log.${change.change}`, { by: names.sender(change.by), what });
}

/** What `told` tells psychic `me` of themselves, or null: their answer, a token of theirs
 * scored, their last card found. */
export function newsOf(told, snapshot, me) {
  if (told.type === 'manifested' && told.psychic === me) {
    return told.right ? { said: t('news.right', { card: told.card }), good: true } : { said: t('news.wrong'), good: false };
  }
  if (told.type === 'manifested' && told.moved?.includes(me)) {
    return { said: t('news.token_scored', { name: namer(snapshot.view).name(told.psychic) }), good: true };
  }
  if (told.type === 'finished' && told.psychic === me) {
    // Without a track (2 or 3 players, the new edition) there is no bonus to tell.
    return { said: t(snapshot.view.track_side ? 'news.finished' : 'news.finished_no_track', { bonus: told.bonus }), good: true };
  }
  return null;
}

/** What befell psychic `me` since their last vision, oldest first, each in words with
 * whether it went well: their answer, a token of theirs that scored, their last card found.
 * A change undone since (the version an undo says it `undid`) is not news. */
export function newsFor(snapshot, me) {
  const news = [];
  const undone = new Set();
  for (const change of [...(snapshot.log ?? [])].reverse()) {
    if (change.change === 'undone') undone.add(change.undid);
    else if (undone.has(change.version)) continue;
    else if (change.told.some((x) => x.type === 'vision_given' && x.psychic === me)) break;
    else news.unshift(...change.told.map((x) => newsOf(x, snapshot, me)).filter(Boolean));
  }
  return news;
}

/** What has happened since a screen's last snapshot (version `since`), oldest first, from
 * the log: the events of each change done or redone since; an undo is silent. The cues a
 * screen plays come from here, not from comparing two views. */
export function toldSince(snapshot, since) {
  return (snapshot.log ?? []).filter((c) => c.version > since && c.change !== 'undone').flatMap((c) => c.told);
}

/** The latest change this screen may know of, in a line under the bar; an undo stands out.
 * The line is there, empty, before anything has changed: the first change moves nothing. */
export function lastChange(snapshot) {
  const latest = [...(snapshot.log ?? [])].reverse()
    .map((change) => [change, changeSaid(change, snapshot.view)])
    .find(([, said]) => said);
  if (!latest) return h('p', { id: 'last-change', class: 'last-change', role: 'status', 'aria-live': 'polite' });
  const [change, said] = latest;
  return h('p', {
    id: 'last-change', class: `last-change ${change.change}`, role: 'status', 'aria-live': 'polite',
    'data-version': change.version,
  }, said);
}
