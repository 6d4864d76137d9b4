// A phone's own screen at the table: the ghost's (the secret cards, who still needs a
// vision, the answers to give, the culprit, the knocks) or one psychic's (their cards,
// their pawn, their clairvoyancy tokens, their secret vote). It shows its seat's view and
// sends what its seat may do; the server refuses the rest.

import { h, reserved, toast } from '../../dom.js';
import { ghostSeat, hourMark, nameOf, t } from '../../i18n.js';
import { phoneBar } from '../phone_bar.js';
import { alertsHeld, tell } from '../../tell.js';
import { pickAnotherSeat } from '../../act.js';
import { toBgStats } from '../shared/ending.js';
import { sandTimer, setClock } from './timer.js';
import { sealedChoice, traceOf } from './groups.js';
import { countBegun, countList } from './count.js';
import { CATEGORIES, answerButtons, cardAtEnd, intuition } from './psychics.js';
import { helpButton, helpPanel } from '../shared/help.js';
import { mysteriumHelp } from './help.js';
import { lastChange, newsFor, newsOf, toldSince } from '../../log.js';
import { crowClass, crowSpent, oneTap } from '../mysterium.js';
import { loading, notYet, unreadable } from '../chrome.js';

/** Phase 1, through which the ghost's rows hold still under a finger. */
const PHASE_ONE = ['visions', 'interpretation', 'manifestation'];

/** The group tapped on this phone (the culprit, or a vote), before sealing it. */
let choice = null;

/** A group tapped: drawn at once, here. (Asking the server again drew the screen a moment
 * later, replacing the seal button under a finger already on its way to it: WebKit then
 * dropped the tap.) */
function choose(ctx, group) {
  choice = group;
  ctx.render();
}

/** The ghost knocks from the phone, and is told the table heard it. */
async function knock(ctx, times) {
  if (await ctx.post('/knock', { times })) toast(t(times === 1 ? 'phone.knocked_yes' : 'phone.knocked_no'));
}

/** A seat's phone follows its view: the sand timer, and a buzz (or a chime) when something
 * is for its player: the sand run out, their turn to vote, news of them (from the log:
 * what was undone is no news). */
export function seatViewChanged(before, after) {
  setClock(after, performance.now());
  if (!before) return;
  const told = toldSince(after, before.version);
  const me = after.view.me?.psychic ?? null;
  if (after.view.me === 'ghost' && told.some((event) => event.type === 'crow_used')) crowSpent(after.view);
  const ranOut = told.some((event) => event.type === 'timer_ended');
  // Called to vote: a turn, not an event (the rules call each psychic as the vote comes round).
  const called = me !== null && after.view.psychics[me].voting_now && !before.view.psychics[me].voting_now;
  const news = me !== null && told.some((event) => newsOf(event, after, me));
  if (ranOut || called || news) tell();
}

/** The phone's bar: who holds the seat, and the hour. */
function header(ctx, who, colour) {
  const view = ctx.view;
  return phoneBar(ctx, {
    who, colour,
    aside: h('span', { id: 'phone-hour', class: 'hour', title: t('clock.label', { hour: view.hour }) },
      h('span', { 'aria-hidden': 'true' }, hourMark(view.hour)),
      h('span', { class: 'visually-hidden' }, t('clock.label', { hour: view.hour }))),
    help: helpButton(ctx),
  });
}

/** The sand timer, counting down as on the table; the ghost's phone has its buttons. */
/** The sand timer while it runs; on a psychic's phone (`early`) from the visions on, waiting,
 * so that nothing below it moves when another device's last vision turns the sand. */
function timerLine(ctx, early = false) {
  const phases = early ? ['visions', 'interpretation'] : ['interpretation'];
  if (!phases.includes(ctx.view.phase) || !ctx.snapshot.timer) return null;
  return sandTimer(ctx, { controls: Boolean(ctx.may('sand_timer')), compact: true });
}

/** What this seat is to do now, or waits for, in one line (`phone.now.<key>`); none where
 * the screen's own heading already says it. */
function nowLine(now) {
  if (!now) return null;
  const [key, vars] = Array.isArray(now) ? now : [now, {}];
  return h('p', { id: 'phone-now', class: 'phone-now', 'data-now': key }, t(`phone.now.${key}`, vars));
}

