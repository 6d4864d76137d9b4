// How much of the screen under the bar is left empty: the tallest band across the whole
// width, from the bar's foot to the window's, in which nothing is drawn (no words, no
// picture, no box with a ground or a border of its own). Returns `[top, bottom]` of that
// band in px.
// Run through WebDriver, with no arguments.
const height = window.innerHeight;
const bar = document.querySelector('#app .bar');
const start = bar ? bar.getBoundingClientRect().bottom : 0;
const painted = (el, style) => {
  if (['IMG', 'CANVAS', 'svg', 'INPUT', 'BUTTON'].includes(el.tagName)) return true;
  if ([...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim())) return true;
  const ground = style.backgroundColor !== 'rgba(0, 0, 0, 0)' || style.backgroundImage !== 'none';
  const border = ['Top', 'Right', 'Bottom', 'Left'].some((side) => parseFloat(style[`border${side}Width`]) > 0
    && style[`border${side}Style`] !== 'none');
  return ground || border;
};
const spans = [];
for (const el of document.querySelectorAll('#app *')) {
  if (el.closest('.visually-hidden, [hidden], details:not([open]) > :not(summary)')) continue;
  const style = getComputedStyle(el);
  // A screen's whole ground is not something drawn on it.
  if (style.display === 'none' || style.visibility === 'hidden' || el.classList.contains('screen')) continue;
  if (!painted(el, style)) continue;
  const box = el.getBoundingClientRect();
  if (box.width < 1 || box.height < 1) continue;
  spans.push([Math.max(box.top, start), Math.min(box.bottom, height)]);
}
spans.sort((a, b) => a[0] - b[0]);
let widest = [start, start];
let reached = start;
for (const [top, bottom] of spans) {
  if (top > reached && top - reached > widest[1] - widest[0]) widest = [reached, top];
  reached = Math.max(reached, bottom);
}
if (height - reached > widest[1] - widest[0]) widest = [reached, height];
return widest.map(Math.round);
