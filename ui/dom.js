// A tiny DOM builder, the patch that puts a screen drawn anew on the page, and stylesheets
// linked when a screen first needs them. Text is always set as text, never parsed as HTML.
// A screen is a function that builds elements (`h`); `patch` then keeps every element on
// the page that stands for the same thing (by its id, else by its place), so a press, a
// focus, a caret, what is being typed and a scroll survive any update, and nothing moves
// under a finger.

import morphdom from './vendor/morphdom/morphdom.js';

/** Calls the handler the latest drawing gave this element for this event: an element kept
 * by a patch acts on the screen as it shows now, never on an older state. */
function dispatch(event) {
  return event.currentTarget.__on?.[event.type]?.(event);
}

/** Hands `el` the handlers of its latest drawing (`on`: event type → handler). */
function handle(el, on) {
  el.__on = on;
  for (const type of Object.keys(on ?? {})) el.addEventListener(type, dispatch);
}

/** h('button', {class: 'big', onclick}, 'New game') */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  const on = {};
  for (const [key, value] of Object.entries(attrs)) {
    if (value === false || value == null) continue;
    if (key.startsWith('on')) on[key.slice(2)] = value;
    else if (key === 'dataset') Object.assign(el.dataset, value);
    else el.setAttribute(key, value === true ? '' : value);
  }
  handle(el, on);
  for (const child of children.flat(Infinity)) {
    if (child == null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

/** `el` in its place, unseen and out of reach: the room a thing will take once it is
 * offered, held so that nothing moves when it comes (a finger may be on its way below). */
export function reserved(el) {
  el.classList.add('reserved');
  el.setAttribute('aria-hidden', 'true');
  el.setAttribute('inert', '');
  return el;
}

/** The element on the page that `el` (drawn for it) stands for: itself, or the one a patch
 * kept in its place. A handler or a later step reads and writes the page through it. */
export const live = (el) => el.__live ?? el;

/** The fields a person types in. */
const TYPED = 'textarea, input:not([type=checkbox], [type=radio], [type=button], [type=submit])';

/** Whether `from` holds what a person typed (not what was drawn in it) and the new drawing
 * leaves the field as it was: what they typed stays, in the field they are in or one they
 * left before saving (a change to the field itself, from elsewhere, is shown). */
const typedIn = (from, to) => from.matches(TYPED) && from.value !== from.defaultValue
  && from.defaultValue === to.defaultValue;

/**
 * Makes `root`'s content `node`, changing only what differs. Elements are matched by id,
 * else by tag in place. An element marked `data-own` holds what code other than its drawing
 * put in it (a list filled once fetched): once on the page it is left as it is, its handlers
 * updated. `keep` are nodes that are not the screen's (the toast) and stay where they are.
 */
export function patch(root, node, keep = []) {
  const next = document.createElement(root.tagName);
  next.append(node);
  morphdom(root, next, {
    childrenOnly: true,
    onBeforeElUpdated(from, to) {
      to.__live = from;
      handle(from, to.__on);
      // A file picker holds the files a person chose, which a page may only clear.
      if (from.hasAttribute('data-own') || from.matches('input[type=file]')) return false;
      if (typedIn(from, to)) to.value = from.value;
      return true;
    },
    onBeforeNodeDiscarded: (n) => !keep.includes(n),
  });
}

let toastTimer;
/** Shows a short message at the bottom of the screen. */
export function toast(message) {
  const el = document.getElementById('toast');
  el.textContent = message;
  el.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.hidden = true; }, 5000);
}

/** The address of `path` in `ui/`, under the version this page was served with (so it is
 * cached with the rest). */
export const asset = (path) => new URL(path, import.meta.url).href;

/** Stylesheets linked, by path. */
const sheets = new Map();

/** Links the stylesheet `path` of `ui/` once; resolves once it applies (or failed to come:
 * the screen is drawn all the same). */
export function stylesheet(path) {
  if (!sheets.has(path)) {
    sheets.set(path, new Promise((resolve) => {
      document.head.append(h('link', { rel: 'stylesheet', href: asset(path), onload: resolve, onerror: resolve }));
    }));
  }
  return sheets.get(path);
}
