// Whether the screen fits its window, judged on bounding boxes: no text cut, ellipsized or
// spilling out of its box (in a box that scrolls too), no box scrolling sideways, nothing
// off the sides, nothing in a bar over anything else in it,
// and (with `noScroll`, at tablet sizes) nothing below the fold and no page scroll. Returns
// the problems, each naming its element.
// Run through WebDriver: `arguments[0]` is `{ noScroll }`.
const { noScroll } = arguments[0] ?? {};
const problems = [];
const [width, height] = [window.innerWidth, window.innerHeight];
const page = document.scrollingElement;
if (page.scrollWidth > width) problems.push(`the page scrolls sideways (${page.scrollWidth} > ${width} px)`);
if (noScroll && page.scrollHeight > height) problems.push(`the page scrolls (${page.scrollHeight} > ${height} px)`);

const describe = (el) => {
  const id = el.id ? `#${el.id}` : '';
  const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
  const text = (el.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40);
  return `${el.tagName.toLowerCase()}${id}${cls} "${text}"`;
};
const hides = (style) => ['hidden', 'clip'].includes(style.overflowX) || ['hidden', 'clip'].includes(style.overflowY);
const scrolls = (style) => ['auto', 'scroll'].includes(style.overflowX) || ['auto', 'scroll'].includes(style.overflowY);

// One problem per place: an element out of view is named, its children are not.
const out = new Set();
const outside = (el) => {
  for (let up = el.parentElement; up; up = up.parentElement) if (out.has(up)) return true;
  return false;
};
for (const el of document.querySelectorAll('#app *')) {
  // What a closed menu holds is not on the screen (Chromium lays it out all the same).
  if (el.closest('.visually-hidden, [hidden], svg, details:not([open]) > :not(summary)')) continue;
  const style = getComputedStyle(el);
  if (style.display === 'none' || style.visibility === 'hidden') continue;
  const box = el.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) continue;
  // A box may scroll down (a long list), never sideways: what it holds is hidden there, with
  // nothing to say there is more.
  if (['auto', 'scroll'].includes(style.overflowX) && el.scrollWidth > el.clientWidth + 1) {
    problems.push(`scrolls sideways: ${describe(el)} (${el.scrollWidth} > ${el.clientWidth} px)`);
  }
  // Inside a box that scrolls, a child may sit out of view; its words are still whole.
  let inScroller = false;
  for (let up = el.parentElement; up && up.id !== 'app'; up = up.parentElement) {
    if (scrolls(getComputedStyle(up))) { inScroller = true; break; }
  }
  const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  const over = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
  if (style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1) {
    problems.push(`ellipsized: ${describe(el)}`);
  } else if (hides(style) && over && hasText) {
    problems.push(`cut: ${describe(el)}`);
  } else if (hasText && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) {
    problems.push(`text spills out: ${describe(el)} (${el.scrollWidth} > ${el.clientWidth} px)`);
  }
  if (inScroller || outside(el)) continue;
  if (box.left < -1 || box.right > width + 1) {
    out.add(el);
    problems.push(`off the side: ${describe(el)} (${Math.round(box.left)}–${Math.round(box.right)} px)`);
  } else if (noScroll && box.bottom > height + 1) {
    out.add(el);
    problems.push(`below the fold: ${describe(el)} (bottom at ${Math.round(box.bottom)} px)`);
  }
}

// Nothing in a bar (a game's, a seat's on a phone) lies over anything else in it: each
// button, link, label and text keeps a box of its own, the words it draws included (they
// may spill out of a box squeezed narrower than they are). A menu opened from the bar lies
// under it, over the page, and is not in it.
const whole = (el) => ['BUTTON', 'A', 'SUMMARY', 'INPUT', 'SELECT', 'IMG', 'H1', 'H2'].includes(el.tagName)
  || ['status', 'img'].includes(el.getAttribute('role'))
  || [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
const drawn = (el) => {
  const style = getComputedStyle(el);
  return style.display !== 'none' && style.visibility !== 'hidden'
    && !el.closest('.visually-hidden, [hidden], details:not([open]) > :not(summary)')
    && !['absolute', 'fixed'].includes(style.position);
};
// Its box and the words it draws (those a sighted person sees: not a label kept for
// screen readers alone).
const inked = (el) => {
  const box = el.getBoundingClientRect();
  const ink = { left: box.left, right: box.right, top: box.top, bottom: box.bottom };
  const words = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = words.nextNode(); node; node = words.nextNode()) {
    if (!node.textContent.trim()) continue;
    let seen = true;
    for (let up = node.parentElement; up && up !== el.parentElement; up = up.parentElement) {
      if (!drawn(up)) { seen = false; break; }
    }
    if (!seen) continue;
    const range = document.createRange();
    range.selectNodeContents(node);
    const r = range.getBoundingClientRect();
    if (!r.width || !r.height) continue;
    Object.assign(ink, { left: Math.min(ink.left, r.left), right: Math.max(ink.right, r.right),
      top: Math.min(ink.top, r.top), bottom: Math.max(ink.bottom, r.bottom) });
  }
  return ink;
};
// Nor does any box lie over its neighbour's: the blocks, flex and grid items side by side
// on the page (a grid placing two in one cell, a stage over the psychics). Words on a line
// (inline boxes) are left to the checks above.
const meet = (p, q) => p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1;
const boxes = (parent) => {
  const found = [];
  for (const child of parent.children) {
    // A sticky bar (a form's Begin) lies over the page on purpose.
    const style = getComputedStyle(child);
    if (!drawn(child) || style.display === 'inline' || style.position === 'sticky' || child.closest('svg')) continue;
    // A box drawn as contents only lays its own children among its neighbours.
    if (style.display === 'contents') found.push(...boxes(child));
    else found.push(child);
  }
  return found;
};
for (const parent of [document.getElementById('app'), ...document.querySelectorAll('#app *')]) {
  if (!drawn(parent) || parent.closest('.visually-hidden, svg') || getComputedStyle(parent).display === 'contents') continue;
  const kids = boxes(parent).map((el) => [el, el.getBoundingClientRect()]).filter(([, b]) => b.width > 1 && b.height > 1);
  for (const [i, [a, p]] of kids.entries()) {
    for (const [b, q] of kids.slice(i + 1)) {
      if (meet(p, q)) problems.push(`over each other: ${describe(a)} and ${describe(b)}`);
    }
  }
}

for (const bar of document.querySelectorAll('#app .bar')) {
  const parts = [];
  const gather = (el) => {
    for (const child of el.children) {
      if (!drawn(child)) continue;
      if (whole(child)) parts.push([child, inked(child)]);
      else gather(child);
    }
  };
  gather(bar);
  const seen = parts.filter(([, b]) => b.right - b.left > 0 && b.bottom - b.top > 0);
  for (const [i, [a, p]] of seen.entries()) {
    for (const [b, q] of seen.slice(i + 1)) {
      if (p.left < q.right - 1 && q.left < p.right - 1 && p.top < q.bottom - 1 && q.top < p.bottom - 1) {
        problems.push(`over each other in the bar: ${describe(a)} and ${describe(b)}`);
      }
    }
  }
}
return problems;
