// Who is who, and a token's face, must read without colour (a colour-blind player, a dim
// room): every token and track marker carries initials that tell the psychics apart, the
// ✓ and ✗ faces differ in lightness by at least 3:1, and each band of the track has a line
// of its own width or style. Returns what does not.
const problems = [];
for (const token of document.querySelectorAll('#psychics .token')) {
  if (!token.querySelector('.initials')?.textContent.trim()) problems.push(`a token without initials: ${token.title}`);
}
const whose = new Map();
for (const marker of document.querySelectorAll('#track .marker')) {
  const mark = marker.textContent.trim();
  if (!mark) problems.push(`a track marker without initials: ${marker.title}`);
  else if (whose.has(mark) && whose.get(mark) !== marker.title) problems.push(`${whose.get(mark)} and ${marker.title} are both "${mark}"`);
  whose.set(mark, marker.title);
}
const luminance = (colour) => {
  const [r, g, b] = colour.match(/[\d.]+/g).slice(0, 3).map((v) => {
    const c = Number(v) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
};
const face = (kind) => document.querySelector(`#psychics .token[data-face="${kind}"]`);
if (face('agree') && face('disagree')) {
  const [a, d] = ['agree', 'disagree'].map((kind) => luminance(getComputedStyle(face(kind)).backgroundColor));
  const ratio = (Math.max(a, d) + 0.05) / (Math.min(a, d) + 0.05);
  if (ratio < 3) problems.push(`the ✓ and ✗ faces are ${ratio.toFixed(2)}:1 apart in lightness`);
}
const bands = new Map();
for (const space of document.querySelectorAll('#track .space')) {
  const line = getComputedStyle(space);
  bands.set([...space.classList].find((c) => c.startsWith('band-')), `${line.borderBottomStyle} ${line.borderBottomWidth}`);
}
if (new Set(bands.values()).size < bands.size) problems.push(`bands told apart by colour alone: ${JSON.stringify([...bands])}`);
return problems;
