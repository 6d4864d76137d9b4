// The settings screen: the table's language, sound and table link; on a phone, its own
// language.

import { h, toast } from '../dom.js';
import { t } from '../i18n.js';
import * as player from '../sound/player.js';
import { languageSwitch, topBar } from './chrome.js';
import { lyingFlat, setLyingFlat } from './mysterium/timer.js';
import { trackBandsEditor } from './mysterium/track_bands.js';
import { MYSTERIUM, factsOf } from '../rule_sets.js';

/** Saves the table's sound settings; every screen hears of it over the socket. */
async function saveSound(ctx, change) {
  const merged = ({ sound }) => ({ sound: { ...sound, ...change, cues: { ...sound.cues, ...change.cues } } });
  player.configure((await ctx.saveSettings(merged)).sound);
  ctx.render();
}

function toggle(id, label, on, flip) {
  return h('label', { class: 'switch', for: id },
    h('input', { id, type: 'checkbox', checked: on, onchange: (e) => flip(e.target.checked) }), label);
}

/** A button that stays pressed while its setting is on. */
function pressed(id, label, on, onclick, disabled = false) {
  return h('button', { id, type: 'button', 'aria-pressed': String(on), disabled, onclick }, label);
}

/** A 0–1 level of the sound settings, shown as 0–100. */
function level(ctx, id, label, sound, key) {
  return [
    h('label', { for: id }, label),
    h('input', {
      id, type: 'range', min: 0, max: 100, step: 5, value: Math.round(sound[key] * 100),
      onchange: (e) => saveSound(ctx, { [key]: Number(e.target.value) / 100 }),
    }),
  ];
}

function soundSection(ctx) {
  const sound = ctx.settings.sound;
  const tryButton = (label, play) => h('button', { type: 'button', onclick: play }, label);
  return h('section', { class: 'sound', 'aria-labelledby': 'sound-title' },
    h('h2', { id: 'sound-title' }, t('settings.sound')),
    h('div', { class: 'row' },
      pressed('sound-mute', t('settings.mute'), sound.muted, () => saveSound(ctx, { muted: !sound.muted })),
      level(ctx, 'sound-volume', t('settings.volume'), sound, 'volume')),
    toggle('sound-ambience', t('settings.ambience'), sound.ambience, (ambience) => saveSound(ctx, { ambience })),
    h('div', { class: 'row' },
      pressed('sound-listen', t('settings.listen'), player.ambiencePlaying(),
        () => { player.mood(player.ambiencePlaying() ? null : 'seance'); ctx.render(); }, !sound.ambience)),
    musicSection(ctx, sound),
    h('h3', {}, t('settings.cues')),
    ['hour', 'timer', 'knocks', 'ending'].map((cue) =>
      toggle(`cue-${cue}`, t(`cue.${cue}`), sound.cues[cue], (on) => saveSound(ctx, { cues: { [cue]: on } }))),
    h('h3', {}, t('settings.try')),
    h('div', { class: 'row try' },
      tryButton(t('try.knock1'), () => player.cue('knock', 1)),
      tryButton(t('try.knock2'), () => player.cue('knock', 2)),
      tryButton(t('try.strike'), () => player.cue('strike', 3)),
      tryButton(t('try.ring'), () => player.cue('ring')),
      tryButton(t('try.win'), () => player.cue('win')),
      tryButton(t('try.loss'), () => player.cue('loss'))),
    player.blocked() ? h('p', { class: 'note', role: 'status' }, t('sound.blocked')) : null);
}

/** The players' own music: files or a folder, played as a looping playlist. */
function musicSection(ctx, sound) {
  const now = player.musicState();
  const has = now.tracks.length > 0;
  const choose = (event) => {
    if (!player.setTracks(event.target.files)) toast(t('music.none'));
    ctx.render();
  };
  const picker = (id, label, folder) => [
    h('label', { class: 'button', for: id }, label),
    h('input', {
      id, type: 'file', class: 'visually-hidden', onchange: choose, multiple: !folder, webkitdirectory: folder,
      accept: folder ? null : 'audio/*,.mp3,.ogg,.flac,.wav',
    }),
  ];
  return h('div', { class: 'music' },
    h('h3', {}, t('music.title')),
    h('p', { class: 'note' }, t('music.hint')),
    h('div', { class: 'row' }, picker('music-files', t('music.files'), false), picker('music-folder', t('music.folder'), true)),
    has ? h('ol', { id: 'music-list' },
      now.tracks.map((name, i) => h('li', { 'aria-current': i === now.current ? 'true' : null }, name))) : null,
    h('div', { class: 'row' },
      h('button', {
        id: 'music-play', type: 'button', disabled: !has,
        onclick: async () => { if (now.playing) player.pauseMusic(); else await player.playMusic(); ctx.render(); },
      }, now.playing ? t('music.pause') : t('music.play')),
      h('button', { id: 'music-next', type: 'button', disabled: !has, onclick: () => { player.nextTrack(); ctx.render(); } },
        t('music.next')),
      pressed('music-shuffle', t('music.shuffle'), sound.shuffle, () => saveSound(ctx, { shuffle: !sound.shuffle })),
      level(ctx, 'music-volume', t('music.volume'), sound, 'music')));
}

/** Both sides of the table's track, told once for every game. */
function trackSection(ctx) {
  return h('section', { id: 'track-bands', class: 'track-bands-section' },
    h('h2', {}, t('bands.title')),
    h('p', { class: 'note' }, t('bands.hint')),
    Object.keys(factsOf(MYSTERIUM).track_bands).map((side) => trackBandsEditor(ctx, side, () => ctx.render())));
}

/** The table link, for a tablet to become the table screen; never on a QR code. */
function tableLink(url) {
  return h('section', { id: 'table-link', class: 'table-link' },
    h('h2', {}, t('settings.table_link')),
    h('p', { class: 'note' }, t('settings.table_link_hint')),
    h('p', {}, h('code', { id: 'table-url' }, url)));
}

export function renderSettings(ctx) {
  player.onMusicChange(() => { if (location.hash === '#/settings') ctx.render(); });
  return h('div', { id: 'settings', class: 'screen' },
    topBar(ctx),
    h('section', { class: 'panel' },
      h('h1', {}, t('settings.title')),
      h('h2', {}, t('settings.language')),
      languageSwitch(ctx),
      h('p', { class: 'note' }, t(ctx.table ? 'settings.language_hint' : 'settings.language_hint_phone')),
      ctx.table ? soundSection(ctx) : null,
      ctx.table ? trackSection(ctx) : null,
      h('h2', {}, t('settings.screen')),
      toggle('lying-flat', t('settings.flat'), lyingFlat(), (on) => { setLyingFlat(on); ctx.render(); }),
      ctx.table ? tableLink(ctx.info.table_url) : null,
      h('p', { class: 'about' }, t('settings.about', { version: ctx.info.version }), ' ',
        h('a', { id: 'about-licences', href: '#/licences' }, t('settings.licences'))),
      h('a', { class: 'button', href: '#' }, t('settings.back'))));
}
