// Tiles drawn as SVG, in the look of the strategy report's ship drawing: the face coloured by
// family, pipes for connectors (1 single, 2 double, 3 universal), barrels, exhaust flames, the
// shield's ring round the two sides it covers, red rings on exposed connectors, rule codes.
// Sides are board sides after rotation: 0 front (N), 1 right (E), 2 rear (S), 3 left (W).

let PAL = null;
let KINDS = null;

export function setup(session) {
  PAL = session.palette;
  KINDS = session.kinds;
}

export const kindLabel = (k) => (PAL && PAL.label[k]) || k.replace(/_/g, ' ');
export const esc = (s) => String(s).replace(/[&<>"']/g, (c) => ({'&': '&amp;', '<': '&lt;', '>': '&gt;',
  '"': '&quot;', "'": '&#39;'}[c]));

const DX = [0, 1, 0, -1];
const DY = [-1, 0, 1, 0];
const C = 50;      // centre
const H = 41;      // half the tile face

// A tile from the catalogue (or a custom one) turned by `rot` degrees, as the drawing needs it.
export function turned(tile, rot) {
  const q = ((rot || 0) / 90) % 4;
  const info = KINDS[tile.kind] || {barrels: [], exhausts: [], covers: []};
  const eff = [0, 0, 0, 0];
  for (let i = 0; i < 4; i++) eff[(i + q) % 4] = Number(tile.sides[i]);
  const spin = (xs) => xs.map((s) => (s + q) % 4);
  return {kind: tile.kind, connectors: eff, barrels: spin(info.barrels), exhausts: spin(info.exhausts),
    covers: spin(info.covers), exposed: [], codes: [], hint: hintOf(tile)};
}

function hintOf(t) {
  const a = t.attrs || t;  // catalogue rows carry their attributes at the top level
  if (t.kind === 'life_support') return a.color || '';
  if (t.kind === 'battery') return `${a.cells} cells`;
  if (t.kind === 'battery_hold') return `${a.slots} slots`;
  if (t.kind === 'cargo' || t.kind === 'special_cargo') return `${a.slots} slot${a.slots === 1 ? '' : 's'}`;
  if (t.kind === 'mixed_cargo') return `${a.slots}+${a.special_slots}`;
  if (t.kind === 'start_cabin' && a.color) return a.color;
  return '';
}

function pipes(side, n) {
  const dx = DX[side], dy = DY[side];
  const px = -dy, py = dx;
  const offs = {1: [0], 2: [-10, 10], 3: [-14, 0, 14]}[n] || [];
  const [w, h] = dx === 0 ? [6, 10] : [10, 6];
  return offs.map((o) => {
    const cx = C + dx * (H + 3) + px * o, cy = C + dy * (H + 3) + py * o;
    return `<rect class="pipe" x="${cx - w / 2}" y="${cy - h / 2}" width="${w}" height="${h}"/>`;
  }).join('');
}

function barrel(side) {
  const dx = DX[side], dy = DY[side];
  const px = -dy, py = dx;
  const base = H - 12, tip = H + 9, w = 6;
  const pts = [[base, w], [tip, w], [tip, -w], [base, -w]]
    .map(([a, b]) => `${C + dx * a + px * b},${C + dy * a + py * b}`).join(' ');
  return `<polygon class="barrel" points="${pts}"/>`;
}

function flame(side) {
  const dx = DX[side], dy = DY[side];
  const px = -dy, py = dx;
  return [[17, 17, 'flame-out'], [9, 10, 'flame-in']].map(([w, reach, cls]) => {
    const pts = [[H - 4, w], [H + reach, 0], [H - 4, -w]]
      .map(([a, b]) => `${C + dx * a + px * b},${C + dy * a + py * b}`).join(' ');
    return `<polygon class="${cls}" points="${pts}"/>`;
  }).join('');
}

function shield(covers) {
  if (covers.length !== 2) return '';
  // the arc round the corner between the two covered sides, from 30° before the first to 30° after
  const angle = {0: 270, 1: 0, 2: 90, 3: 180};
  let [a, b] = covers.map((s) => angle[s]).sort((x, y) => x - y);
  if (b - a > 180) [a, b] = [b, a + 360];
  const r = H + 2;
  const p = (deg) => [C + r * Math.cos(deg * Math.PI / 180), C + r * Math.sin(deg * Math.PI / 180)];
  const [x1, y1] = p(a - 30), [x2, y2] = p(b + 30);
  return `<path class="shield-arc" d="M${x1.toFixed(1)},${y1.toFixed(1)} A${r},${r} 0 0 1 ${x2.toFixed(1)},${y2.toFixed(1)}"/>`;
}

