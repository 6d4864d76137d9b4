// A journal in trouble at start: what the server's check found, in this screen's language,
// and the table's choices (recover what can be read, or look again once it is put right).
// Phones and watchers are told the table is choosing. The server starts again after the
// choice; this screen waits for it, then reloads.

import { h, live, toast } from '../dom.js';
import { refusal, t } from '../i18n.js';
import { api } from '../api.js';
import { topBar } from './chrome.js';

/** Waits for the server started again after the choice (its start time changes), then
 * reloads: the journal sound, or still in trouble and told again. */
async function waitForRestart(started) {
  for (;;) {
    await new Promise((done) => setTimeout(done, 300));
    const info = await api('/info').catch(() => null);
    if (info && info.started !== started) {
      location.reload();
      return;
    }
  }
}

/** Whether this screen already waits for the server's new start (a phone waits from the
 * first render: the table's choice is not its own). */
let waiting = false;

export function renderJournal(ctx) {
  const trouble = ctx.info.journal;
  if (!ctx.table && !waiting) {
    waiting = true;
    waitForRestart(ctx.info.started);
  }
  // Said once the choice is made: left so by a patch.
  const outcome = h('p', { id: 'journal-outcome', class: 'note', role: 'status', 'data-own': true });
  const choose = async (choice, buttons) => {
    buttons.forEach((b) => { live(b).disabled = true; });
    try {
      const done = await api('/journal', { method: 'POST', body: { choice } });
      live(outcome).textContent = choice === 'recover' ? t('journal.recovered', done) : t('journal.restarting');
      await waitForRestart(ctx.info.started);
    } catch (error) {
      buttons.forEach((b) => { live(b).disabled = false; });
      toast(error.message);
    }
  };
  const buttons = [];
  const choices = ctx.table ? trouble.choices.map((choice, i) => {
    const button = h('button', { id: `journal-${choice}`, type: 'button', class: i === 0 ? 'primary' : '',
      onclick: () => choose(choice, buttons) }, t(`journal.${choice}`));
    buttons.push(button);
    return h('li', {}, button, h('p', { class: 'hint' }, t(`journal.${choice}_hint`)));
  }) : null;
  // No socket is open meanwhile: nothing to say of a connection.
  const bar = topBar(ctx);
  bar.querySelector('#connection')?.classList.add('quiet');
  return h('div', { id: 'journal', class: 'screen' },
    bar,
    h('section', { class: 'panel' },
      h('h1', {}, t(ctx.table ? 'journal.title' : 'journal.title_phone')),
      h('p', { id: 'journal-found' }, refusal(trouble)),
      ctx.table ? [h('p', {}, t('journal.choose')), h('ul', { class: 'journal-choices' }, choices)]
        : h('p', { class: 'note' }, t('journal.phone')),
      outcome));
}
