// The settings screen: the table's language and sound.

import { h, toast } from '../dom.js';
import { t } from '../i18n.js';
import { api } from '../api.js';
import * as player from '../sound/player.js';
import { languageSwitch, topBar } from './chrome.js';
import { render, state } from '../app.js';

/** Saves the table's sound settings; every screen hears of it over the socket. */
async function saveSound(change) {
  const sound = { ...state.settings.sound, ...change, cues: { ...state.settings.sound.cues, ...change.cues } };
  state.settings = await api('/settings', { method: 'PUT', body: { ...state.settings, sound } });
  player.configure(state.settings.sound);
  render();
}

function toggle(id, label, on, flip) {
  return h('label', { class: 'switch', for: id },
    h('input', { id, type: 'checkbox', checked: on, onchange: (e) => flip(e.target.checked) }), label);
}

function soundSection(sound) {
  const tryButton = (label, play) => h('button', { type: 'button', onclick: play }, label);
  return h('section', { class: 'sound', 'aria-labelledby': 'sound-title' },
    h('h2', { id: 'sound-title' }, t('settings.sound')),
    h('div', { class: 'row' },
      h('button', {
        id: 'sound-mute', type: 'button', 'aria-pressed': String(sound.muted),
        onclick: () => saveSound({ muted: !sound.muted }),
      }, t('settings.mute')),
      h('label', { for: 'sound-volume' }, t('settings.volume')),
      h('input', {
        id: 'sound-volume', type: 'range', min: 0, max: 100, step: 5, value: Math.round(sound.volume * 100),
        onchange: (e) => saveSound({ volume: Number(e.target.value) / 100 }),
      })),
    toggle('sound-ambience', t('settings.ambience'), sound.ambience, (ambience) => saveSound({ ambience })),
    h('div', { class: 'row' },
      h('button', {
        id: 'sound-listen', type: 'button', 'aria-pressed': String(player.ambiencePlaying()),
        disabled: !sound.ambience,
        onclick: () => { player.mood(player.ambiencePlaying() ? null : 'seance'); render(); },
      }, t('settings.listen'))),
    musicSection(sound),
    h('h3', {}, t('settings.cues')),
    ['hour', 'timer', 'knocks', 'ending'].map((cue) =>
      toggle(`cue-${cue}`, t(`cue.${cue}`), sound.cues[cue], (on) => saveSound({ cues: { [cue]: on } }))),
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
function musicSection(sound) {
  const now = player.musicState();
  const has = now.tracks.length > 0;
  const choose = (event) => {
    if (!player.setTracks(event.target.files)) toast(t('music.none'));
    render();
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
        onclick: async () => { if (now.playing) player.pauseMusic(); else await player.playMusic(); render(); },
      }, now.playing ? t('music.pause') : t('music.play')),
      h('button', { id: 'music-next', type: 'button', disabled: !has, onclick: () => { player.nextTrack(); render(); } },
        t('music.next')),
      h('button', {
        id: 'music-shuffle', type: 'button', 'aria-pressed': String(sound.shuffle),
        onclick: () => saveSound({ shuffle: !sound.shuffle }),
      }, t('music.shuffle')),
      h('label', { for: 'music-volume' }, t('music.volume')),
      h('input', {
        id: 'music-volume', type: 'range', min: 0, max: 100, step: 5, value: Math.round(sound.music * 100),
        onchange: (e) => saveSound({ music: Number(e.target.value) / 100 }),
      })));
}

export function renderSettings(state) {
  player.onMusicChange(() => { if (location.hash === '#/settings') render(); });
  return h('div', { id: 'settings', class: 'screen' },
    topBar(),
    h('section', { class: 'panel' },
      h('h1', {}, t('settings.title')),
      h('h2', {}, t('settings.language')),
      languageSwitch(),
      h('p', { class: 'note' }, t('settings.language_hint')),
      soundSection(state.settings.sound),
      h('p', { class: 'about' }, t('settings.about', { version: state.info.version })),
      h('a', { class: 'button', href: '#' }, t('settings.back'))));
}
