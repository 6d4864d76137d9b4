// Séance's UI entry point: finds the table code, picks the language, keeps the WebSocket
// open and renders the screen named by the address's #hash. It renders views; it decides
// no rule.

import { ApiError, api, connect, takeCode } from './api.js';
import { deviceLanguage, setLanguage, t } from './i18n.js';
import { toast } from './dom.js';
import { renderHome } from './screens/home.js';
import { renderSettings } from './screens/settings.js';
import { renderCodeEntry } from './screens/code.js';
import * as player from './sound/player.js';

/** What the screens show; changed only by what the server says. */
export const state = { info: null, settings: null, connection: 'closed', devices: 0 };

const screens = { '': renderHome, '#/settings': renderSettings };

/** The screen on the table machine itself sets the table's language; others only their own. */
export const isTableHost = ['127.0.0.1', 'localhost', '[::1]'].includes(location.hostname);

export async function chooseLanguage(lang) {
  if (isTableHost) {
    state.settings = await api('/settings', { method: 'PUT', body: { ...state.settings, language: lang } });
    await setLanguage(lang);
  } else {
    await setLanguage(lang, { remember: true });
  }
  render();
}

export function render() {
  const screen = screens[location.hash] ?? renderHome;
  document.getElementById('app').replaceChildren(screen(state));
  updateStatus();
}

function updateStatus() {
  const el = document.getElementById('connection');
  if (!el) return;
  el.dataset.state = state.connection;
  const devices = state.devices === 1 ? t('status.device') : t('status.devices', { n: state.devices });
  el.querySelector('.label').textContent = state.connection === 'open'
    ? `${t('status.open')} · ${devices}` : t(`status.${state.connection}`);
}

async function onMessage(message) {
  switch (message.type) {
    case 'hello':
    case 'presence':
      state.devices = message.devices;
      break;
    case 'settings':
      state.settings = message.settings;
      player.configure(message.settings.sound);
      if (!deviceLanguage()) await setLanguage(message.settings.language);
      render();
      break;
  }
  updateStatus();
}

async function boot() {
  takeCode();
  // Ask for everything at once: the words, the table's facts, and the live socket.
  const words = setLanguage(deviceLanguage() ?? 'en');
  const facts = Promise.all([api('/info'), api('/settings')]);
  try {
    [state.info, state.settings] = await facts;
  } catch (error) {
    await words;
    if (error instanceof ApiError && (error.status === 401 || error.status === 403)) {
      document.getElementById('app').replaceChildren(renderCodeEntry(error.status === 403, boot));
      return;
    }
    throw error;
  }
  player.configure(state.settings.sound);
  connect(onMessage, (connection) => { state.connection = connection; updateStatus(); });
  await words;
  if (!deviceLanguage() && state.settings.language !== 'en') await setLanguage(state.settings.language);
  window.addEventListener('hashchange', render);
  render();
}

window.addEventListener('unhandledrejection', (event) => {
  toast(t('error.generic', { message: event.reason?.message ?? event.reason }));
});

boot();
