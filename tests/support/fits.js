// Whether the screen fits its window, judged on bounding boxes: no text cut, ellipsized or
// spilling out of its box, nothing off the sides, and (with `noScroll`, at tablet sizes)
// nothing below the fold and no page scroll. Returns the problems, each naming its element.
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
  if (el.closest('.visually-hidden, [hidden], svg')) continue;
  const style = getComputedStyle(el);
  if (style.display === 'none' || style.visibility === 'hidden') continue;
  const box = el.getBoundingClientRect();
  if (box.width === 0 && box.height === 0) continue;
  // Inside a box that scrolls on purpose (a long list), a child may sit out of view.
  let inScroller = false;
  for (let up = el.parentElement; up && up.id !== 'app'; up = up.parentElement) {
    if (scrolls(getComputedStyle(up))) { inScroller = true; break; }
  }
  if (inScroller) continue;
  const hasText = [...el.childNodes].some((n) => n.nodeType === Node.TEXT_NODE && n.textContent.trim());
  const over = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
  if (style.textOverflow === 'ellipsis' && el.scrollWidth > el.clientWidth + 1) {
    problems.push(`ellipsized: ${describe(el)}`);
  } else if (hides(style) && over && hasText) {
    problems.push(`cut: ${describe(el)}`);
  } else if (hasText && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !['INPUT', 'SELECT', 'TEXTAREA'].includes(el.tagName)) {
    problems.push(`text spills out: ${describe(el)} (${el.scrollWidth} > ${el.clientWidth} px)`);
  }
  if (outside(el)) continue;
  if (box.left < -1 || box.right > width + 1) {
    out.add(el);
    problems.push(`off the side: ${describe(el)} (${Math.round(box.left)}–${Math.round(box.right)} px)`);
  } else if (noScroll && box.bottom > height + 1) {
    out.add(el);
    problems.push(`below the fold: ${describe(el)} (bottom at ${Math.round(box.bottom)} px)`);
  }
}
return problems;