//: the smallest text a player reads, in CSS pixels (as for the report)
export const MIN_PX = 11;
const VIEW = 112;  // the tile's viewBox: -6 to 106

// font size in the tile's units for text of at least MIN_PX when the tile is drawn `px` wide
function fontUnits(px) {
  return Math.max(15, Math.ceil(MIN_PX * VIEW / Math.max(1, px) * 10) / 10);
}

// The SVG of one tile. `t`: kind, connectors, barrels, exhausts, covers, exposed, codes, hint;
// `px`: how wide it is drawn, in CSS pixels (its labels are sized for it).
export function tileSVG(t, {title = '', labels = true, px = 64} = {}) {
  const face = (PAL && PAL.face[t.kind]) || '#e5e7eb';
  const error = (t.codes || []).some((c) => c !== 'W1');
  const parts = [];
  for (let s = 0; s < 4; s++) {
    if (t.barrels.includes(s)) parts.push(barrel(s));
    else if (t.exhausts.includes(s)) parts.push(flame(s));
    else if (t.connectors[s]) parts.push(pipes(s, t.connectors[s]));
  }
  const box = `<rect class="face${error ? ' broken' : ''}" x="${C - H}" y="${C - H}" width="${2 * H}" height="${2 * H}" rx="8" fill="${face}"/>`;
  const ring = shield(t.covers || []);
  const exposed = (t.exposed || []).map((s) =>
    `<circle class="exposed" cx="${C + DX[s] * (H + 5)}" cy="${C + DY[s] * (H + 5)}" r="6"/>`).join('');
  let text = '';
  if (labels) {
    // text at least MIN_PX on screen whatever the tile's size: the kind's short code where its
    // label would not fit, the hint only where there is room for it
    const f = fontUnits(px - 4);  // the square's border and padding
    const label = kindLabel(t.kind);
    const fits = label.length * f * 0.55 <= 2 * H - 4;
    const shown = fits ? label : ((KINDS && KINDS[t.kind] && KINDS[t.kind].code) || label.slice(0, 3));
    const hint = t.hint && (t.hint.length * f * 0.55 <= 2 * H - 4) && f <= 24 ? t.hint : '';
    text += `<text class="kind" x="${C}" y="${hint ? C - f * 0.4 : C + 1}" font-size="${f.toFixed(1)}">${esc(shown)}</text>`;
    if (hint) {
      const alien = PAL && PAL.alien[hint];
      text += `<text class="hint${alien ? ' alien' : ''}" x="${C}" y="${C + f * 0.75}" font-size="${f.toFixed(1)}"` +
        `${alien ? ` fill="${alien}"` : ''}>${esc(hint)}</text>`;
    }
    if (t.codes && t.codes.length) {
      const c = f;
      const w = 6 + c * 0.62 * t.codes.join(' ').length;
      text += `<g class="codes${error ? '' : ' warn'}"><rect x="${C - H + 2}" y="${C - H + 2}" width="${w.toFixed(1)}" ` +
        `height="${(c + 4).toFixed(1)}" rx="4"/><text x="${C - H + 5}" y="${(C - H + 4 + c * 0.85).toFixed(1)}" ` +
        `font-size="${c.toFixed(1)}">${esc(t.codes.join(' '))}</text></g>`;
    }
  }
  const tt = title ? `<title>${esc(title)}</title>` : '';
  return `<svg class="tile" viewBox="-6 -6 112 112" aria-hidden="true" focusable="false">${tt}${parts.join('')}${box}${ring}${text}${exposed}</svg>`;
}

// A heat colour for a probability (0 white-ish, 1 dark red), on a square-root scale like the report's.
export function heat(p, top) {
  const x = Math.sqrt(Math.min(1, p / Math.max(top, 0.05)));
  // YlOrRd stops
  const stops = [[255, 255, 204], [255, 237, 160], [254, 217, 118], [254, 178, 76], [253, 141, 60],
    [252, 78, 42], [227, 26, 28], [189, 0, 38], [128, 0, 38]];
  const f = x * (stops.length - 1);
  const i = Math.min(stops.length - 2, Math.floor(f));
  const k = f - i;
  const c = stops[i].map((v, j) => Math.round(v + (stops[i + 1][j] - v) * k));
  return `rgb(${c[0]},${c[1]},${c[2]})`;
}

export function pct(p) {
  const v = p * 100;
  if (v === 0) return '0%';
  if (v < 0.5) return '<1%';
  if (v > 99.5 && v < 100) return '>99%';
  return `${v.toFixed(0)}%`;
}