function ghostNow(ctx) {
  const view = ctx.view;
  const giving = ctx.choices('give_vision', 'psychics').length;
  if (giving) return ['give', { n: giving }];
  if (ctx.may('manifest')) return 'answer';
  if (view.phase === 'ended' || ctx.may('choose_culprit')) return null;
  if (ctx.may('share_vision')) return 'share';
  if (view.counting) return countBegun(view) ? null : 'votes_in';
  return `ghost_${view.phase}`;
}

/** Phase 2, for a psychic: the culprit sealed first, their level told, the shared vision,
 * their vote (or an agreement on the table), then the count read out at the table. */
function revelationNow(ctx, me) {
  const view = ctx.view;
  const p = view.psychics[me];
  if (view.counting) return countBegun(view) ? null : 'votes_in';
  if (!view.culprit_sealed) return 'wait_culprit';
  if (view.eldest_asked) return 'eldest';
  if (ctx.may('vote', { psychic: me })) return view.count ? 'again' : 'vote';
  if (p.voted) return 'wait_votes';
  if (view.decision === 'shared_vision' && !view.shared_vision) return 'wait_shared';
  if (view.decision !== 'straw_poll') return 'agree';
  if (!p.level) return ['state_level', { space: p.track }];
  return ['wait_card', { level: t(`level.${p.level}`), n: p.votes_after }];
}

function psychicNow(ctx, me) {
  const view = ctx.view;
  const p = view.psychics[me];
  switch (view.phase) {
    case 'visions':
      if (!p.seeking) return 'finished';
      return p.vision ? 'have_vision' : p.completing ? 'wait_completion' : 'wait_vision';
    case 'interpretation':
      if (ctx.choices('place_intuition', 'cards', { psychic: me }).length) {
        return p.intuition === null ? 'place_pawn' : ['pawn_placed', { card: p.intuition }];
      }
      return ctx.may('place_token', { by: me }) ? 'tokens' : 'wait_sand';
    case 'manifestation':
      // Where Séance keeps the secrets, the ghost reveals the answers (all in one tap);
      // on paper, it answers each psychic in turn.
      return view.secrets === 'app_kept' ? 'wait_reveal' : 'wait_answers';
    case 'revelation':
      return revelationNow(ctx, me);
    default:
      return null;
  }
}

function ghostScreen(ctx) {
  const view = ctx.view;
  const rows = view.psychics.map((p, i) => {
    const sought = p.seeking ? CATEGORIES.indexOf(p.seeking) : null;
    const card = view.assignments && sought !== null ? view.assignments[i][sought] : null;
    const giving = ctx.choices('give_vision', 'psychics').includes(i);
    const pawn = p.intuition !== null ? h('span', { class: 'pawn-on' }, t('phone.pawn_on', { card: p.intuition })) : null;
    const buttons = [
      giving ? h('button', { type: 'button', 'data-vision': i, onclick: () => ctx.act('give_vision', { psychic: i }) }, t('vision.give')) : null,
      answerButtons(ctx, i, 'phone.reveal'),
    ];
    return h('li', { class: 'phone-row', dataset: { colour: p.colour }, 'data-psychic': i },
      h('span', { class: 'swatch', dataset: { colour: p.colour } }),
      h('span', { class: 'name' }, nameOf(p)),
      h('span', { class: 'sought' }, p.seeking ? t(`category.${p.seeking}`) : t('psychic.finished')),
      card !== null ? h('span', { class: 'secret-card', title: t('phone.their_card') }, card) : null,
      // Through Phase 1 the pawn and the ghost's buttons have a line of their own, as tall
      // whatever the psychics do meanwhile: the rows below hold still under the ghost's finger.
      PHASE_ONE.includes(view.phase) ? h('div', { class: 'row-foot' }, pawn, buttons) : [pawn, buttons]);
  });
  const culprit = ctx.may('choose_culprit')
    ? h('section', { id: 'phone-culprit' },
      h('h2', {}, t('culprit.choose')),
      sealedChoice(view, {
        id: 'phone-seal', chosen: choice, onpick: (group) => choose(ctx, group),
        seal: async (group) => { if (await ctx.act('choose_culprit', { group })) choice = null; },
        label: (n) => (n ? t('culprit.seal', { n }) : t('culprit.pick_first')),
      }))
    : view.culprit ? culpritLine(view) : null;
  const share = ctx.may('share_vision')
    ? h('button', { id: 'phone-share-vision', type: 'button', class: 'primary big', onclick: () => ctx.act('share_vision') },
      t('vision.given'))
    : null;
  return [
    ctx.may('knock') ? h('section', { class: 'knocks', 'aria-label': t('phone.knocks') },
      h('button', { id: 'knock-1', type: 'button', class: 'big', onclick: () => knock(ctx, 1) }, t('phone.knock_yes')),
      h('button', { id: 'knock-2', type: 'button', class: 'big', onclick: () => knock(ctx, 2) }, t('phone.knock_no'))) : null,
    timerLine(ctx),
    nowLine(ghostNow(ctx)),
    // While visions are given and answers revealed, the one tap keeps its room, unseen once
    // it is gone: the rows below hold still under the ghost's finger as the last are.
    oneTap(ctx) ?? (['visions', 'manifestation'].includes(view.phase)
      ? reserved(h('div', { class: 'row one-tap' }, h('button', { type: 'button', class: 'primary big' }, t('vision.give_every', { n: 2 }))))
      : null),
    h('ul', { id: 'phone-psychics', class: 'phone-list' }, rows),
    view.phase !== 'ended'
      ? h('button', { id: 'phone-crow', type: 'button', class: crowClass(''), disabled: !ctx.may('use_crow'), onclick: () => ctx.act('use_crow') },
        `${t('crows.short')} ${view.crows_left}`) : null,
    culprit,
    share,
    phoneCount(view),
  ];
}

