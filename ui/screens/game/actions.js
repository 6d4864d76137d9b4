// What the game screen sends: commands, undo and redo, each based on the version on screen,
// and the sand timer's buttons. A refusal changes nothing and is said in a toast; a stale
// screen is brought up to date first.

import { ApiError, api } from '../../api.js';
import { toast } from '../../dom.js';
import { state, showSnapshot } from '../../app.js';

/** Fetches the game on screen again (after a refusal, or when a sleeping screen wakes). */
export async function refresh() {
  const id = state.game?.id;
  if (id == null) return;
  showSnapshot(await api(`/games/${id}?role=table`));
}

async function post(path, body) {
  const game = state.game;
  try {
    return await api(`/games/${game.id}${path}`, { method: 'POST', body });
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    toast(error.message);
    if (error.status === 409) await refresh();
    return null;
  }
}

/** Sends one command; resolves to the new version, or null when refused. */
export async function command(type, fields = {}) {
  const version = state.game.snapshot.version;
  const answer = await post('/commands', { version, command: { type, ...fields } });
  // The socket brings the new view; ask for it too when it is not there yet, so the next
  // command is based on it.
  if (answer && state.game.snapshot.version < answer.version) await refresh();
  return answer?.version ?? null;
}

/** Sends commands one after the other, each on the version the last one made. */
export async function commands(list) {
  for (const [type, fields] of list) {
    if ((await command(type, fields)) === null) return false;
  }
  return true;
}

export async function rewind(how) {
  const answer = await post(`/${how}`, { version: state.game.snapshot.version });
  if (answer) await refresh();
}

/** pause, resume or reset. */
export async function timer(action) {
  if (await post('/timer', { action })) await refresh();
}
