// The words and numbers in view within `within` (none where nothing matches it) set
// smaller than `least` CSS px (each text's element's computed size), but those within
// `except`; one line per kind of element and size. Run through WebDriver: `arguments[0]`
// is `{ least, within, except }`.
const { least, within, except } = arguments[0];
const found = new Map();
const root = document.querySelector(within);
if (!root) return [];
const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
for (let node = walker.nextNode(); node; node = walker.nextNode()) {
  const text = node.textContent.trim();
  if (!text) continue;
  const el = node.parentElement;
  if (el.closest('.visually-hidden, [hidden], [aria-hidden="true"], details:not([open]) > :not(summary), .reserved')) continue;
  if (except && el.closest(except)) continue;
  const box = el.getBoundingClientRect();
  if (box.width === 0 || box.height === 0) continue;
  const style = getComputedStyle(el);
  if (style.visibility === 'hidden' || style.opacity === '0') continue;
  const size = parseFloat(style.fontSize);
  if (size >= least) continue;
  const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
  const name = `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${cls} at ${size.toFixed(1)} px`;
  if (!found.has(name)) found.set(name, text.replace(/\s+/g, ' ').slice(0, 30));
}
return [...found].map(([name, text]) => `${name}: "${text}"`);