/** The count as far as the table has read it out, in step with it. */
function phoneCount(view) {
  if (view.phase !== 'revelation') return null;
  return countList(view);
}

/** The end on a phone: won or lost and why, the count, and (for a psychic) their part. */
function phoneEnding(ctx, me) {
  const view = ctx.view;
  const p = me === null ? null : view.psychics[me];
  const cards = p && CATEGORIES.map((c, k) => h('li', { class: p.found[k] ? 'found' : 'missed', 'data-category': c },
    h('span', { class: 'what' }, t(`category.${c}`)),
    h('span', { class: 'card' }, cardAtEnd(view, me, k))));
  return h('section', { id: 'phone-ending', class: `phone-ending ${view.outcome}` },
    h('h2', { id: 'phone-outcome', class: 'outcome' }, t(`outcome.${view.outcome}`)),
    h('p', { class: 'outcome-why' }, t(`outcome.${view.outcome}_why`, {
      culprit: view.culprit ?? '—', chosen: view.chosen ?? '—', hour: view.hour,
    })),
    p ? h('section', { id: 'phone-part' },
      h('h3', {}, t('phone.your_part', { found: p.found.length })),
      h('ol', { class: 'progress' }, cards),
      view.track_side ? h('p', {}, t('phone.your_track', { n: p.track })) : null) : null,
    countList(view),
    toBgStats(ctx));
}

/** The culprit the ghost sealed, or (new edition) the trace the app drew for them. */
function culpritLine(view) {
  const group = view.groups.find((g) => g.number === view.culprit);
  const whose = group && traceOf(view, group);
  return h('p', { id: 'phone-culprit-is', class: 'banner', 'data-culprit': view.culprit },
    whose ? t('culprit.drawn', { name: nameOf(whose), cards: group.cards.join(' · ') }) : t('phone.culprit_is', { n: view.culprit }));
}

function psychicScreen(ctx, me) {
  const { snapshot, view } = ctx;
  const p = view.psychics[me];
  const others = view.psychics.map((q, i) => [q, i]).filter(([q, i]) => i !== me && q.seeking);
  const tokenActs = others.map(([, i]) => [ctx.choices('place_token', 'faces', { by: me, on: i }), ctx.may('withdraw_token', { by: me, on: i })]);
  const tokens = tokenActs.some(([faces, back]) => faces.length || back)
    ? h('section', { id: 'phone-tokens' },
      h('h2', {}, t('phone.tokens', { agree: p.tokens.agree, disagree: p.tokens.disagree })),
      h('ul', { class: 'phone-list' }, others.map(([q, i], k) => {
        const placed = view.placements.find((x) => x.by === me && x.on === i);
        const [faces, back] = tokenActs[k];
        // A tap on the face already there takes it back; on the other, turns it over.
        const token = (face, sign, label) => {
          const there = placed?.face === face;
          return h('button', {
            type: 'button', class: 'token choice', 'data-kind': face, 'aria-pressed': String(there),
            'aria-label': t(label, { name: nameOf(q) }), disabled: there ? !back : !faces.includes(face),
            onclick: () => (there ? ctx.act('withdraw_token', { by: me, on: i }) : ctx.act('place_token', { by: me, on: i, face })),
          }, sign);
        };
        // Each row as tall whatever stands on it: the name over the pawn's card, and ✓ and ✗
        // side by side (never wrapped apart), offered or not.
        return h('li', { class: 'phone-row token-row', dataset: { colour: q.colour }, 'data-on': i },
          h('span', { class: 'swatch', dataset: { colour: q.colour } }),
          h('span', { class: 'who' },
            h('span', { class: 'name' }, nameOf(q)),
            h('span', { class: 'pawn-on' }, q.intuition !== null ? t('phone.pawn_on', { card: q.intuition }) : '—')),
          h('span', { class: 'token-pair' }, token('agree', '✓', 'phone.agree_with'), token('disagree', '✗', 'phone.disagree_with')));
      })))
    : null;
  const ballot = ctx.may('vote', { psychic: me });
  const vote = view.my_vote !== null ? h('section', { id: 'phone-vote' }, h('p', { class: 'banner' }, t('phone.voted', { n: view.my_vote })))
    : ballot ? h('section', { id: 'phone-vote' },
      sealedChoice(view, {
        id: 'phone-seal', chosen: choice, onpick: (group) => choose(ctx, group),
        seal: async (group) => { if (await ctx.act('vote', { psychic: me, group })) choice = null; },
        label: (n) => (n ? t('vote.seal', { n }) : t('vote.pick_first')),
      }))
      : null;
  // The pawn's cards, or their room before they are offered (the table's tile does the same).
  const pawn = intuition(ctx, p, me);
  const pawnSection = pawn && h('section', { id: 'phone-pawn' }, h('h2', {}, t('phone.my_pawn')), pawn);
  // Phase 1's last answers stay news into Phase 2, until the psychic has a vote to make.
  const news = view.phase === 'revelation' && (ballot || view.my_vote !== null || view.count) ? [] : newsFor(snapshot, me);
  return [
    timerLine(ctx, true),
    nowLine(psychicNow(ctx, me)),
    news.length ? h('div', { id: 'phone-news', class: `banner news ${news.some((n) => n.good) ? 'good' : 'bad'}`, role: 'status' },
      news.map((n) => h('p', { dataset: { good: String(n.good) } }, n.said))) : null,
    view.phase === 'revelation' ? [vote, phoneCount(view)] : null,
    h('ol', { class: 'progress big-progress', 'aria-label': t('psychic.progress') }, CATEGORIES.map((c, k) => h('li', {
      class: p.found[k] ? 'found' : p.seeking === c ? 'seeking' : 'later',
    }, h('span', { class: 'what' }, t(`category.${c}`)), h('span', { class: 'card' }, p.found[k] ?? (p.seeking === c ? '?' : '·'))))),
    pawn?.classList.contains('reserved') ? reserved(pawnSection) : pawnSection,
    tokens,
    view.phase === 'revelation' ? null : vote,
    view.track_side ? h('p', { class: 'standing' }, t('track.space', { n: p.track }), ' · ', p.level ? t(`level.${p.level}`) : t('level.unknown')) : null,
  ];
}

export function renderMysteriumPhone(ctx) {
  const { game } = ctx;
  if (game.refused) return unreadable(ctx);
  // No seat held here (given back, then reloaded): the seats to choose from.
  if (!game.seat) {
    queueMicrotask(() => pickAnotherSeat(game));
    return h('div', { id: 'phone', class: 'screen' });
  }
  const waiting = notYet(ctx, 'phone');
  if (waiting) return waiting;
  // A view that is not this seat's (asked before the seat was taken) waits for its own.
  if (ctx.me === null) return loading(ctx, 'phone');
  const { snapshot, view } = ctx;
  const ghost = ctx.me === 'ghost';
  const me = ctx.me?.psychic ?? null;
  const who = ghost ? ghostSeat(view.ghost) : nameOf(view.psychics[me]);
  const body = view.phase === 'ended' ? phoneEnding(ctx, me)
    : ghost ? ghostScreen(ctx) : psychicScreen(ctx, me);
  return h('div', {
    id: 'phone', class: 'screen phone', 'data-role': game.role, 'data-phase': view.phase,
    'data-version': snapshot.version, 'data-awake': String(view.phase !== 'ended'),
  },
    header(ctx, who, ghost ? null : view.psychics[me].colour),
    lastChange(snapshot),
    h('div', { class: 'phone-body' }, view.phase === 'ended' ? null : alertsHeld(ctx.render), body),
    helpPanel(ctx, mysteriumHelp(view)));
}
